"""Strength and speed of the bots' levels (issue 32): ``python bench/bots.py [--games N]``.

Prints, over ``--games`` games each (default 200) from a fixed seed:

* ``dominion level5 vs smart: W% wins (2 players, random kingdoms)``: every
  deal is played twice, the seats swapped (goal at least 65%);
* ``dominion level5 vs smart: W% wins (4 players, ...)``: one level 5
  against three ``smart``, the level-5 seat rotated over the four seats
  of every deal (goal at least 40%; a fair share is 25%);
* ``domaine level5 vs greedy: W% wins (2 players)``, seats swapped (goal at least 70%);
* the median and p99 CPU time per move of each level of both games, over
  ``--timing-games`` games of the level against the game's level 3 (the
  search levels' times are over every move they make and, apart, over the
  moves they searched: the others are their policy's own).

A shared win (a tie for first) counts as a share. Each line also gives the
95% interval of the win rate (Wilson). ``--jobs J`` plays on J processes.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine.domaine import bots as domaine_bots  # noqa: E402
from games.engine.domaine.engine import ENGINE as DOMAINE  # noqa: E402
from games.engine.domaine.engine import PlayerView as DomaineView  # noqa: E402
from games.engine.dominion import bots as dominion_bots  # noqa: E402
from games.engine.dominion.engine import ENGINE as DOMINION  # noqa: E402
from games.engine.dominion.engine import PlayerView as DominionView  # noqa: E402
from games.engine.dominion.engine import new_state, resolve_kingdom  # noqa: E402

MAX_DOMINION_TURNS = 400


def _record(times: dict[str, list[float]], name: str, bot: Any, seconds: float) -> None:
    """Keep one move's CPU time under the bot's name, and under ``name+searched`` when it searched."""
    times.setdefault(name, []).append(seconds)
    if getattr(bot, "last_searched", False):
        times.setdefault(name + "+searched", []).append(seconds)


def dominion_game(names: list[str], seed: int) -> tuple[list[int], dict[str, list[float]]]:
    """Play one Dominion game (random kingdom from ``seed``); return (winners, bot name -> CPU s per move)."""
    st = new_state(len(names), resolve_kingdom("random", seed), seed)
    st.record = False
    rng = random.Random(seed)
    times: dict[str, list[float]] = {}
    while not st.game_over and sum(st.turns) < MAX_DOMINION_TURNS:
        p = DOMINION.pending(st)[0].player
        bot = dominion_bots.BOTS[names[p]]
        t = time.process_time()
        move = bot(DominionView(st, p), rng)
        _record(times, names[p], bot, time.process_time() - t)
        DOMINION.apply(st, p, move)
    res = DOMINION.result(st)
    return (res.winners if res else []), times


def domaine_game(names: list[str], seed: int) -> tuple[list[int], dict[str, list[float]]]:
    """Play one Domaine game; return (winners, bot name -> CPU s per move)."""
    st = DOMAINE.new_game({}, len(names), seed)
    rng = random.Random(seed)
    times: dict[str, list[float]] = {}
    while st.step != "over":
        p = st.turn_player
        bot = domaine_bots.BOTS[names[p]]
        t = time.process_time()
        move = bot(DomaineView(st, p), rng)
        _record(times, names[p], bot, time.process_time() - t)
        DOMAINE.apply(st, p, move)
    res = DOMAINE.result(st)
    return (res.winners if res else []), times


def _one(job: tuple[str, list[str], int, int]) -> tuple[float, dict[str, list[float]]]:
    """Play one game of a match: (game, seat names, seed, the seat watched); return its win share and times."""
    game, names, seed, seat = job
    winners, times = (dominion_game if game == "dominion" else domaine_game)(names, seed)
    return (1 / len(winners) if seat in winners else 0.0), times


def match(
    game: str, bot: str, other: str, players: int, games: int, seed: int, jobs: int, stop_at: float = math.inf
) -> tuple[float, Any, int]:
    """``bot`` in one seat against ``other`` in the rest, the seat rotated over each deal.

    No new deal starts after the wall-clock time ``stop_at`` (``time.time()``);
    the match then stands on the games played.
    Returns (win share, bot name -> CPU times per move, games played).
    """
    plan = []
    for g in range(games):
        seat = g % players
        names = [other] * players
        names[seat] = bot
        plan.append((game, names, seed + g // players, seat))
    wins = 0.0
    times: dict[str, list[float]] = {}
    label = f"{game} {bot} vs {other}, {players} players"
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            results = list(_progress(pool.map(_one, plan), label, players, stop_at))
    else:
        results = list(_progress(map(_one, plan), label, players, stop_at))
    for share, t in results:
        wins += share
        for name, xs in t.items():
            times.setdefault(name, []).extend(xs)
    return wins / max(len(results), 1), times, len(results)


def _progress(results: Any, label: str, players: int, stop_at: float) -> Any:
    """Yield the games' results as they come, and say every 10 games how the match stands (on stderr).

    Stops after a whole deal (every seat rotation played) once ``stop_at`` has passed.
    """
    wins = 0.0
    for n, (share, t) in enumerate(results, 1):
        wins += share
        if n % 10 == 0:
            print(f"  {label}: {n} games, {100 * wins / n:.1f}% wins so far", file=sys.stderr, flush=True)
        yield share, t
        if n % players == 0 and time.time() > stop_at:
            print(f"  {label}: time is up after {n} games", file=sys.stderr, flush=True)
            return


def _keep(times: dict[tuple[str, str], list[float]], game: str, name: str, got: dict[str, list[float]]) -> None:
    """Add a match's times of bot ``name`` (all its moves, and its searched ones) to ``times``."""
    for key in (name, name + "+searched"):
        if key in got:
            times.setdefault((game, key), []).extend(got[key])


def wilson(p: float, n: int) -> tuple[float, float]:
    """The 95% Wilson interval of a rate ``p`` over ``n`` trials."""
    if n == 0:
        return 0.0, 1.0
    z = 1.96
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def quantile(xs: list[float], q: float) -> float:
    """The ``q`` quantile of ``xs`` (nearest rank)."""
    if not xs:
        return float("nan")
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, math.ceil(q * len(s)) - 1))]


def report(label: str, rate: float, n: int, goal: float, detail: str) -> None:
    """Print one strength line, its interval and whether it meets the goal."""
    lo, hi = wilson(rate, n)
    mark = "meets" if rate >= goal else "below"
    print(
        f"{label}: {100 * rate:.1f}% wins ({detail}) [95% {100 * lo:.0f}-{100 * hi:.0f}%, n={n}; "
        f"goal {100 * goal:.0f}%: {mark}]",
        flush=True,
    )


def timing_line(game: str, level: str, xs: list[float], searched: list[float] | None = None) -> None:
    """Print the median and p99 CPU time per move of one level."""
    line = f"{game} {level}: median {1000 * quantile(xs, 0.5):.1f} ms, p99 {1000 * quantile(xs, 0.99):.1f} ms"
    line += f", max {1000 * max(xs, default=0):.0f} ms per move ({len(xs)} moves)"
    if searched:
        line += (
            f"; searched moves: median {1000 * quantile(searched, 0.5):.0f} ms, "
            f"p99 {1000 * quantile(searched, 0.99):.0f} ms ({len(searched)})"
        )
    print(line, flush=True)


def main(argv: list[str]) -> int:
    """Parse the options, play the matches, print the report."""
    ap = argparse.ArgumentParser(prog="bench/bots.py")
    ap.add_argument("--games", type=int, default=200, help="games per strength line (default 200)")
    ap.add_argument("--timing-games", type=int, default=4, help="games per level for the timings (default 4)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1, help="processes to play on (default 1)")
    ap.add_argument(
        "--only",
        choices=("dominion2", "dominion4", "domaine", "timing", "dominion-timing"),
        action="append",
        help="run only these lines (repeat the flag); dominion-timing: the timings of Dominion's levels only",
    )
    ap.add_argument(
        "--minutes",
        type=float,
        default=math.inf,
        help="no new deal of a strength line after this many minutes: the line stands on the games played",
    )
    args = ap.parse_args(argv)
    only = set(args.only or ("dominion2", "dominion4", "domaine", "timing"))
    start = time.time()
    stop_at = start + 60 * args.minutes
    times: dict[tuple[str, str], list[float]] = {}
    n = args.games
    if "dominion2" in only:
        rate, t, played = match("dominion", "level5", "smart", 2, n, args.seed, args.jobs, stop_at)
        report("dominion level5 vs smart", rate, played, 0.65, "2 players, random kingdoms")
        _keep(times, "dominion", "level5", t)
    if "dominion4" in only:
        rate, t, played = match("dominion", "level5", "smart", 4, n, args.seed + 100_000, args.jobs, stop_at)
        detail = "4 players, one level5 against three smart, random kingdoms"
        report("dominion level5 vs smart", rate, played, 0.40, detail)
        _keep(times, "dominion", "level5", t)
    if "domaine" in only:
        rate, t, played = match("domaine", "level5", "greedy", 2, n, args.seed, args.jobs, stop_at)
        report("domaine level5 vs greedy", rate, played, 0.70, "2 players")
        _keep(times, "domaine", "level5", t)
    timed = [("dominion", dominion_bots.LEVELS, "level3"), ("domaine", domaine_bots.LEVELS, "level3")]
    for game, levels, rival in timed if "timing" in only else timed[:1] if "dominion-timing" in only else []:
        for name, _title, _text in levels:
            if (game, name) in times and len(times[(game, name)]) >= 200:
                continue
            other = "level2" if name == rival else rival
            _rate, t, _played = match(game, name, other, 2, args.timing_games, args.seed + 7, args.jobs)
            _keep(times, game, name, t)
    for (game, name), xs in sorted(times.items()):
        if not name.endswith("+searched"):
            timing_line(game, name, xs, times.get((game, name + "+searched")))
    print(f"bench/bots.py: {time.time() - start:.0f} s wall, pid {os.getpid()}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
