"""Domaine is 领域 / 領域 in the Chinese pages, as Dominion is 皇舆争霸; each script in its own characters."""

from __future__ import annotations

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("language", "name", "foreign"), [("zh-hans", "领域", "著"), ("zh-hant", "領域", "着")])
def test_the_domaine_rules_use_the_chinese_name_and_one_script(client, language, name, foreign):
    html = client.get(reverse("guide:rules", args=["domaine"]), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert f"{name}玩法" in html
    # The walk-through: a Traditional 著 in "城堡上插著旗子" on the Simplified page.
    assert foreign not in html
    body = html.split("<main", 1)[1]
    assert "Domaine" not in body.replace("Domaine，Klaus Teuber", ""), "an untranslated Domaine in the page"
