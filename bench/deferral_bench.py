"""The deferral differential check on many games: ``python bench/deferral_bench.py --games N``.

The same check as ``tests/engine/dominion/test_deferral.py`` (version 3,
victims answering later, against the rulebook order of version 2: equal
states after every turn), on more games; prints how many states were
compared and the games per second.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.engine.dominion.deferral_check import KINGDOMS, play  # noqa: E402


def main(argv: list[str]) -> int:
    """Play ``--games`` games per player count and reactions mode; exit 1 on a difference."""
    ap = argparse.ArgumentParser(prog="bench/deferral_bench.py")
    ap.add_argument("--games", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=99)
    args = ap.parse_args(argv)
    start = time.process_time()
    compared = games = 0
    for players in (2, 3, 4):
        for hidden in (False, True):
            for i in range(args.games):
                seed = args.seed + 104_729 * i + players
                kingdom = KINGDOMS[i % len(KINGDOMS)]
                strict, strict_end, _ = play(players, seed, kingdom, deferred=False, max_turns=80)
                rests, end, _ = play(players, seed, kingdom, deferred=True, hidden=hidden, max_turns=80)
                for key, snap in rests.items():
                    if key in strict:
                        if snap != strict[key]:
                            print(f"DIFFERS: {players} players, seed {seed}, {kingdom}, at {key}")
                            return 1
                        compared += 1
                if end != strict_end:
                    print(f"DIFFERS at the end: {players} players, seed {seed}, {kingdom}")
                    return 1
                games += 1
    dt = time.process_time() - start
    print(f"deferral: {games} games, {compared} states equal to the rulebook order's, {games / dt:.0f} games/s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
