"""Dominion engine benchmarks (run by ``make bench``; numbers, not pass/fail).

Reports, on one core (CPU time of this process, so that other work on the
machine does not distort the rates):
* 2-player ``big_money`` mirror games per second;
* 4-player ``smart`` games per second on random kingdoms;
* the time to rebuild a 1,500-move 4-player game from its log (events on,
  as the site replays it);
* with ``--pyminion``, pyminion's Big Money mirror in the same run, installed
  into a temporary virtual environment (the issue's reference engine).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine.dominion.bots import BOTS  # noqa: E402
from games.engine.dominion.engine import ENGINE, new_state, resolve_kingdom  # noqa: E402
from games.engine.dominion.simulate import play_game, play_out  # noqa: E402

PYMINION_SCRIPT = """
import logging, sys, time
logging.disable(logging.CRITICAL)
from pyminion.bots.examples import BigMoney
from pyminion.expansions.base import base_set
from pyminion.game import Game
from pyminion.simulator import Simulator
n = int(sys.argv[1])
game = Game(players=[BigMoney("a"), BigMoney("b")], expansions=[base_set], log_stdout=False)
t = time.process_time(); Simulator(game, n).run(); dt = time.process_time() - t
print(n / dt)
"""


def games_per_second(bots: list[str], games: int, kingdom="random") -> float:
    start = time.process_time()
    for i in range(games):
        play_game(bots, 10_000 + i, kingdom)
    return games / (time.process_time() - start)


def patient(view, rng):
    """A random bot that rarely buys Victory cards, so games run long like slow human ones."""
    moves = view.turn_moves()
    if view.decision is not None or not moves:
        return BOTS["random"](view, rng)
    slow = ("Province", "Duchy", "Estate", "Curse", "Copper")
    useful = [m for m in moves if m["act"] != "buy" or (m["card"] not in slow and rng.random() < 0.15)]
    return useful[rng.randrange(len(useful))] if rng.random() < 0.85 else {"act": "end_turn"}


def long_log(moves_wanted: int = 1500):
    """A 4-player game log of exactly ``moves_wanted`` moves, with every kind of decision in it."""
    for seed in range(1, 500):
        st = new_state(4, resolve_kingdom("random", seed), seed)
        st.record = False
        log: list = []
        play_out(
            st, [patient] * 4, random.Random(seed), max_turns=2000, on_move=lambda s, p, m, log=log: log.append((p, m))
        )
        if len(log) >= moves_wanted:
            return seed, st.kingdom, log[:moves_wanted]
    raise RuntimeError("no game long enough")


def rebuild_ms(seed, kingdom, log, repeat: int = 20) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        st = ENGINE.new_game({"kingdom": kingdom}, 4, seed)
        for p, m in log:
            ENGINE.apply(st, p, m)
        best = min(best, time.process_time() - start)
    return best * 1000


def pyminion_games_per_second(games: int) -> float | None:
    with tempfile.TemporaryDirectory() as tmp:
        venv = os.path.join(tmp, "venv")
        subprocess.run([sys.executable, "-m", "venv", venv], check=True)
        py = os.path.join(venv, "bin", "python")
        pip = subprocess.run([py, "-m", "pip", "install", "-q", "pyminion==0.4.0"], capture_output=True, text=True)
        if pip.returncode != 0:
            print("pyminion could not be installed:", pip.stderr.strip()[-300:])
            return None
        out = subprocess.run([py, "-c", PYMINION_SCRIPT, str(games)], capture_output=True, text=True, check=True)
        return float(out.stdout.strip())


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--pyminion", action="store_true", help="also measure pyminion in a temporary venv")
    ap.add_argument("--json", help="write the numbers to this file")
    args = ap.parse_args()
    results = {}
    results["big_money_2p_games_per_s"] = games_per_second(["big_money", "big_money"], args.games)
    results["smart_4p_random_kingdoms_games_per_s"] = games_per_second(["smart"] * 4, max(args.games // 4, 50))
    seed, kingdom, log = long_log()
    results["rebuild_1500_move_4p_ms"] = rebuild_ms(seed, kingdom, log)
    if args.pyminion:
        pm = pyminion_games_per_second(max(args.games // 4, 200))
        if pm:
            results["pyminion_big_money_2p_games_per_s"] = pm
            results["ratio_to_pyminion"] = results["big_money_2p_games_per_s"] / pm
    for k, v in results.items():
        print(f"{k}: {v:.1f}")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
