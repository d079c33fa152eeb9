"""Shared helpers for the Domaine engine tests: positions from compact setups."""

from __future__ import annotations

import copy
from typing import Any

from games.engine.domaine import scenario
from games.engine.domaine.engine import ENGINE
from games.engine.domaine.state import State

#: An all-meadow board with the royal city on G7, like most shared scenarios.
MEADOWS = ["." * 12] * 6 + ["......R....."] + ["." * 12] * 5

BASE: dict[str, Any] = {
    "players": 2,
    "seed": 1,
    "board": MEADOWS,
    "castles": {},
    "knights": {},
    "borders": [],
    "alliances": [],
    "players_state": [{"gold": 7, "hand": ["A1", "A2", "A3"]}, {"gold": 7, "hand": ["A2", "A3", "A4"]}],
    "deck": ["B1", "A1", "B2"],
    "display": [],
    "turn": {"player": 0, "step": "play"},
}

#: Seat 0's domain B2 = A1..C3 (closed by borders), seat 1's E2 = D1..F3 next to it.
TWO_DOMAINS = {
    "castles": {"B2": 0, "E2": 1, "H8": 0, "J10": 1},
    "knights": {"A2": 0, "E1": 1, "H9": 0, "J11": 1},
    "borders": [
        "A3-A4",
        "B3-B4",
        "C1-D1",
        "C2-D2",
        "C3-C4",
        "C3-D3",
        "D3-D4",
        "E3-E4",
        "F1-G1",
        "F2-G2",
        "F3-F4",
        "F3-G3",
    ],
}


def board_with(*marks: tuple[str, str]) -> list[str]:
    """Return MEADOWS with some squares changed: board_with(("D3", "V"))."""
    rows = [list(r) for r in MEADOWS]
    for sq, t in marks:
        col = "ABCDEFGHIJKL".index(sq[0])
        rows[int(sq[1:]) - 1][col] = t
    return ["".join(r) for r in rows]


def make(version: int | None = None, **over: Any) -> State:
    """Build a position from BASE updated with ``over`` (scenario setup keys),
    under rules ``version`` (``None``: the current version)."""
    setup = copy.deepcopy(BASE)
    for k, v in over.items():
        setup[k] = copy.deepcopy(v)
    return scenario.build(setup, version)


def report(state: State) -> dict[str, Any]:
    """The scenario output keys of ``state``."""
    return scenario.report(state)


def play(state: State, player: int, **move: Any) -> list[Any]:
    """Apply a move given as keywords (``from_`` stands for ``from``)."""
    if "from_" in move:
        move["from"] = move.pop("from_")
    return ENGINE.apply(state, player, move)


def domain(state: State, castle: str) -> dict[str, Any]:
    """The reported domain named by its castle square."""
    for d in report(state)["domains"]:
        if d["castle"] == castle:
            return d
    raise KeyError(castle)
