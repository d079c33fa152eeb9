"""Bot-against-bot games:
``python -m games.engine.domaine.simulate --games N --players P --bots a,b --seed S``.

Prints per-seat wins and mean turns, then ``N games in T s: R games/s``
(``games.engine.cli.report_simulation``). Seats rotate between games so no
bot always moves first; wins are reported per bot name in the order given.
"""

from __future__ import annotations

import argparse
import random
import sys
from typing import Any

from games.engine.cli import report_simulation, timer
from games.engine.domaine.bots import BOTS
from games.engine.domaine.engine import ENGINE, PlayerView
from games.engine.domaine.state import State

#: A game longer than this many moves is stopped (only random bots that
#: keep taking from the display could get near it).
MAX_MOVES = 5000


def play_out(players: int, seed: int, bots: list[Any], rng: Any, max_moves: int = MAX_MOVES) -> State:
    """Play one game from ``seed`` with ``bots[seat]`` and return the final state.

    Raises:
        RuntimeError: the game did not end within ``max_moves`` moves.
    """
    st = ENGINE.new_game({}, players, seed)
    for _ in range(max_moves):
        if st.step == "over":
            return st
        p = st.turn_player
        move = bots[p](PlayerView(st, p), rng)
        ENGINE.apply(st, p, move)
    if st.step != "over":
        raise RuntimeError(f"game with seed {seed} did not end in {max_moves} moves")
    return st


def run(games: int, players: int, names: list[str], seed: int) -> tuple[list[float], list[float]]:
    """Play ``games`` games; return (wins per name, mean turns per name).

    Bot ``names[i]`` sits in seat ``(i + g) % players`` in game ``g``.
    """
    rng = random.Random(seed)
    wins = [0.0] * len(names)
    turns = [0.0] * len(names)
    for g in range(games):
        seats = [names[(s - g) % players] for s in range(players)]
        st = play_out(players, seed + g, [BOTS[name] for name in seats], rng)
        res = ENGINE.result(st)
        assert res is not None  # play_out returns finished games only
        for s in range(players):
            i = (s - g) % players
            if s in res.winners:
                wins[i] += 1 / len(res.winners)
            turns[i] += st.turns
    return wins, [t / games if games else 0.0 for t in turns]


def main(argv: list[str] | None = None) -> int:
    """Parse the command line, play, print the report."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--bots", default="greedy,random")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    names = args.bots.split(",")
    if len(names) == 1:
        names = names * args.players
    if len(names) != args.players or any(n not in BOTS for n in names):
        ap.error(f"--bots needs {args.players} names among {', '.join(sorted(BOTS))}")
    t0 = timer()
    wins, mean_turns = run(args.games, args.players, names, args.seed)
    report_simulation(args.games, timer() - t0, names, wins, mean_turns)
    return 0


if __name__ == "__main__":
    sys.exit(main())
