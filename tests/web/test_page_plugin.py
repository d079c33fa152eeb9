"""The game page is the platform's, the board the game's (issue 29, ``games.presentation``).

The page reaches a game only through its page part: the counter game, which
has none, is drawn with the generic board and no stylesheet; Dominion and
Domaine with their own, from their packages. (That the page's platform files
name no game is tests/test_architecture.py's.)
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings

from games import presentation
from tests.conftest import make_game

ROOT = Path(settings.BASE_DIR)


def test_each_game_s_board_comes_from_its_own_package_and_counter_s_is_the_generic_one():
    assert presentation.board_templates("counter") == ["counter/board.html", presentation.GENERIC_BOARD]
    assert presentation.stylesheet("counter") is None
    for kind in ("dominion", "domaine"):
        own = presentation.board_templates(kind)[0]
        assert own == f"{kind}/board.html"
        assert (ROOT / "games" / kind / "templates" / own).exists()
        assert (ROOT / "games" / kind / "static" / presentation.stylesheet(kind)).exists()


def test_a_counter_game_s_page_draws_the_generic_board_without_a_game_stylesheet(client, game):
    page = client.get(game.get_absolute_url()).content.decode()
    assert "raw view" in page and "<pre>" in page  # the generic board
    assert not re.search(r'<link rel="stylesheet" href="[^"]*/(dominion|domaine)/', page)


@pytest.mark.parametrize("kind", ["dominion", "domaine"])
def test_a_game_s_page_links_its_own_stylesheet_and_draws_its_own_board(client, player, opponent, kind):
    game = make_game(player, opponent, kind=kind)
    client.force_login(player)
    page = client.get(game.get_absolute_url()).content.decode()
    assert re.search(rf'<link rel="stylesheet" href="[^"]*/{kind}/{kind}\.css"', page), page[:2000]
    assert "raw view" not in page
    assert f'class="{kind}' in page  # the board's outer element, from games/{kind}/templates/{kind}/board.html
