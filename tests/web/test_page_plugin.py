"""The game page is the platform's, the board the game's (issue 29, ``games.presentation``).

The page reaches a game only through its page part: the counter game, which
has none, is drawn with the generic board and no stylesheet; Dominion and
Domaine with their own, from their packages. The page's platform files name
no game and no card.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings

from games import kinds, presentation
from tests.conftest import make_game

ROOT = Path(settings.BASE_DIR)

#: The platform's files of the game page: they reach a game only through games.presentation and games.kinds.
PAGE_FILES = [
    "games/presentation.py",
    "games/eventtext.py",
    "games/viewing.py",
    "games/urls.py",
    "games/views/page.py",
    "games/views/records.py",
    "games/views/moves.py",
    "games/templatetags/games_tags.py",
    "games/static/games/herald.js",
    "templates/games/game.html",
    "templates/games/replay.html",
    "templates/games/generic_board.html",
    "templates/games/_game_meta.html",
    "templates/games/_undo.html",
]


def _site_games() -> list[kinds.GameKind]:
    """The site's games (the tests' counter game left out: its name is an ordinary word)."""
    return [kind for kind in kinds.all_kinds() if not kind.package.startswith("tests.")]


def test_the_page_s_platform_files_name_no_game_and_no_card():
    games = re.compile(r"\b(" + "|".join(kind.name for kind in _site_games()) + r")\b", re.IGNORECASE)
    # Card names as printed, capitalised ("Mine", not a template's "undo.mine"), not called ("template.Library()");
    # ids of two characters left out.
    cards = {
        str(c) for kind in _site_games() if (part := kind.part("eventtext")) for c in part.CARDS if len(str(c)) > 2
    }
    named = re.compile(r"\b(" + "|".join(sorted(map(re.escape, cards))) + r")\b(?!\()")
    found = {}
    for path in PAGE_FILES:
        text = (ROOT / path).read_text(encoding="utf-8")
        found[path] = sorted({m.group(0) for m in games.finditer(text)} | {m.group(0) for m in named.finditer(text)})
    assert {path: names for path, names in found.items() if names} == {}


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
