"""The game row follows the position: whose decision is open, the clocks, and the end of a game.

Called with the game's row lock held by the move path, the lifecycle,
timeouts and moderators, so that every way a game changes sets ``to_act``,
runs the clocks and finishes a game the same way, and publishes the same
events (``games.events``). Nothing here saves the Game row: the caller
saves the fields it lists.
"""

from __future__ import annotations

from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from datetime import datetime
from typing import Any

from django.utils import timezone

from games import clocks, events
from games.engine.core import Engine, Result, ranks_from_keys
from games.models import Game, Seat


def answering_only(pending: list[Any]) -> set[int]:
    """The seats all of whose ``pending`` decisions are answers outside their own turn."""
    seats = {d.player for d in pending}
    return {p for p in seats if all(d.out_of_turn for d in pending if d.player == p)}


def update_turn_fields(
    game: Game,
    engine: Engine,
    state: Any,
    *,
    seats: list[Seat] | None = None,
    answering: AbstractSet[int] = frozenset(),
) -> None:
    """Set ``to_act`` from ``pending``, run the clocks of exactly those seats, publish ``DecisionsOwed``.

    ``games.clocks.clocks_update`` writes the seats' ``owes_move`` and clock
    fields and ``game.deadline``; the seats whose clock just started are the
    event's payload (``correspondence`` owes each person a "your move").
    ``seats``: the game's seats read under the lock, if the caller has them.
    ``answering``: the seats that owed only out-of-turn answers before the
    moves just made (``answering_only``); one that now owes its own turn
    starts a new stretch of time, as if its clock had stopped in between
    (an engine may let a victim's turn start before it has answered an
    attack, and that turn must not inherit the clock the attack started).
    """
    pending = engine.pending(state)
    to_act = sorted({d.player for d in pending})
    game.to_act = to_act
    restart = set(answering) - answering_only(pending) if answering else set()
    started = clocks.clocks_update(game, set(to_act), timezone.now(), seats=seats, restart=restart)
    if started:
        events.publish(events.DecisionsOwed(game=game, seats=started))


def finish(game: Game, engine: Engine | None, state: Any, *, seats: list[Seat] | None = None) -> None:
    """Write the result to the seats, mark the game finished, publish ``GameFinished``. Lock held.

    ``state`` is None when a forfeit ends the game early (no engine result:
    the seats still playing tie); ``engine`` may be None then (a frozen
    game's). The caller saves ``status``, ``finished``,
    ``to_act`` and ``deadline``. ``seats``: the game's seats read under the
    lock, if the caller has them.
    """
    result = engine.result(state) if engine is not None and state is not None else None
    if seats is None:
        seats = list(game.seats.all())
    # Forfeited seats rank last whatever their score.
    ranks = final_ranks(seats, result)
    clocks.clocks_stop_all(seats)
    for seat in seats:
        seat.rank = ranks[seat.position]
        if result is not None:
            seat.score = result.scores[seat.position]
        seat.save(update_fields=["rank", "score", *clocks.CLOCK_FIELDS])
    _mark_finished(game)
    events.publish(events.GameFinished(game=game, seats=seats))


def finish_with_ranks(game: Game, ranks: Mapping[int, int], *, seats: list[Seat] | None = None) -> None:
    """End ``game`` with the ranks a moderator set (``{position: rank}``), publish ``GameFinished``. Lock held.

    Saves the seats and the game's ``status``, ``finished``, ``to_act`` and ``deadline``.
    """
    if seats is None:
        seats = list(game.seats.all())
    clocks.clocks_stop_all(seats)
    for seat in seats:
        seat.rank = ranks[seat.position]
    Seat.objects.bulk_update(seats, ["rank", *clocks.CLOCK_FIELDS])
    _mark_finished(game)
    game.save(update_fields=["status", "finished", "to_act", "deadline"])
    events.publish(events.GameFinished(game=game, seats=seats, adjudicated=True))


def _mark_finished(game: Game) -> None:
    game.status = Game.Status.FINISHED
    game.finished = timezone.now()
    game.to_act = []
    game.deadline = None


def final_ranks(seats: list[Seat], result: Result | None) -> dict[int, int]:
    """Return ``{position: rank}`` with forfeited seats ranked after everyone else.

    Seats still playing keep the engine's order (``result.ranks``; all tied
    at 1 when the game ended early, without a result), re-ranked among
    themselves; forfeited seats follow, the one that timed out last first.
    """
    playing = [s for s in seats if not s.forfeited]
    keys = [(-(result.ranks[s.position]) if result is not None else 0,) for s in playing]
    ranks = {s.position: r for s, r in zip(playing, ranks_from_keys(keys), strict=True)}
    gone = sorted(
        (s for s in seats if s.forfeited),
        key=lambda s: s.timed_out or datetime.min.replace(tzinfo=timezone.get_current_timezone()),
        reverse=True,
    )
    for i, s in enumerate(gone):
        ranks[s.position] = len(playing) + 1 + i
    return ranks
