"""How often a Dominion game waits on a person (issue 16): ``python bench/waits.py``.

Plays the issue's kingdom (Militia, Moat, Witch, Bureaucrat, Spy, Thief,
Library, Throne Room, Market, Village) with the ``smart`` bot in every seat,
through the site's own path: after each move the site makes every move that
needs no thought and every standing answer (``core.automatic_move``, the
function ``games.moves`` calls), on the current engine (deferral and hidden
reactions on). Everyone has the default standing answers in one run, and
"ask me" for everything in the other.

A *wait* is a stretch in which the game owes a given person an answer (the
person is among those it waits on, from the moment they are asked until
they have answered everything). People answer in a random order: at each
step one of those the game waits on moves (a seeded choice). *Extra* waits
are those beyond one per own turn. Prints one line per player count:

    P players: D extra waits per game with default standing answers, A with ask me, T turns

and on standard error, for "ask me": victims' waits per attack and victim
(at most 1) and the attacker's waits again within its own turn (a later
effect needed a victim's answer: Spy, Thief, Council Room, a second attack).
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine.core import automatic_move  # noqa: E402
from games.engine.dominion.bots import smart  # noqa: E402
from games.engine.dominion.cards import ATTACKS  # noqa: E402
from games.engine.dominion.engine import ENGINE, PlayerView  # noqa: E402
from games.engine.dominion.standing import ASK_ALL, DEFAULTS  # noqa: E402

KINGDOM = ["Militia", "Moat", "Witch", "Bureaucrat", "Spy", "Thief", "Library", "Throne Room", "Market", "Village"]
MAX_MOVES = 5000


def play(players: int, seed: int, settings: dict[str, str]) -> dict[str, int]:
    """Play one game; return its counts: waits, turns, attack_victims, victim_waits, attacker_rewaits."""
    st = ENGINE.new_game({"kingdom": KINGDOM}, players, seed)
    standing = dict.fromkeys(range(players), settings)
    order = random.Random(seed)
    waiting: set[int] = set()
    counts = {"waits": 0, "turns": 0, "attack_victims": 0, "victim_waits": 0, "attacker_rewaits": 0}
    turn_waits = 0  # stretches of the current player in its current turn
    turn = (-1, -1)
    for _ in range(MAX_MOVES):
        auto = automatic_move(ENGINE, st, standing)
        if auto is not None:
            seat, move, _standing = auto
            _note_attacks(st, ENGINE.apply(st, seat, move), counts)
            continue
        if ENGINE.is_over(st):
            break
        now = {d.player for d in ENGINE.pending(st)}
        if (st.current, st.turns[st.current]) != turn:
            turn = (st.current, st.turns[st.current])
            turn_waits = 0
        if waiting and st.current in waiting and st.current not in now:
            why = "paused: " + _why_paused(st)
            counts[why] = counts.get(why, 0) + 1
        for p in now - waiting:  # a new stretch begins for p
            counts["waits"] += 1
            if p == st.current:
                turn_waits += 1
                if turn_waits > 1:
                    counts["attacker_rewaits"] += 1
            else:
                counts["victim_waits"] += 1
        waiting = now
        p = sorted(now)[order.randrange(len(now))]
        move = smart(PlayerView(st, p), order)
        _note_attacks(st, ENGINE.apply(st, p, move), counts)
    counts["turns"] = sum(st.turns)
    return counts


def _note_attacks(st: Any, events: list[Any], counts: dict[str, int]) -> None:
    """Count attack plays (Throne Room's second play included) times their possible victims."""
    for e in events:
        if e.kind == "play" and e.data.get("card") in ATTACKS:
            counts["attack_victims"] += st.n - 1


def _why_paused(st: Any) -> str:
    """What the current player waits for: the card whose answers it needs."""
    if st.open:
        return "strict " + (st.open[0].params.get("attack") or st.open[0].source)
    if st.stack:
        frame = st.stack[-1]
        return f"{frame[0]} {frame[2] if frame[0] == 'play' else ''}".strip()
    return "curses"


def main(argv: list[str]) -> int:
    """Play the games and print the lines (see the module docstring)."""
    ap = argparse.ArgumentParser(prog="bench/waits.py")
    ap.add_argument("--games", type=int, default=100, help="games per player count and setting")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    for players in (2, 3, 4):
        totals = {}
        for name, settings in (("default", DEFAULTS), ("ask", ASK_ALL)):
            sums: dict[str, int] = {}
            for i in range(args.games):
                for k, v in play(players, args.seed + 1000 * players + i, settings).items():
                    sums[k] = sums.get(k, 0) + v
            totals[name] = sums
        n = args.games
        d = (totals["default"]["waits"] - totals["default"]["turns"]) / n
        a = (totals["ask"]["waits"] - totals["ask"]["turns"]) / n
        t = totals["default"]["turns"] / n
        line = f"{players} players: {d:.1f} extra waits per game with default standing answers, {a:.1f} with ask me"
        print(f"{line}, {t:.0f} turns")
        ask = totals["ask"]
        print(
            f"  ask me: {ask['victim_waits'] / n:.1f} victims' waits per game for {ask['attack_victims'] / n:.1f}"
            f" attacks x victims; the attacker waited again {ask['attacker_rewaits'] / n:.1f} times per game",
            file=sys.stderr,
        )
        why = {k[8:]: v / n for k, v in sorted(ask.items()) if k.startswith("paused: ")}
        print(f"  ask me: the attacker's turn waited for: {why}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
