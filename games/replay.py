"""A game's engine state: replayed from its log, cached between requests.

A game is its Action log: the state after ``seq`` moves is
``new_game(options, seats, seed)`` with the first ``seq`` moves applied.
The latest state is cached (Django's cache, as a pickle) under a key of
game, creation time, seq and engine version, so most requests never replay;
a miss only costs a replay. Nothing here writes a row.

A game replays under the engine version it started with (``Game.engine_version``,
``games.engine.registry``). A log that no longer replays (a rules change
that forgot its version check, an engine version no longer shipped) raises
:class:`ReplayBroken` instead of an error page; the site then freezes the
game for a moderator (``games.lifecycle.game_freeze``).
"""

from __future__ import annotations

import pickle
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.utils.translation import gettext as _

from games.engine.core import Engine, EngineError, Event
from games.engine.registry import get_engine
from games.engine.undo import Rewinder, undo_targets
from games.errors import GameNotActive
from games.models import Game

#: How long a cached state lives; a miss only costs a replay.
STATE_CACHE_TIMEOUT = 7 * 24 * 3600
#: How many recent events the cached state keeps for the log (older ones: replay).
RECENT_EVENTS = 400


class ReplayBroken(GameNotActive):
    """A game's log no longer replays under its engine version.

    ``str(err)`` is the sentence for players; the detail is for moderators.

    Attributes:
        game_id: the game.
        seq: the seq of the move that failed (0: the game could not even be set up).
        detail: what went wrong, for moderators and the logs (the exception's repr).
        snapshot: the position before the failing move, when the engine left it
            intact (an ``IllegalMove`` changes nothing), else None.
    """

    def __init__(self, game_id: int, seq: int, detail: str, snapshot: Snapshot | None = None) -> None:
        super().__init__(
            _("This game cannot go on: its moves no longer replay under the site's rules. A moderator has been told.")
        )
        self.game_id = game_id
        self.seq = seq
        self.detail = detail
        self.snapshot = snapshot

    @property
    def reason(self) -> str:
        """One line for moderators: where and why the replay stopped."""
        return f"move {self.seq}: {self.detail}"[:500]


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
    """Return the engine that plays ``game``: its kind, at the version it started with.

    A game that has not started yet gets the current version (it starts under it).

    Raises:
        ReplayBroken: the game's kind or version is no longer provided.
    """
    version = game.engine_version if game.started is not None else None
    try:
        return get_engine(game.kind, version)
    except (LookupError, ImportError) as exc:
        raise ReplayBroken(game.pk, 0, f"no engine {game.kind!r} version {version}: {exc!r}") from exc


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
    """Rebuild the state from options, seed and the log, up to ``upto`` (default ``game.last_seq``).

    An undo entry of the log (``games.engine.undo``) goes back to the
    position it names; the moves it retracted keep their events (the log
    reads as the game was played), followed by the undo's own.

    Raises:
        ReplayBroken: the engine refused (or crashed on) a stored move, or could not set the game up.
    """
    seats = game.seats.count()
    events: list[tuple[int, Event]] = []
    last = game.last_seq if upto is None else upto
    rows = list(game.actions.filter(seq__lte=last).order_by("seq").values_list("seq", "seat", "move"))
    run = Rewinder(engine, _new_game(game, engine, seats), undo_targets(m for _s, _p, m in rows))
    for seq, seat, move in rows:
        events.extend((seq, e) for e in _apply_stored(game, run, seq, seat, move, events))
        if len(events) > 2 * RECENT_EVENTS:
            del events[:-RECENT_EVENTS]
    return Snapshot(run.state, events[-RECENT_EVENTS:])


def _new_game(game: Game, engine: Engine, seats: int) -> Any:
    try:
        return engine.new_game(game.options, seats, game.seed)
    except Exception as exc:  # any failure: a stored game must never be an error page
        raise ReplayBroken(game.pk, 0, repr(exc)) from exc


def _apply_stored(game: Game, run: Rewinder, seq: int, seat: int, move: dict[str, Any], events: list) -> list[Event]:
    """Apply a stored move or undo entry; a refusal or a crash: :class:`ReplayBroken` (with the position, if intact)."""
    try:
        return run.apply(seq, seat, move)
    except EngineError as exc:  # refused: the engine promises the state is unchanged
        raise ReplayBroken(game.pk, seq, repr(exc), Snapshot(run.state, events[-RECENT_EVENTS:])) from exc
    except Exception as exc:  # a crash may have left the state half-changed: no position to show
        raise ReplayBroken(game.pk, seq, repr(exc)) from exc


def replay_states(game: Game) -> list[tuple[int, int | None, dict[str, Any], Any, list[Event]]]:
    """Every position of a game: ``(seq, seat, move, state_after, events)``, seq 0 first.

    For replay viewers and moderators; it replays the whole log, so use it
    for one game at a time. States are independent copies. A move later
    taken back is shown as it was played; the undo entry's position is the
    one it went back to (``games.engine.undo.retracted_seqs`` says which
    moves were taken back).

    Raises:
        ReplayBroken: the log no longer replays.
    """
    engine = engine_for(game)
    rows = list(game.actions.order_by("seq").values_list("seq", "seat", "move"))
    run = Rewinder(engine, _new_game(game, engine, game.seats.count()), undo_targets(m for _s, _p, m in rows))
    start = pickle.loads(pickle.dumps(run.state))
    out: list[tuple[int, int | None, dict[str, Any], Any, list[Event]]] = [(0, None, {}, start, [])]
    for seq, seat, move in rows:
        events = _apply_stored(game, run, seq, seat, move, [])
        out.append((seq, seat, move, pickle.loads(pickle.dumps(run.state)), events))
    return out
