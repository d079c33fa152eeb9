"""A game as one viewer may see it: the engine's ``view`` for the pages and the API alike.

One code path decides what a seat (or a spectator) is shown, so the game
page and the JSON API can never disagree about hidden information.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.lifecycle import game_freeze
from games.models import Game, Seat
from games.replay import ReplayBroken, Snapshot, engine_for, snapshot_at


@dataclass(slots=True)
class SeatView:
    """What ``seat_view`` returns.

    Attributes:
        view: ``engine.view(state, viewer)`` with the page's corrections, or
            None before the game started.
        snapshot: the snapshot it was drawn from (its ``events`` feed the log), or None.
        legal: the viewer's legal moves now (``engine.legal_moves``), [] unless
            the viewer owes a decision in a running game.
    """

    view: dict[str, Any] | None
    snapshot: Snapshot | None
    legal: list[dict[str, Any]]


def seat_view(game: Game, seat: Seat | None, *, snap: Snapshot | None = None, with_legal: bool = False) -> SeatView:
    """Return ``game`` as ``seat`` (None: a spectator) may see it at ``game.last_seq``.

    Expects ``game.seats`` prefetched. A finished game hides nothing (as its
    log and replay do). A seat that gave up (a bot plays it) and everyone
    once the game is not running get no legal moves and no decision. A log
    that no longer replays freezes the game for a moderator (never a 500):
    ``game`` is then changed in memory to status frozen, and the view is
    drawn as far as the log replays.

    Args:
        snap: the game's snapshot at ``game.last_seq`` if the caller has it (the move path).
        with_legal: also list the viewer's legal moves (the API; the pages draw
            theirs from the view).
    """
    if game.started is not None and snap is None:
        try:
            snap = snapshot_at(game)
        except ReplayBroken as broken:
            if game_freeze(game_id=game.pk, broken=broken):
                game.status, game.to_act, game.deadline = Game.Status.FROZEN, [], None
            snap = broken.snapshot
    if snap is None:
        return SeatView(view=None, snapshot=None, legal=[])
    viewer = seat.position if seat is not None else None
    finished = game.status == Game.Status.FINISHED
    engine = engine_for(game)
    view = engine.view(snap.state, viewer, reveal_all=finished)
    if finished and not view.get("game_over"):
        # It ended off the board (resignations, timeouts): drawn as over, winners as the seats rank.
        view["game_over"] = True
        view["result"] = {
            **(view.get("result") or {}),
            "winners": [s.position for s in game.seats.all() if s.rank == 1],
        }
    legal: list[dict[str, Any]] = []
    if (seat is not None and seat.given_up) or not game.is_active:
        # A bot plays this seat now: its former player still sees the hand, but has no move to make.
        # Nor has anyone once the game is over: a forfeit ends it without the rules, whose view
        # would still list the moves of the seat whose turn it was.
        view["legal"] = []
        view["decision"] = None
    elif with_legal and viewer is not None and viewer in game.to_act:
        legal = engine.legal_moves(snap.state, viewer)
    return SeatView(view=view, snapshot=snap, legal=legal)


def turn_free(game: Game, snap: Snapshot | None) -> bool:
    """Whether, at ``snap``, the turn's player is free to make an ordinary turn move (``engine.pending``
    holds their ``turn`` decision): no card's question of theirs is open and nothing waits on the stack.

    A game's log may read its last plays by it (``eventtext.read_plays``' ``settled``, for a game whose
    page part sets ``LOG_READS_TURN``): a play with nothing after it either did nothing (the turn goes
    on) or still waits for its choice. False without a snapshot, and for an engine that no longer replays.
    """
    if snap is None:
        return False
    try:
        engine = engine_for(game)
    except ReplayBroken:
        return False
    return any(d.kind == "turn" for d in engine.pending(snap.state))
