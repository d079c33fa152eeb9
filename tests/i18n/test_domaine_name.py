"""Domaine is 领域 / 領域 in the Chinese pages, as Dominion is 皇舆争霸; each script in its own characters."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.urls import reverse

from tests.conftest import make_game

pytestmark = pytest.mark.django_db

GAMES = [("dominion", {"kingdom": "First Game"}), ("domaine", {})]


@pytest.mark.parametrize(("language", "name", "foreign"), [("zh-hans", "领域", "著"), ("zh-hant", "領域", "着")])
def test_the_domaine_rules_use_the_chinese_name_and_one_script(client, language, name, foreign):
    html = client.get(reverse("guide:rules", args=["domaine"]), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert f"{name}玩法" in html
    # The walk-through: a Traditional 著 in "城堡上插著旗子" on the Simplified page.
    assert foreign not in html
    body = html.split("<main", 1)[1]
    assert "Domaine" not in body.replace("Domaine，Klaus Teuber", ""), "an untranslated Domaine in the page"


#: Pages a signed-in Chinese reader meets, beside the rules: the lobby (its one-button pairing), a seek's form,
#: the kingdom bans, the statistics, the settings, a game of each, their profile. (The API's guide, written for
#: programmers, is English in every language.)
PAGES = [
    "/",
    "/games/new/",
    "/seeks/new/",
    "/settings/",
    "/settings/kingdom/",
    "/stats/dominion/",
    "/stats/domaine/",
    "/rules/",
    "/rules/dominion/",
    "/rules/domaine/cards/",
    "/tournaments/",
]


def _text(html: str) -> str:
    body = html.split("<body", 1)[-1]
    body = re.sub(r"<script.*?</script>|<style.*?</style>", "", body, flags=re.S)
    return unescape(re.sub(r"<[^>]+>", " ", body))


@pytest.mark.parametrize(("language", "names"), [("zh-hans", ("皇舆争霸", "领域")), ("zh-hant", ("皇輿爭霸", "領域"))])
def test_the_chinese_pages_name_both_games_in_chinese(client, player, opponent, language, names):
    """The walk-through: Domaine kept its English name (the lobby's pairing button, a seek's form, its statistics)
    while Dominion was translated. The original name may only follow the Chinese one, in brackets."""
    games = [make_game(player, opponent, kind=kind, options=options) for kind, options in GAMES]
    client.force_login(player)
    seen = ""
    for url in [*PAGES, *(g.get_absolute_url() for g in games), reverse("accounts:profile", args=[player.username])]:
        response = client.get(url, HTTP_ACCEPT_LANGUAGE=language, follow=True)
        assert response.status_code == 200, url
        text = _text(response.content.decode())
        seen += text
        english = [text[max(0, m.start() - 20) : m.end() + 10] for m in re.finditer(r"(?<!（)(Dominion|Domaine)", text)]
        assert not english, (url, english)
    assert all(name in seen for name in names)
