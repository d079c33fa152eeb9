"""Dominion's part of the golden corpus (``games.engine.golden``): its recording bots and its games.

``python -m games.engine.golden record --kind dominion`` plays the games
:data:`CORPORA` lists and writes them under ``tests/golden/dominion``. The
recorder finds this module beside the engine (``corpus`` next to
``engine``), so it names no game itself.
"""

from __future__ import annotations

import random
from typing import Any

from games.engine.dominion.bots import random_bot
from games.engine.dominion.cards import TREASURES
from games.engine.golden import Spec

KIND = "dominion"


def _kingdom_random(view: Any, rng: random.Random) -> dict[str, Any]:
    """A random Dominion player that buys kingdom cards whenever it can, so every card gets played."""
    moves: list[dict[str, Any]] = view.turn_moves()
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


def _v1_quirks(view: Any, rng: random.Random) -> dict[str, Any]:
    """``_kingdom_random``, but on some turns it sends ``play_treasures`` with no Treasure
    in hand, which Dominion version 1 accepted (its games may hold such moves) and
    version 2 refuses: recorded only under version 1."""
    if view.my_turn and not view.bought and not any(c in TREASURES for c in view.hand) and rng.random() < 0.5:
        return {"act": "play_treasures"}
    return _kingdom_random(view, rng)


#: Bots used only to make recorded games (not offered to players); the engine's own bots play too.
BOTS = {"kingdom_random": _kingdom_random, "v1_quirks": _v1_quirks}

KINGDOMS = [
    # Three kingdoms that hold all 25 cards between them.
    ["Cellar", "Chapel", "Moat", "Chancellor", "Village", "Woodcutter", "Workshop", "Bureaucrat", "Feast",
     "Gardens"],
    ["Militia", "Moneylender", "Remodel", "Smithy", "Spy", "Thief", "Throne Room", "Council Room", "Festival",
     "Laboratory"],
    ["Library", "Market", "Mine", "Witch", "Adventurer", "Throne Room", "Moat", "Thief", "Spy", "Militia"],
]  # fmt: skip


def first_corpus() -> list[Spec]:
    """The first 27 recorded Dominion games (``tests/golden/dominion/dominion-<n>p-*.json``): every
    kingdom above, 2-4 players, smart, random and kingdom-random bots. Version 1, finished; their
    records keep only the final view (``FINAL_ONLY``)."""
    out: list[Spec] = []
    for k, kingdom in enumerate(KINGDOMS):
        for players in (2, 3, 4):
            for style, bots in (
                ("smart", ["smart", "big_money", "smart", "big_money"][:players]),
                ("random", ["random"] * players),
                ("kingdom", ["kingdom_random"] * players),
            ):
                seed = 1000 * k + 10 * players + len(style)
                name = f"dominion-{players}p-{bots[0]}-{seed}.json"
                out.append((KIND, 1, {"kingdom": kingdom}, bots, seed, None, name))
    return out


def versions_corpus() -> list[Spec]:
    """The Dominion games with events and every view: versions 1 to 3, 2-4 players,
    the three kingdoms, finished (two bot styles) and stopped mid-game."""
    out: list[Spec] = []
    for version in (1, 2, 3):
        for k, kingdom in enumerate(KINGDOMS):
            for players in (2, 3, 4):
                seed = 50_000 + 1000 * version + 100 * k + players
                styles = [
                    ("kingdom", ["v1_quirks" if version == 1 else "kingdom_random"] * players, None),
                    ("mixed", ["smart", "random", "big_money", "kingdom_random"][:players], None),
                    ("stopped", ["kingdom_random", "smart", "random", "big_money"][:players], 40 + 15 * players),
                ]
                for i, (style, bots, stop) in enumerate(styles):
                    name = f"dominion-v{version}-{players}p-{style}-{seed + 10 * i}.json"
                    out.append((KIND, version, {"kingdom": kingdom}, bots, seed + 10 * i, stop, name))
    return out


#: Corpus name -> the games it records. The one named after the kind is part of ``record --kind all``.
CORPORA = {KIND: versions_corpus, "dominion-v1-first27": first_corpus}

#: Corpora whose records keep only the final spectator view, as the first records did.
FINAL_ONLY = frozenset({"dominion-v1-first27"})
