"""Domaine's page part (``games.presentation``): its board, its stylesheet, the check of an empty play."""

from __future__ import annotations

from games.domaine.board import unconfirmed_empty_play

#: The board: an SVG of the map, the hands and the display, and the move built by clicks (``games.domaine.views``).
BOARD_TEMPLATE = "domaine/board.html"
STYLESHEET = "domaine/domaine.css"
#: Domaine's waiting move is the take (the only card left to take), and its page has no End turn button.
UNDO_HINT_TEMPLATE = "domaine/_undo_hint.html"

#: A legal play that places nothing spends its card for nothing: the page's form must say it is meant.
confirm_move = unconfirmed_empty_play
