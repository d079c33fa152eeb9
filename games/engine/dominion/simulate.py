"""Play many bot games: ``python -m games.engine.dominion.simulate``.

    python -m games.engine.dominion.simulate --games N --players P \\
        --bots a,b[,c,d] --seed S [--kingdom NAME,...]

Game i uses seed S + i and seats the bots in the order given. Prints each
bot's wins (a k-way shared win counts 1/k) and mean turns, and as its last
line ``N games in T s: R games/s``.
"""

from __future__ import annotations

import argparse
import random
import sys
from typing import Any

from games.engine.cli import report_simulation, timer
from games.engine.core import InvalidOptions
from games.engine.dominion.bots import BOTS
from games.engine.dominion.engine import ENGINE, PlayerView, new_state, next_mover, resolve_kingdom, result
from games.engine.dominion.state import DominionState

MAX_TURNS = 400


def play_out(
    st: DominionState, bots: list[Any], rng: Any, max_turns: int = MAX_TURNS, on_move: Any = None
) -> DominionState:
    """Let ``bots[seat]`` play ``st`` until the game ends or ``max_turns`` pass.

    ``on_move(state, player, move)`` is called after each applied move (for
    invariant checks). Returns ``st``.
    """
    apply = ENGINE.apply
    views = [PlayerView(st, p) for p in range(st.n)]  # a view reads the state live: one per seat serves every move
    while not st.game_over and sum(st.turns) < max_turns:
        # The group in play first, then the turn, then owed answers; with nothing asked, the turn.
        p = next_mover(st) if st.open or st.owed else st.current
        move = bots[p](views[p], rng)
        apply(st, p, move)
        if on_move is not None:
            on_move(st, p, move)
    return st


def play_game(
    bot_names: list[str], seed: int, kingdom: Any = "random", record: bool = False, max_turns: int = MAX_TURNS
) -> DominionState:
    """Play one game between named bots and return its final state."""
    st = new_state(len(bot_names), resolve_kingdom(kingdom, seed), seed)
    st.record = record
    return play_out(st, [BOTS[b] for b in bot_names], random.Random(seed), max_turns)


def main(argv: list[str]) -> int:
    """Parse arguments, play the games, print the report."""
    ap = argparse.ArgumentParser(prog="python -m games.engine.dominion.simulate")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--bots", default="big_money,big_money")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--kingdom", default="random", help="10 comma-separated card names, a recommended set's name, or random"
    )
    args = ap.parse_args(argv)
    names = [b.strip() for b in args.bots.split(",")]
    if len(names) != args.players:
        ap.error(f"--bots names {len(names)} bots for {args.players} players")
    unknown = [b for b in names if b not in BOTS]
    if unknown:
        ap.error(f"unknown bot(s) {', '.join(unknown)}; choose from {', '.join(BOTS)}")
    kingdom: Any = args.kingdom
    if "," in kingdom:
        kingdom = [c.strip() for c in kingdom.split(",")]
    try:
        resolve_kingdom(kingdom, args.seed)
    except InvalidOptions as e:
        ap.error(str(e))
    wins = [0.0] * args.players
    turns = [0] * args.players
    start = timer()
    for i in range(args.games):
        st = play_game(names, args.seed + i, kingdom)
        res = result(st)
        if res is not None:
            for w in res.winners:
                wins[w] += 1 / len(res.winners)
        for p in range(args.players):
            turns[p] += st.turns[p]
    elapsed = timer() - start
    n = max(args.games, 1)
    report_simulation(args.games, elapsed, names, wins, [t / n for t in turns])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
