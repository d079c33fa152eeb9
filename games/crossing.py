"""Moves that cross: a move made on a page older than the game's last move, applied when nothing it rests on changed.

Two players online at once make moves that cross: Alice plays an attack,
Bob answers it, and a second later Alice makes her next move on the page
drawn before Bob's answer. Refusing her move ("the game moved on") would be
right only if something she saw and acted on had changed; Bob's answer
changed a supply pile and his own discard, not her hand, her coins or her
question. So a move made on the page of
``expected_seq`` is applied when the seat's open decisions and the parts
of its view the move depends on (``games.engine.core.move_basis``, each
engine's say) are the same after ``expected_seq`` and now; otherwise it is
refused with the current position, as before.

A second submit of the same form (a double click, a resent plain post)
must still apply once: any move of the same seat after ``expected_seq``
refuses it, whatever the comparison says, and so does an undo entry (a
position taken back is not the one the page showed).
"""

from __future__ import annotations

from typing import Any

from games import replay
from games.engine.core import move_basis
from games.engine.undo import is_undo
from games.models import Game
from games.replay import engine_for, snapshot_at

#: A page this many moves behind is refused without replaying: comparing costs one replay of the
#: log, and a page that far behind has seen too little of the game for its move to stand.
MAX_CROSSED = 64


def crossing_applies(game: Game, position: int, expected_seq: int, move: Any) -> bool:
    """Whether seat ``position``'s ``move``, made on the page of ``expected_seq`` (older than
    ``game.last_seq``), may be applied now. The caller holds the game's lock (``lock_game``).

    True only if ``0 <= expected_seq < game.last_seq`` (at most ``MAX_CROSSED`` moves
    behind), the seat has made no move since (else a second submit, or another tab,
    would apply twice), no undo entry came since, the seat has an open decision now,
    and ``move_basis(state, position, move)`` is equal after ``expected_seq`` and now.

    Args:
        game: the locked Game row (``last_seq`` current).
        position: the mover's seat.
        expected_seq: the position the page (or API client) drew the move on.
        move: the move as sent (not yet checked by the engine).

    Raises:
        ReplayBroken: the log no longer replays.
    """
    if not 0 <= expected_seq < game.last_seq or game.last_seq - expected_seq > MAX_CROSSED:
        return False
    later = list(game.actions.filter(seq__gt=expected_seq).values_list("seat", "move"))
    if any(seat == position or is_undo(m) for seat, m in later):
        return False
    engine = engine_for(game)
    now = move_basis(engine, snapshot_at(game).state, position, move)
    if not _has_decision(now, engine, position):
        return False
    then = replay.replay(game, engine, upto=expected_seq).state
    return move_basis(engine, then, position, move) == now


def _has_decision(basis: Any, engine: Any, position: int) -> bool:
    """True if the basis names an open decision of the seat (no decision: nothing to cross to)."""
    if isinstance(basis, dict) and "decisions" in basis:
        return bool(basis["decisions"])
    return True  # an engine's own basis without a "decisions" entry: the move path checks it next
