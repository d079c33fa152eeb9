"""Recorded games that must replay to the same end, forever.

A recorded game is a JSON file: ``kind``, ``engine_version``, ``options``,
``players``, ``seed``, ``bots``, every ``move`` (with its ``player``) and
``final``: the engine's end-of-game view (everything revealed). Replaying
the moves from the seed through today's engine must give the same
``final``; an engine change that alters a recorded game fails the test
suite instead of silently changing games people played.

    python -m games.engine.golden record --kind dominion --out tests/golden
    python -m games.engine.golden check tests/golden
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

from games.engine.registry import get_engine

MAX_MOVES = 20_000


def _kingdom_random(view: Any, rng: Any) -> dict[str, Any]:
    """A random Dominion player that buys kingdom cards whenever it can, so every card gets played."""
    from games.engine.dominion.bots import random_bot

    moves = view.turn_moves()
    kingdom = set(view.kingdom)
    buys = [m for m in moves if m["act"] == "buy" and m.get("card") in kingdom]
    plays = [m for m in moves if m["act"] == "play" and m.get("card") in kingdom]
    if plays and rng.random() < 0.9:
        return plays[rng.randrange(len(plays))]
    if not buys and any(m["act"] == "play_treasures" for m in moves):
        return {"act": "play_treasures"}
    if buys:
        return buys[rng.randrange(len(buys))]
    return random_bot(view, rng)


#: Bots used only to make recorded games (kept here, not offered to players).
CORPUS_BOTS = {"kingdom_random": _kingdom_random}


def play(kind: str, options: dict[str, Any], bots: list[str], seed: int) -> dict[str, Any]:
    """Play one bot game through the public engine interface and return its record."""
    engine = get_engine(kind)
    players = len(bots)
    options = engine.normalize_options(options, players, seed)
    state = engine.new_game(options, players, seed)
    rng = random.Random(seed)
    moves = []
    while not engine.is_over(state):
        if len(moves) >= MAX_MOVES:
            raise RuntimeError(f"{kind} game with seed {seed} did not end in {MAX_MOVES} moves")
        p = engine.pending(state)[0].player
        bot = CORPUS_BOTS.get(bots[p]) or engine.bots[bots[p]]
        move = bot(engine.player_view(state, p), rng)
        engine.apply(state, p, move)
        moves.append({"player": p, **move})
    return {
        "kind": kind,
        "engine_version": engine.version,
        "options": options,
        "players": players,
        "seed": seed,
        "bots": bots,
        "moves": moves,
        "final": engine.view(state, None),
    }


def replay(record: dict[str, Any]) -> dict[str, Any]:
    """Replay a record's moves from its seed; return the final view.

    Raises:
        IllegalMove: a recorded move is no longer legal (the engine changed).
    """
    engine = get_engine(record["kind"])
    state = engine.new_game(record["options"], record["players"], record["seed"])
    for move in record["moves"]:
        body = {k: v for k, v in move.items() if k != "player"}
        engine.apply(state, move["player"], body)
    return json.loads(json.dumps(engine.view(state, None)))


DOMINION_KINGDOMS = [
    # Three kingdoms that hold all 25 cards between them.
    ["Cellar", "Chapel", "Moat", "Chancellor", "Village", "Woodcutter", "Workshop", "Bureaucrat", "Feast",
     "Gardens"],
    ["Militia", "Moneylender", "Remodel", "Smithy", "Spy", "Thief", "Throne Room", "Council Room", "Festival",
     "Laboratory"],
    ["Library", "Market", "Mine", "Witch", "Adventurer", "Throne Room", "Moat", "Thief", "Spy", "Militia"],
]


def dominion_corpus() -> list[tuple[dict[str, Any], list[str], int]]:
    """(options, bots, seed) for every kingdom above, 2-4 players, smart and random bots."""
    out = []
    for k, kingdom in enumerate(DOMINION_KINGDOMS):
        for players in (2, 3, 4):
            for style, bots in (
                ("smart", ["smart", "big_money", "smart", "big_money"][:players]),
                ("random", ["random"] * players),
                ("kingdom", ["kingdom_random"] * players),
            ):
                out.append(({"kingdom": kingdom}, bots, 1000 * k + 10 * players + len(style)))
    return out


def main(argv: list[str]) -> int:
    """``record`` writes the corpus; ``check`` replays every file and reports differences."""
    ap = argparse.ArgumentParser(prog="python -m games.engine.golden")
    sub = ap.add_subparsers(dest="cmd", required=True)
    rec = sub.add_parser("record")
    rec.add_argument("--kind", default="dominion")
    rec.add_argument("--out", default="tests/golden")
    chk = sub.add_parser("check")
    chk.add_argument("folder")
    args = ap.parse_args(argv)
    if args.cmd == "record":
        if args.kind != "dominion":
            ap.error("only the dominion corpus is defined here; other games add theirs")
        out = Path(args.out) / args.kind
        out.mkdir(parents=True, exist_ok=True)
        for options, bots, seed in dominion_corpus():
            record = play(args.kind, options, bots, seed)
            name = f"{args.kind}-{len(bots)}p-{bots[0]}-{seed}.json"
            (out / name).write_text(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n")
            print(f"{name}: {len(record['moves'])} moves")
        return 0
    bad = 0
    for path in sorted(Path(args.folder).rglob("*.json")):
        record = json.loads(path.read_text())
        if replay(record) != record["final"]:
            print(f"DIFFERS {path}")
            bad += 1
    print("all recorded games replay exactly" if not bad else f"{bad} recorded games differ")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
