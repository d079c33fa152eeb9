"""Tune the Domaine greedy bot's weights by play against ``greedy`` (how ``bots.TUNED`` was found).

``python bench/tune_domaine.py [--deals N] [--seed S] [--jobs J] [--passes P] [--start JSON]``

Coordinate ascent on ``greedy.GreedyWeights`` (after Fisher's tuning of
Provincial's buy rules by play, 2014, which used a genetic algorithm; one
weight at a time is cheaper and enough here): for each weight in turn it
tries the value times 0.6 and times 1.5 (an integer weight: one less and one
more), zero, and the default; a trial is kept when it beats the current
weights' win rate against ``greedy`` by more than ``--margin`` over the same
``--deals`` deals, each played twice with the seats swapped (common deals
make the comparison paired: greedy play is deterministic, so a deal and a
seat give one game). A pass goes over every weight; it stops after a pass
that kept nothing, or after ``--passes``.

Prints each trial and, after each pass, the weights that differ from the
defaults as JSON (``--start`` takes that JSON to go on from it). Win rates
found by the search are biased upwards (the best of many noisy trials):
check the result on other deals (``--check N``: a last run over N deals from
``--seed`` + 1,000,000) before trusting it; ``bench/bots.py`` is the measure.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine.domaine.bots import GREEDY  # noqa: E402
from games.engine.domaine.engine import ENGINE, PlayerView  # noqa: E402
from games.engine.domaine.greedy import Greedy, GreedyWeights  # noqa: E402

DEFAULTS = GreedyWeights()
_PLAYER: Greedy | None = None


def _init(changes: dict[str, Any]) -> None:
    """Pool initializer: the weighted player of this process."""
    global _PLAYER
    _PLAYER = Greedy(dataclasses.replace(DEFAULTS, **changes))


def _game(job: tuple[int, int]) -> float:
    """One 2-player game on deal ``seed``, the weighted player in ``seat``: its win share (0, 0.5 or 1)."""
    seed, seat = job
    assert _PLAYER is not None
    st = ENGINE.new_game({}, 2, seed)
    rng = random.Random(seed)
    while st.step != "over":
        p = st.turn_player
        bot = _PLAYER.bot if p == seat else GREEDY.bot
        ENGINE.apply(st, p, bot(PlayerView(st, p), rng))
    res = ENGINE.result(st)
    assert res is not None
    return 1 / len(res.winners) if seat in res.winners else 0.0


def win_rate(changes: dict[str, Any], deals: int, seed: int, jobs: int) -> float:
    """Win share of ``GreedyWeights`` with ``changes`` against ``greedy`` over ``deals`` deals, seats swapped."""
    plan = [(seed + d, s) for d in range(deals) for s in range(2)]
    with ProcessPoolExecutor(jobs, initializer=_init, initargs=(changes,)) as pool:
        shares = list(pool.map(_game, plan, chunksize=16))
    return sum(shares) / len(shares)


def trials(name: str, value: Any) -> list[Any]:
    """The values tried for one weight (see the module docstring)."""
    default = getattr(DEFAULTS, name)
    if isinstance(default, int) and not isinstance(default, bool):
        out = [value - 1, value + 1]
    else:
        out = [round(value * 0.6, 3), round(value * 1.5, 3), 0.0] if value else [0.1, 0.3]
    if default not in out and default != value:
        out.append(default)
    return [v for v in out if v != value]


def main(argv: list[str]) -> int:
    """Run the tuning (see the module docstring); returns the exit status."""
    ap = argparse.ArgumentParser(prog="bench/tune_domaine.py")
    ap.add_argument("--deals", type=int, default=700, help="deals per trial, each played twice (default 700)")
    ap.add_argument("--seed", type=int, default=30000, help="first deal's seed (default 30000)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--passes", type=int, default=3)
    ap.add_argument("--margin", type=float, default=0.008, help="win-rate gain a trial must beat (default 0.008)")
    ap.add_argument("--start", default="{}", help="JSON of weights to start from (default: greedy's)")
    ap.add_argument("--check", type=int, default=500, help="deals of the final check on other deals (default 500)")
    args = ap.parse_args(argv)
    current: dict[str, Any] = json.loads(args.start)
    names = [f.name for f in dataclasses.fields(GreedyWeights)]
    best = win_rate(current, args.deals, args.seed, args.jobs)
    print(f"start: {best:.3f} {json.dumps(current)}", flush=True)
    for n in range(args.passes):
        kept = False
        for name in names:
            for value in trials(name, current.get(name, getattr(DEFAULTS, name))):
                t = time.time()
                changes = {**current, name: value}
                if value == getattr(DEFAULTS, name):
                    del changes[name]
                rate = win_rate(changes, args.deals, args.seed, args.jobs)
                keep = rate > best + args.margin
                print(f"pass {n + 1} {name}={value}: {rate:.3f}{' kept' if keep else ''} ({time.time() - t:.0f} s)")
                if keep:
                    best, current, kept = rate, changes, True
                    break
        print(f"after pass {n + 1}: {best:.3f} {json.dumps(current)}", flush=True)
        if not kept:
            break
    if args.check:
        rate = win_rate(current, args.check, args.seed + 1_000_000, args.jobs)
        print(f"check on {args.check} other deals: {rate:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
