"""The games app's public service functions: everything that writes Game, Seat, Invitation, Action and ChatMessage rows.

Views, tasks and the other apps call these (never the modules' private
names); each is keyword-only, runs in one transaction, and raises a
``games.errors`` error (or the engine's ``IllegalMove`` / ``InvalidOptions``)
with a sentence a player can read. The work is split by job:

* ``games.lifecycle``: create, join, leave, cancel, start, resign, forfeit, expire, abort, adjudicate;
* ``games.arranged``: games whose seats an app above fills at once (tournaments), and leaving them;
* ``games.moves``: the move path (``game_submit_move``, ``apply_move``);
* ``games.turns``: whose decision is open, the clocks and a game's end;
* ``games.replay``: the state from the log, and its cache;
* ``games.fanout``: after commit, the state cache and ``ChangesCommitted``;
* ``games.autoplay``: bot seats and the timeout rule;
* ``games.chat``: chat lines;
* ``games.notes``: each player's private notes on a game;
* ``games.events``: what the other apps listen to.
"""

from __future__ import annotations

from games.arranged import game_cancel_arranged, game_create_arranged, game_withdraw_player
from games.chat import chat_post
from games.errors import (
    AccountRestricted,
    CannotJoin,
    ChatInvalid,
    ChatRateLimited,
    ChatRefused,
    GameNotActive,
    IllegalMove,
    InvalidOptions,
    LockTimeout,
    NoteRefused,
    NotYourMove,
    ServiceError,
    StaleMove,
)
from games.fanout import after_move
from games.lifecycle import (
    OPEN_GAME_LIFETIME,
    TIME_CONTROLS,
    game_cancel,
    game_create,
    game_expire,
    game_join,
    game_leave,
    game_resign,
)
from games.moves import MAX_FORCED_MOVES, MoveResult, game_standing_set, game_submit_move
from games.notes import may_keep_note, note_read, note_save, notes_forget
from games.replay import RECENT_EVENTS, Snapshot, replay_states, snapshot_at, state_at
from games.selectors import game_record
from games.undo import game_undo, game_undo_answer, game_undo_ask, undo_context, undo_request_mark

__all__ = [
    "game_standing_set",
    "MAX_FORCED_MOVES",
    "OPEN_GAME_LIFETIME",
    "RECENT_EVENTS",
    "TIME_CONTROLS",
    "AccountRestricted",
    "CannotJoin",
    "ChatInvalid",
    "ChatRateLimited",
    "ChatRefused",
    "GameNotActive",
    "IllegalMove",
    "InvalidOptions",
    "LockTimeout",
    "MoveResult",
    "NotYourMove",
    "NoteRefused",
    "ServiceError",
    "Snapshot",
    "StaleMove",
    "after_move",
    "chat_post",
    "game_cancel",
    "game_cancel_arranged",
    "game_create",
    "game_create_arranged",
    "game_expire",
    "game_join",
    "game_leave",
    "game_record",
    "game_resign",
    "game_submit_move",
    "game_undo",
    "game_undo_answer",
    "game_undo_ask",
    "game_withdraw_player",
    "may_keep_note",
    "note_read",
    "note_save",
    "notes_forget",
    "replay_states",
    "snapshot_at",
    "state_at",
    "undo_context",
    "undo_request_mark",
]
