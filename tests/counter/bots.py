"""The counter game's bots, as levels: random, then one that takes a win it sees, then perfect play."""

from __future__ import annotations

import random
from typing import Any


def _legal(view: dict[str, Any]) -> list[dict[str, Any]]:
    return list(view["legal"]) or [{"act": "add", "n": 1}]


def random_add(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """Any legal add."""
    return rng.choice(_legal(view))


def takes_wins(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """Reach the target when one add does; otherwise any legal add."""
    for move in _legal(view):
        if view["total"] + move["n"] == view["target"]:
            return move
    return random_add(view, rng)


def perfect(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """Leave the others a multiple of 4 to go (the winning strategy of this Nim); else any legal add."""
    for move in _legal(view):
        if (view["target"] - view["total"] - move["n"]) % 4 == 0:
            return move
    return random_add(view, rng)


def first(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """Always add 1 (the engine's own ``first`` bot, which the site's bot-seat tests use)."""
    return {"act": "add", "n": 1}


LEVELS = [
    ("level1", "Beginner", "Adds at random."),
    ("level2", "Casual", "Takes a win it sees."),
    ("level3", "Club player", "Plays perfectly."),
]
BOTS = {"first": first, "level1": random_add, "level2": takes_wins, "level3": perfect}
