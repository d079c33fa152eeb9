"""A game's engine state: replayed from its log, cached between requests.

A game is its Action log: the state after ``seq`` moves is
``new_game(options, seats, seed)`` with the first ``seq`` moves applied.
The latest state is cached (Django's cache, as a pickle) under a key of
game, creation time, seq and engine version, so most requests never replay;
a miss only costs a replay. Nothing here writes a row.
"""

from __future__ import annotations

import pickle
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.utils.translation import gettext as _

from games.engine.core import Engine, Event
from games.engine.registry import get_engine
from games.errors import GameNotActive
from games.models import Game

#: How long a cached state lives; a miss only costs a replay.
STATE_CACHE_TIMEOUT = 7 * 24 * 3600
#: How many recent events the cached state keeps for the log (older ones: replay).
RECENT_EVENTS = 400


@dataclass(slots=True)
class Snapshot:
    """A game's engine state after ``seq`` moves, with its most recent events.

    Attributes:
        state: the engine state (never pass it to a template).
        events: ``(seq, Event)`` pairs for the last ``RECENT_EVENTS`` events,
            oldest first, unfiltered: filter with ``Event.for_viewer``.
    """

    state: Any
    events: list[tuple[int, Event]]


def engine_for(game: Game) -> Engine:
    """Return the engine that plays ``game`` (its kind; see ``games.engine.registry``).

    Raises:
        KeyError: the game's kind has no engine.
    """
    return get_engine(game.kind)


def state_key(game: Game, seq: int, engine_version: int) -> str:
    """The cache key of ``game``'s state after ``seq`` moves under ``engine_version``."""
    # The creation time is in the key because ids restart when a database is
    # recreated (tests, a fresh dev database) while Redis keeps old entries.
    return f"herald:state:{game.pk}:{int(game.created.timestamp() * 1e6)}:{seq}:{engine_version}"


def state_at(game: Game) -> Any:
    """Return the engine state of ``game`` after its last move (``game.last_seq``).

    Read from Django's cache, keyed by (game id, seq, engine version); on a
    miss, rebuilt by replaying the Action log through the engine from
    ``new_game(options, seats, seed)`` and stored again. The result is a
    fresh object the caller may mutate (the cache holds a pickle).

    Never pass the result to a template: use ``engine.view`` on it.

    Raises:
        GameNotActive: the game has not started (no state exists yet).
    """
    return snapshot_at(game).state


def snapshot_at(game: Game) -> Snapshot:
    """Return the :class:`Snapshot` of ``game`` at ``game.last_seq`` (cache, else replay).

    Raises:
        GameNotActive: the game has not started (no state exists yet).
    """
    if game.started is None:
        raise GameNotActive(_("This game has not started yet."))
    engine = engine_for(game)
    key = state_key(game, game.last_seq, engine.version)
    blob = cache.get(key)
    if blob is not None:
        return pickle.loads(blob)  # noqa: S301 - our own cache, written by snapshot_pickle
    snap = replay(game, engine)
    cache.set(key, snapshot_pickle(snap), STATE_CACHE_TIMEOUT)
    return snap


def snapshot_pickle(snap: Snapshot) -> bytes:
    """The bytes the state cache holds for ``snap`` (taken now: later changes to the state cannot leak in)."""
    return pickle.dumps(snap, pickle.HIGHEST_PROTOCOL)


def replay(game: Game, engine: Engine, upto: int | None = None) -> Snapshot:
    """Rebuild the state from options, seed and the log, up to ``upto`` (default ``game.last_seq``)."""
    seats = game.seats.count()
    state = engine.new_game(game.options, seats, game.seed)
    events: list[tuple[int, Event]] = []
    last = game.last_seq if upto is None else upto
    for seq, seat, move in game.actions.filter(seq__lte=last).order_by("seq").values_list("seq", "seat", "move"):
        events.extend((seq, e) for e in engine.apply(state, seat, move))
        if len(events) > 2 * RECENT_EVENTS:
            del events[:-RECENT_EVENTS]
    return Snapshot(state, events[-RECENT_EVENTS:])


def replay_states(game: Game) -> list[tuple[int, int | None, dict[str, Any], Any, list[Event]]]:
    """Every position of a game: ``(seq, seat, move, state_after, events)``, seq 0 first.

    For replay viewers and moderators; it replays the whole log, so use it
    for one game at a time. States are independent copies.
    """
    engine = engine_for(game)
    state = engine.new_game(game.options, game.seats.count(), game.seed)
    start = pickle.loads(pickle.dumps(state))
    out: list[tuple[int, int | None, dict[str, Any], Any, list[Event]]] = [(0, None, {}, start, [])]
    for seq, seat, move in game.actions.order_by("seq").values_list("seq", "seat", "move"):
        events = engine.apply(state, seat, move)
        out.append((seq, seat, move, pickle.loads(pickle.dumps(state)), events))
    return out
