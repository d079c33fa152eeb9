"""The bots' ladder: how strong each bot level is, measured by games among the levels (``manage.py bot_ladder``).

A round robin of 2-player games between every pair of a game's bot levels
(``GameKind.bot_levels``), each pair playing ``games_per_pair`` games with
the seats swapped every other game and the game's default options (a game
that deals a random setup deals one per game, from the game's seed). Each game is
played through the engine alone (no database rows, no clocks): every
decision is answered by the seat's bot from that seat's own view, as the
site's bot seats are.

A level's move runs under the site's CPU budget (``HERALD_BOT_CPU_BUDGET``,
``games.botbudget``): one that runs out is made by the level below, as on
the site, so the ladder measures the levels players meet.

Each level is rated with the players' model (``ratings.skill.rate_field``,
openskill's Plackett-Luce), starting from a newcomer's belief, games taken in
the order played; the displayed rating is the players' formula too, so a
level's number reads like a player's. Also kept per level: games and wins
against each other level, and the CPU time of its moves (``time.process_time``,
seconds, this process only).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from itertools import combinations
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games import kinds
from games.botbudget import move_within_budget
from ratings.models import BotLevelRating
from ratings.skill import display_rating, rate_field

#: A game that has not ended after this many moves is scored a draw (a safety net, never expected).
MAX_MOVES = 5000


@dataclass
class LevelRecord:
    """One level's results over a ladder run.

    Attributes:
        level: the bot's name ("level3").
        mu, sigma: its openskill belief after the run's games.
        games: games played.
        points: games won, a draw (a shared rank) counting one half.
        versus: other level -> ``[games, points]`` against it.
        moves, cpu_seconds: moves it made and the CPU seconds they took.
    """

    level: str
    mu: float
    sigma: float
    games: int = 0
    points: float = 0.0
    versus: dict[str, list[float]] = field(default_factory=dict)
    moves: int = 0
    cpu_seconds: float = 0.0


def _same(rng: random.Random) -> Callable[[str], random.Random]:
    """``rng`` for whichever level moves (``move_within_budget``'s ``rng_for``)."""
    return lambda _name: rng


def play_bots(
    kind: kinds.GameKind,
    bots: list[str],
    seed: int,
    options: dict[str, Any] | None = None,
    budget: float | None = None,
) -> tuple[list[int], list[int], list[float]]:
    """Play one game of ``kind`` with bot ``bots[seat]`` in each seat; return ranks, moves and CPU per seat.

    Args:
        kind: the game.
        bots: bot names (keys of ``kind.bots``), one per seat.
        seed: the game's seed (its deal, a random setup too) and the bots' randomness.
        options: the game's options (``None``: its defaults).
        budget: CPU seconds a level's move may take before the level below makes it (``None``: the
            site's ``HERALD_BOT_CPU_BUDGET``; 0: no budget).

    Returns:
        ``(ranks, moves, cpu_seconds)``, each one entry per seat; ranks start at 1, equal ranks are a tie
        (every seat ranks 1 if the game had not ended after ``MAX_MOVES`` moves).

    Raises:
        InvalidOptions: the options do not suit the game or the number of seats.
        KeyError: a bot name the game does not have.
    """
    engine = kind.engine()
    table = kind.bots
    missing = [name for name in bots if name not in table]
    if missing:
        raise KeyError(f"{kind.name} has no bot {missing[0]!r}")
    seconds = settings.HERALD_BOT_CPU_BUDGET if budget is None else budget
    n = len(bots)
    state = engine.new_game(engine.normalize_options(options or {}, n, seed), n, seed)
    rngs = [random.Random(f"bot-ladder:{seed}:{seat}") for seat in range(n)]
    moves = [0] * n
    cpu = [0.0] * n
    for _ in range(MAX_MOVES):
        result = engine.result(state)
        if result is not None:
            return list(result.ranks), moves, cpu
        pending = engine.pending(state)
        if not pending:
            break
        seat = pending[0].player
        started = time.process_time()
        # The seat's one generator for whichever level moves: without a hand-down, the games of the budget-free
        # ladder (the same seed, the same games).
        _moved, move = move_within_budget(
            table, bots[seat], engine.player_view(state, seat), _same(rngs[seat]), seconds
        )
        cpu[seat] += time.process_time() - started
        moves[seat] += 1
        engine.apply(state, seat, move)
    return [1] * n, moves, cpu


def run_ladder(
    kind: kinds.GameKind, *, games_per_pair: int, seed: int = 1, progress: Callable[[str], None] | None = None
) -> list[LevelRecord]:
    """Play the round robin among ``kind``'s bot levels and rate them (nothing stored).

    Args:
        kind: the game; its levels are ``kind.bot_levels``.
        games_per_pair: games each pair of levels plays (seats swapped every other game).
        seed: the run's seed: the same seed plays the same games.
        progress: called with a line of text after each pair, if given.

    Returns:
        One record per level, weakest level first (the order of ``kind.bot_levels``).

    Raises:
        ValueError: the game has fewer than two levels, or ``games_per_pair`` < 1.
    """
    levels = kind.bot_levels
    if len(levels) < 2:
        raise ValueError(f"{kind.name} has {len(levels)} bot level(s): a ladder needs two")
    if games_per_pair < 1:
        raise ValueError("games_per_pair must be at least 1")
    records = {name: LevelRecord(name, settings.RATING_MU, settings.RATING_SIGMA) for name in levels}
    for pair_no, (a, b) in enumerate(combinations(levels, 2)):
        for game_no in range(games_per_pair):
            seats = [a, b] if game_no % 2 == 0 else [b, a]
            game_seed = seed * 1_000_003 + pair_no * 10_007 + game_no
            ranks, moves, cpu = play_bots(kind, seats, game_seed)
            after = rate_field([(records[s].mu, records[s].sigma) for s in seats], ranks)
            for seat, name in enumerate(seats):
                other = seats[1 - seat]
                won = 1.0 if ranks[seat] < ranks[1 - seat] else 0.5 if ranks[seat] == ranks[1 - seat] else 0.0
                record = records[name]
                record.mu, record.sigma = after[seat]
                record.games += 1
                record.points += won
                tally = record.versus.setdefault(other, [0, 0.0])
                tally[0] += 1
                tally[1] += won
                record.moves += moves[seat]
                record.cpu_seconds += cpu[seat]
        if progress is not None:
            a_points = records[a].versus[b][1]
            progress(f"{kind.name} {a} vs {b}: {a_points:g}-{games_per_pair - a_points:g} in {games_per_pair} games")
    return [records[name] for name in levels]


@transaction.atomic
def store_ladder(kind: kinds.GameKind, records: list[LevelRecord], games_per_pair: int) -> list[BotLevelRating]:
    """Replace the stored ladder of ``kind`` by ``records`` (one row per level), all at once.

    The database is written only here, after every game was played: no lock is held while bots think.
    """
    now = timezone.now()
    BotLevelRating.objects.filter(kind=kind.name).delete()
    return BotLevelRating.objects.bulk_create(
        BotLevelRating(
            kind=kind.name,
            level=r.level,
            mu=r.mu,
            sigma=r.sigma,
            games=r.games,
            points=r.points,
            versus={other: {"games": int(g), "points": p} for other, (g, p) in r.versus.items()},
            moves=r.moves,
            cpu_seconds=r.cpu_seconds,
            games_per_pair=games_per_pair,
            measured=now,
        )
        for r in records
    )


@dataclass(frozen=True)
class LevelRow:
    """One level as the bots' page shows it.

    Attributes:
        level: the bot's name ("level3"); label: how the site names it ("Level 3 (Club player)").
        rating: the displayed rating (the players' formula); games; win_rate: points / games (0..1).
        versus: ``(other level's label, games, win rate against it)``, weakest opponent first.
        ms_per_move: mean CPU milliseconds per move.
    """

    level: str
    label: str
    rating: int
    games: int
    win_rate: float
    versus: list[tuple[str, int, float]]
    ms_per_move: float


@dataclass(frozen=True)
class BotLadder:
    """One game's measured bot levels: the kind, its levels' labels and rows (weakest first), when and how measured."""

    kind: kinds.GameKind
    labels: list[str]
    rows: list[LevelRow]
    measured: datetime | None
    games_per_pair: int


def bot_ladders() -> list[BotLadder]:
    """Return each installed game with bot levels and its stored ladder (rows empty until measured)."""
    out = []
    for kind in kinds.all_kinds():
        levels = kind.bot_levels
        if not levels:
            continue
        stored = {row.level: row for row in BotLevelRating.objects.filter(kind=kind.name)}
        rows = [
            LevelRow(
                level=r.level,
                label=kinds.level_label(r.level),
                rating=display_rating(r.mu, r.sigma),
                games=r.games,
                win_rate=r.points / r.games if r.games else 0.0,
                versus=[
                    (kinds.level_label(other), int(t["games"]), t["points"] / t["games"] if t["games"] else 0.0)
                    for other in levels
                    if (t := r.versus.get(other))
                ],
                ms_per_move=1000 * r.cpu_seconds / r.moves if r.moves else 0.0,
            )
            for name in levels
            if (r := stored.get(name)) is not None
        ]
        first = next(iter(stored.values()), None)
        labels = [kinds.level_label(name) for name in levels]
        out.append(
            BotLadder(kind, labels, rows, first.measured if first else None, first.games_per_pair if first else 0)
        )
    return out
