"""A small builder for Dominion positions, in the words of the scenario files."""

from __future__ import annotations

from typing import Any

from games.engine.core import IllegalMove
from games.engine.dominion.engine import ENGINE, open_decision
from games.engine.dominion.scenario import build, report
from games.engine.dominion.state import DominionState

KINGDOM = [
    "Adventurer",
    "Bureaucrat",
    "Cellar",
    "Chapel",
    "Feast",
    "Library",
    "Militia",
    "Moat",
    "Throne Room",
    "Witch",
]


def position(*seats: dict[str, list[str]], kingdom: list[str] | None = None, **turn: Any) -> DominionState:
    """Build a position: one dict of zones per seat (deck top first), then turn keys
    (``version=N``: under rules version N; default the current one)."""
    version = turn.pop("version", None)
    setup: dict[str, Any] = {
        "players": len(seats),
        "kingdom": kingdom or KINGDOM,
        "seed": turn.pop("seed", 1),
        "players_state": [dict(s) for s in seats],
        "turn": turn,
    }
    if "supply" in turn:
        setup["supply"] = turn.pop("supply")
    return build(setup, version)


def play(st: DominionState, player: int, **move: Any) -> DominionState:
    """Apply one move (keyword ``act=...``); raises ``IllegalMove`` like the engine."""
    ENGINE.apply(st, player, move)
    return st


def refused(st: DominionState, player: int, **move: Any) -> str:
    """Return the engine's reason for refusing a move (fails if it is accepted)."""
    try:
        ENGINE.apply(st, player, move)
    except IllegalMove as e:
        return e.reason
    raise AssertionError(f"move {move} was accepted")


def seat(st: DominionState, p: int) -> dict[str, Any]:
    """The scenario report of seat ``p`` (hand/discard/play sorted, deck top first)."""
    return report(st)["players"][p]


def asked(st: DominionState) -> list[tuple[int, str]]:
    """Open decisions as (player, kind) pairs."""
    return [(d.player, d.kind) for d in ENGINE.pending(st) if d.kind != "turn"]


def decision(st: DominionState, p: int):
    return open_decision(st, p)
