"""Does every stored game still replay? The check behind ``manage.py check_replays``.

Replaying a game's log through today's code, with the engine of the game's
own version, must reach the position its row records: as many moves as
``last_seq``, whose seats owe decisions as ``to_act`` says (a running
game), or the result its seats hold (a finished game). Run it before every
deploy: a rules change that forgot its version check shows here as games
that no longer replay, before any player meets them (``docs/scaling.md``).

Nothing here writes. Times are seconds of wall-clock time.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from games.engine.core import Engine
from games.engine.undo import Rewinder, undo_targets
from games.models import Action, Game, Seat
from games.replay import ReplayBroken, engine_for
from games.turns import final_ranks

#: Games read from the database per query (their seats and actions with them).
BATCH = 200


@dataclass(frozen=True, slots=True)
class ReplayReport:
    """What replaying one game found.

    Attributes:
        game_id: the game.
        kind, engine_version: its engine.
        ok: it replays to what its row records.
        problem: what differs, or "" when ok.
        seconds: the replay's wall-clock time.
        moves: the moves replayed.
        settled: it no longer replays, but it had stopped (frozen) and a
            moderator has since settled it (adjudicated: ``ok`` is True, the
            problem kept for the report). Nothing more can happen to it, so it
            fails no deploy check; it is listed apart.
    """

    game_id: int
    kind: str
    engine_version: int
    ok: bool
    problem: str
    seconds: float
    moves: int
    settled: bool = False


def check_game(game: Game, seats: list[Seat], moves: list[tuple[int, int, dict[str, Any]]]) -> ReplayReport:
    """Replay ``game`` from ``moves`` (``(seq, seat, move)`` in seq order) and compare with its row and ``seats``.

    Compared: the seqs run 1..``last_seq`` without a gap; every move is
    accepted (undo entries go back to the position they name); a running (or frozen) game is not over and owes exactly
    ``to_act``; a finished game that the rules ended has the engine's scores
    and the ranks ``games.turns.final_ranks`` gives (one that a forfeit or a
    moderator ended has no engine result to compare).
    """
    start = time.perf_counter()
    problem = ""
    try:
        problem = _compare(game, engine_for(game), seats, moves)
    except ReplayBroken as broken:
        problem = broken.reason
    # A game that froze and that a moderator then ended: its result is the moderator's, not the rules'.
    settled = bool(problem) and game.status == Game.Status.FINISHED and bool(game.frozen_reason)
    return ReplayReport(
        game_id=game.pk,
        kind=game.kind,
        engine_version=game.engine_version,
        ok=not problem or settled,
        problem=problem,
        seconds=time.perf_counter() - start,
        moves=len(moves),
        settled=settled,
    )


def _compare(game: Game, engine: Engine, seats: list[Seat], moves: list[tuple[int, int, dict[str, Any]]]) -> str:
    seqs = [seq for seq, _seat, _move in moves]
    if seqs != list(range(1, len(seqs) + 1)) or len(seqs) != game.last_seq:
        return f"the log holds seqs {seqs[:1]}..{seqs[-1:]} ({len(seqs)} moves) but last_seq is {game.last_seq}"
    try:
        state = engine.new_game(game.options, len(seats), game.seed)
    except Exception as exc:  # as games.replay does: a game that cannot even be set up no longer replays
        return f"move 0: {exc!r}"
    # Undo entries go back to the position they name (games.engine.undo), as on the site.
    run = Rewinder(engine, state, undo_targets(m for _s, _p, m in moves))
    for seq, seat, move in moves:
        try:
            run.apply(seq, seat, move)
        except Exception as exc:  # a refusal or a crash: either way it no longer replays
            return f"move {seq}: {exc!r}"
    state = run.state
    over = engine.is_over(state)
    if game.status in (Game.Status.ACTIVE, Game.Status.FROZEN):
        if over:
            return "the rules say the game is over, but it is still running"
        owed = sorted({d.player for d in engine.pending(state)})
        if game.status == Game.Status.ACTIVE and owed != sorted(game.to_act):
            return f"the rules wait on seats {owed}, the row on {sorted(game.to_act)}"
        return ""
    result = engine.result(state)  # None until the rules say the game is over
    if game.status == Game.Status.FINISHED and over and result is not None:
        ranks = final_ranks(seats, result)
        for s in seats:
            if s.forfeited:
                continue
            if s.score != result.scores[s.position] or s.rank != ranks[s.position]:
                return (
                    f"seat {s.position}: the rules give rank {ranks[s.position]} and score "
                    f"{result.scores[s.position]}, the row holds rank {s.rank} and score {s.score}"
                )
    # A finished game the rules did not end (a forfeit, a moderator's adjudication) has no result to compare.
    return ""


def games_to_check(
    *, ids: Iterable[int] = (), kind: str | None = None, sample: int | None = None, seed: int = 0
) -> list[int]:
    """The ids of the started games to replay: ``ids`` if given, else every one (of ``kind``), or a sample.

    ``sample`` picks that many at random (``seed`` makes the pick repeatable), in id order.
    """
    qs = Game.objects.exclude(started=None).exclude(status=Game.Status.ABORTED)
    if ids:
        qs = qs.filter(pk__in=list(ids))
    if kind:
        qs = qs.filter(kind=kind)
    found = list(qs.order_by("pk").values_list("pk", flat=True))
    if sample is not None and sample < len(found):
        found = sorted(random.Random(seed).sample(found, sample))
    return found


def check_games(game_ids: list[int]) -> Iterator[ReplayReport]:
    """Replay each of ``game_ids`` (in batches of ``BATCH``, three queries a batch) and yield its report."""
    for i in range(0, len(game_ids), BATCH):
        chunk = game_ids[i : i + BATCH]
        games = {g.pk: g for g in Game.objects.filter(pk__in=chunk)}
        seats: dict[int, list[Seat]] = {}
        for s in Seat.objects.filter(game_id__in=chunk).order_by("game_id", "position"):
            seats.setdefault(s.game_id, []).append(s)
        moves: dict[int, list[tuple[int, int, dict[str, Any]]]] = {}
        for game_id, seq, seat, move in (
            Action.objects.filter(game_id__in=chunk)
            .order_by("game_id", "seq")
            .values_list("game_id", "seq", "seat", "move")
        ):
            moves.setdefault(game_id, []).append((seq, seat, move))
        for game_id in chunk:
            if game_id in games:
                yield check_game(games[game_id], seats.get(game_id, []), moves.get(game_id, []))
