"""The API's guide lists each installed game's move notation found through the registry, in the reader's language."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("language", "titles"),
    [
        ("en", ["Dominion: moves, views and decisions", "Domaine: moves, views and decisions"]),
        ("zh-hans", ["皇舆争霸：着法、视图与决定", "领域：着法、视图与决定"]),
        ("zh-hant", ["皇輿爭霸：著法、視圖與決定", "領域：著法、視圖與決定"]),
    ],
)
def test_each_game_with_a_written_notation_has_its_page_titled_in_the_readers_language(language, titles):
    client = Client()
    client.cookies["django_language"] = language
    body = client.get("/api/v1/guide/").content.decode()
    for title, name in zip(titles, ("dominion-moves", "domaine-moves"), strict=True):
        assert f'href="/api/v1/guide/{name}/"' in body and title in body
    assert body.index(titles[0]) < body.index(titles[1])  # the games' list order
    assert titles[1] in client.get("/api/v1/guide/domaine-moves/").content.decode()


def test_a_game_without_a_written_notation_has_no_page():
    # The tests' counter game is installed (tests/settings.py) but has no docs/counter-moves.md.
    client = Client()
    assert "counter-moves" not in client.get("/api/v1/guide/").content.decode()
    assert client.get("/api/v1/guide/counter-moves/").status_code == 404
