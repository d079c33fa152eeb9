"""The guide is a plug-in host: each game's pages come from its own package, and a new game's folder adds its own.

The tests' counter game (``tests/counter``) has a guide part of its own
(``tests/counter/guide.py``, a rules page and hints, no card reference):
it shows in the guide's index and menu, its rules page answers, and its
board gets its hint strip; without that part the game is left out.
"""

from __future__ import annotations

import re
from http import HTTPStatus
from pathlib import Path

import pytest
from django.urls import reverse

from games import kinds
from games.engine.domaine.cards import CARDS as DOMAINE_CARDS
from games.engine.dominion.cards import CARDS as DOMINION_CARDS
from games.kinds import GameKind
from guide.hints import HINTS_COOKIE
from tests.conftest import make_game

pytestmark = pytest.mark.django_db

GUIDE_APP = Path(__file__).resolve().parents[2] / "guide"


@pytest.fixture
def without_counter_guide(monkeypatch):
    """The counter game installed as before, but with no guide part (as a game whose author wrote none)."""
    part = GameKind.part

    def no_guide(self, name):
        return None if (self.name, name) == ("counter", "guide") else part(self, name)

    monkeypatch.setattr(GameKind, "part", no_guide)


def test_the_counter_game_is_in_the_index_and_menu_and_its_rules_page_is_its_own(client):
    index = client.get(reverse("guide:index")).content.decode()
    rules = reverse("guide:rules", args=["counter"])
    assert f'<a href="{rules}">Counter rules</a>' in index
    page = client.get(rules)
    assert page.status_code == HTTPStatus.OK
    html = page.content.decode()
    assert "Players take turns adding 1, 2, 3 to a running total" in html
    assert f'<a href="{rules}" aria-current="page">Counter rules</a>' in html
    # Every game's pages are in the menu; the counter game has no card reference, so no link to one.
    assert f'href="{reverse("guide:rules", args=["domaine"])}"' in html
    assert 'href="/rules/counter/cards/"' not in html
    assert client.get("/rules/counter/cards/").status_code == HTTPStatus.NOT_FOUND


def test_the_counter_board_shows_its_own_hints_which_the_guide_switch_turns_off(client, player, opponent):
    game = make_game(player, opponent)
    client.force_login(game.seats.get(position=game.to_act[0]).user)
    page = client.get(game.get_absolute_url()).content.decode()
    assert 'class="hint-strip"' in page
    assert "Add 1, 2 or 3 to the total (0): 10 to go to reach 10 exactly." in page
    assert f'href="{reverse("guide:rules", args=["counter"])}"' in page
    assert 'href="/rules/counter/cards/"' not in page  # no card reference to point at
    client.post(reverse("guide:hints"), {"hints": "off", "next": game.get_absolute_url()})
    assert client.cookies[HINTS_COOKIE].value == "off"
    page = client.get(game.get_absolute_url()).content.decode()
    assert 'class="hint-strip"' not in page and "Show first-game hints" in page


def test_a_game_without_a_guide_part_is_left_out_of_the_guide(client, player, opponent, without_counter_guide):
    index = client.get(reverse("guide:index")).content.decode()
    assert "/rules/counter/" not in index and "Counter" not in index
    assert f'href="{reverse("guide:rules", args=["dominion"])}"' in index
    assert client.get("/rules/counter/").status_code == HTTPStatus.NOT_FOUND
    game = make_game(player, opponent)
    client.force_login(player)
    page = client.get(game.get_absolute_url())
    assert page.status_code == HTTPStatus.OK and 'class="hint-strip"' not in page.content.decode()


def test_the_guide_app_names_no_game_and_no_card():
    games = [kind.name for kind in kinds.all_kinds()]
    cards = [*DOMINION_CARDS, *DOMAINE_CARDS]
    assert "dominion" in games and "domaine" in games and "counter" in games
    found = []
    for path in sorted(GUIDE_APP.rglob("*")):
        if path.suffix not in {".py", ".html", ".css", ".js", ".txt", ".po"}:
            continue  # the catalogue too: a game's msgids are with the site's (locale/), not the guide's
        text = path.read_text(encoding="utf-8")
        found += [f"{path.name}: {name}" for name in games if name in text.lower()]
        # A card name as a word, not as a name in code (Django's template.Library)
        found += [f"{path.name}: {card}" for card in cards if re.search(rf"(?<![.\w]){re.escape(card)}\b", text)]
    assert found == []
