"""A simulated week of seeks through the real matcher: how long players wait, how close their tables are.

Usage: ``python bench/pairing.py [--seekers-per-day 300] [--days 7] [--seed 1]``

Players arrive at random (a Poisson process whose rate follows a day/night
rhythm: four times busier at the evening peak than before dawn), each with
a seek as the lobby's buttons and form make them: mostly "Play a rated
Dominion game" (2 players), some 3- and 4-player and "2 to 4" seeks, a
quarter of them for Domaine (a separate pool). Ratings are drawn from the
ladder's spread (normal, mean 1500, standard deviation ``--spread``); each
seek accepts the default range (300 points either side) and waits a day.
The matcher (``matchmaking.matching.match``, the function the site runs)
runs on every arrival and every minute (beat), with the site's repeat
avoidance (pairs who met in the last 7 days) and a few blocks.

It prints, per table size: tables made, the median and 90th percentile wait
from posting to the game (minutes), the mean rating spread at a table, and
per seek size the share of seeks that expired. The issue's goals at 300
seeking players a day: 2 players median wait under 5 minutes with a mean gap
under 150; 4-player tables filled within an hour (median); under 5% expired.

Pure Python (no database): the site's database work around the matcher is
measured by the tests, not here.
"""

from __future__ import annotations

import argparse
import heapq
import math
import random
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from matchmaking.matching import Seeker, match, pair  # noqa: E402

MINUTES_PER_DAY = 24 * 60
#: Default rating range either side (``matchmaking.limits.DEFAULT_WINDOW``) and seek lifetime (a day).
WINDOW = 300
LIFETIME = MINUTES_PER_DAY
#: Table sizes asked for, and how often: (sizes, weight).
SIZE_MIX = [((2,), 0.55), ((3,), 0.10), ((4,), 0.15), ((2, 3, 4), 0.20)]
#: Pools: (kind, weight). Everyone seeks rated games with a day per move (the one-button defaults).
KIND_MIX = [("dominion", 0.75), ("domaine", 0.25)]
#: Players on the site (arrivals pick among them, so the same people come back and meet again).
POPULATION = 900
#: Pairs of players where one blocked the other.
BLOCKS = 200


@dataclass
class Open:
    """A seek waiting in the simulation."""

    seek_id: int
    user_id: int
    kind: str
    sizes: tuple[int, ...]
    posted: float


def rate(minute: float, per_day: float) -> float:
    """Arrivals per minute at ``minute`` of the week: a sine with its peak at 20:00 and a quarter of it at 08:00."""
    hour = (minute % MINUTES_PER_DAY) / 60
    shape = 1 + 0.6 * math.cos(2 * math.pi * (hour - 20) / 24)  # 0.4 .. 1.6, mean 1
    return per_day / MINUTES_PER_DAY * shape


def arrivals(days: int, per_day: float, rng: random.Random) -> list[float]:
    """Arrival minutes over ``days`` days (thinning of a Poisson process at the peak rate)."""
    peak = per_day / MINUTES_PER_DAY * 1.6
    out: list[float] = []
    t = 0.0
    while True:
        t += rng.expovariate(peak)
        if t >= days * MINUTES_PER_DAY:
            return out
        if rng.random() < rate(t, per_day) / peak:
            out.append(t)


def pick(mix: list, rng: random.Random):
    """One value of a weighted mix."""
    return rng.choices([v for v, _w in mix], weights=[w for _v, w in mix])[0]


def simulate(per_day: float, days: int, seed: int, spread: float) -> dict:
    """Run the week; return the waits, spreads and expiries."""
    rng = random.Random(seed)
    ratings = {u: round(rng.gauss(1500, spread)) for u in range(1, POPULATION + 1)}
    blocked = {pair(rng.randint(1, POPULATION), rng.randint(1, POPULATION)) for _ in range(BLOCKS)}
    met: dict[frozenset[int], float] = {}
    open_seeks: dict[int, Open] = {}
    events: list[tuple[float, int]] = [(t, 0) for t in arrivals(days, per_day, rng)]
    events += [(float(m), 1) for m in range(days * MINUTES_PER_DAY)]  # beat, every minute
    heapq.heapify(events)
    waits: dict[int, list[float]] = {2: [], 3: [], 4: []}
    spreads: dict[int, list[int]] = {2: [], 3: [], 4: []}
    posted: dict[tuple[int, ...], int] = {}
    expired: dict[tuple[int, ...], int] = {}
    next_id = 1
    runs = 0
    while events:
        now, what = heapq.heappop(events)
        for s in [s for s in open_seeks.values() if now - s.posted >= LIFETIME]:
            expired[s.sizes] = expired.get(s.sizes, 0) + 1
            del open_seeks[s.seek_id]
        if what == 0:
            busy = {s.user_id for s in open_seeks.values()}
            user = rng.randint(1, POPULATION)
            while user in busy:
                user = rng.randint(1, POPULATION)
            sizes = pick(SIZE_MIX, rng)
            seek = Open(next_id, user, pick(KIND_MIX, rng), sizes, now)
            open_seeks[next_id] = seek
            posted[sizes] = posted.get(sizes, 0) + 1
            next_id += 1
        seekers = [
            Seeker(
                seek_id=s.seek_id,
                user_id=s.user_id,
                pool=s.kind,
                sizes=frozenset(s.sizes),
                rating=ratings[s.user_id],
                low=ratings[s.user_id] - WINDOW,
                high=ratings[s.user_id] + WINDOW,
                waited=now - s.posted,
                rated=True,
            )
            for s in open_seeks.values()
        ]
        recent = {p for p, when in met.items() if now - when < 7 * MINUTES_PER_DAY}
        runs += 1
        for table in match(seekers, blocked=blocked, met=recent):
            size = len(table.seek_ids)
            spreads[size].append(table.spread)
            for seek_id in table.seek_ids:
                waits[size].append(now - open_seeks.pop(seek_id).posted)
            for a in table.user_ids:
                for b in table.user_ids:
                    if a < b:
                        met[pair(a, b)] = now
    return {"waits": waits, "spreads": spreads, "posted": posted, "expired": expired, "runs": runs}


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0-1) of ``values``, nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def main(argv: list[str] | None = None) -> int:
    """Run the simulation and print the table; exit 1 if a goal is missed."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seekers-per-day", type=float, default=300)
    parser.add_argument("--days", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--spread", type=float, default=200, help="standard deviation of the ladder's ratings")
    args = parser.parse_args(argv)
    out = simulate(args.seekers_per_day, args.days, args.seed, args.spread)
    print(
        f"pairing: {args.days} days, {args.seekers_per_day:g} seekers a day, ratings N(1500, {args.spread:g}), "
        f"seed {args.seed}, {out['runs']} matcher runs"
    )
    print(f"{'table':>6} {'tables':>7} {'median wait':>12} {'p90 wait':>9} {'mean spread':>12}")
    for size in (2, 3, 4):
        w, s = out["waits"][size], out["spreads"][size]
        if not s:
            print(f"{size:>6} {0:>7}")
            continue
        print(
            f"{size:>6} {len(s):>7} {statistics.median(w):>10.1f} m {percentile(w, 0.9):>7.1f} m "
            f"{statistics.mean(s):>12.0f}"
        )
    total_posted = sum(out["posted"].values())
    total_expired = sum(out["expired"].values())
    print(f"{'seek':>6} {'posted':>7} {'expired':>8}")
    for sizes, n in sorted(out["posted"].items()):
        label = "-".join(map(str, (sizes[0], sizes[-1]))) if len(sizes) > 1 else str(sizes[0])
        gone = out["expired"].get(sizes, 0)
        print(f"{label:>6} {n:>7} {100 * gone / n:>7.1f}%")
    share = total_expired / total_posted if total_posted else 0.0
    print(f"{'all':>6} {total_posted:>7} {100 * share:>7.1f}%")
    two, four = out["waits"][2], out["waits"][4]
    goals = {
        "2 players: median wait under 5 minutes": bool(two) and statistics.median(two) < 5,
        "2 players: mean rating gap under 150": bool(two) and statistics.mean(out["spreads"][2]) < 150,
        "4 players: median wait under 60 minutes": bool(four) and statistics.median(four) < 60,
        "under 5% expired": share < 0.05,
    }
    for goal, met in goals.items():
        print(f"goal {'met' if met else 'MISSED'}: {goal}")
    return 0 if all(goals.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
