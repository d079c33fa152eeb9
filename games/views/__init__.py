"""Game pages: the lobby, creating and joining games, the game page, moves, polling, chat, replays.

Views only parse requests and render; ``games.services`` does every write
and ``games.selectors`` every list. Templates never receive engine state,
only ``engine.view(state, seat)``. The views are the top layer: they may
use every app (``correspondence``'s request sweep, ``moderation``'s
flags), which the rest of ``games`` never imports.

HTMX requests get the page's regions (partials of ``games/game.html``);
plain form posts get a redirect (post/redirect/get), or the full page with
an error status when the move was refused, so every form works without
JavaScript. One module per job: ``access`` (who may see or play),
``lobby`` (the lobby, creating, joining), ``page`` (the game page, poll,
chat), ``moves`` (reading and making a move), ``records`` (record and replay), ``undo`` (taking moves back),
``notes`` (a player's private notes).
"""

from __future__ import annotations

from games.views.access import (
    AuthenticatedHttpRequest,
    HtmxHttpRequest,
    get_game_for_player,
    get_game_for_user,
)
from games.views.lobby import game_cancel, game_join, game_leave, game_new, game_resign, lobby
from games.views.moves import MAX_MOVE_BYTES, MalformedMove, game_move, game_standing, loads_plain_json, parse_move
from games.views.notes import game_notes
from games.views.page import game_chat, game_context, game_detail, game_poll
from games.views.records import game_record, game_replay
from games.views.undo import game_undo, game_undo_answer

__all__ = [
    "game_standing",
    "MAX_MOVE_BYTES",
    "AuthenticatedHttpRequest",
    "HtmxHttpRequest",
    "MalformedMove",
    "game_cancel",
    "game_chat",
    "game_context",
    "game_detail",
    "game_notes",
    "game_join",
    "game_leave",
    "game_move",
    "game_new",
    "game_poll",
    "game_record",
    "game_replay",
    "game_resign",
    "game_undo",
    "game_undo_answer",
    "get_game_for_player",
    "get_game_for_user",
    "loads_plain_json",
    "lobby",
    "parse_move",
]
