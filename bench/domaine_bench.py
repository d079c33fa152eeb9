"""Benchmark the Domaine engine with its bots: 2-player games per second.

    python3 bench/domaine_bench.py [--games N] [--seed S]

Prints greedy-vs-greedy and random-vs-random rates, by wall-clock time and
by CPU time of this process (the CPU figure is steadier on a shared
machine). Goal: at least 50 greedy games/s on one core (docs/bots.md,
"Engine speed", has the last measured run).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine.domaine.bots import BOTS  # noqa: E402
from games.engine.domaine.simulate import play_out  # noqa: E402


def bench(name: str, games: int, seed: int) -> tuple[float, float, float]:
    """Play ``games`` 2-player games of bot ``name`` against itself.

    Returns (wall games/s, CPU games/s, mean turns).
    """
    rng = random.Random(seed)
    turns = 0
    w0, c0 = time.perf_counter(), time.process_time()
    for g in range(games):
        st = play_out(2, seed + g, [BOTS[name], BOTS[name]], rng)
        turns += st.turns
    wall, cpu = time.perf_counter() - w0, time.process_time() - c0
    return games / wall, games / cpu, turns / games


def main(argv: list[str] | None = None) -> int:
    """Run both benchmarks and print one line each."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    for name in ("greedy", "random"):
        wall, cpu, turns = bench(name, args.games, args.seed)
        print(
            f"{name} vs {name}, 2 players: {args.games} games, {wall:.1f} games/s wall, "
            f"{cpu:.1f} games/s CPU, mean turns {turns:.1f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
