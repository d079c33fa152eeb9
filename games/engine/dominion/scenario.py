"""Scenario runner: ``python -m games.engine.dominion.scenario FILE.json``.

Implements the scenario contract of ``shared/rules/dominion-moves.md``:
build the position of ``setup``, apply ``moves``, print the position.
"""

from __future__ import annotations

import sys
from typing import Any

from games.engine.cli import MalformedScenario, scenario_main
from games.engine.core import EngineError, Rng
from games.engine.dominion.cards import CARDS
from games.engine.dominion.engine import (
    ENGINE,
    check_players,
    new_state,
    resolve_kingdom,
    result,
    score,
    supply_sizes,
)
from games.engine.dominion.state import DominionState

_ZONES = ("hand", "deck", "discard", "play")


def _cards(value: Any, where: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(c, str) and c in CARDS for c in value):
        raise MalformedScenario(f"{where} must be a list of card names")
    return list(value)


def build(setup: dict[str, Any], version: int | None = None) -> DominionState:
    """Return the state a scenario's ``setup`` describes, under rules
    ``version`` (a file's ``engine_version``; ``None``: the current one).

    Raises:
        MalformedScenario: a key of the wrong shape or an unknown card.
        EngineError: a player count or kingdom outside the rules.
    """
    players = check_players(setup.get("players", 2))
    seed = setup.get("seed", 0)
    if not isinstance(seed, int):
        raise MalformedScenario("seed must be an integer")
    kingdom = resolve_kingdom(setup.get("kingdom", "random"), seed)
    engine = ENGINE.at_version(ENGINE.version if version is None else version)  # raises UnsupportedVersion
    st = new_state(players, kingdom, seed, engine.version)
    supply = supply_sizes(players, kingdom)
    for name, count in (setup.get("supply") or {}).items():
        if name not in supply or not isinstance(count, int) or count < 0:
            raise MalformedScenario(f"supply: {name!r} is not a pile of this game")
        supply[name] = count
    st.supply = supply
    if "trash" in setup:
        st.trash = _cards(setup["trash"], "trash")
    seats = setup.get("players_state")
    if seats is not None:
        if not isinstance(seats, list) or len(seats) != players:
            raise MalformedScenario("players_state needs one entry per player")
        st.rng = Rng(seed)  # the dealt start is replaced: shuffles start from the seed
        for p, seat in enumerate(seats):
            if not isinstance(seat, dict):
                raise MalformedScenario("each players_state entry is an object")
            st.hands[p] = _cards(seat.get("hand", []), "hand")
            st.decks[p] = list(reversed(_cards(seat.get("deck", []), "deck")))
            st.discards[p] = _cards(seat.get("discard", []), "discard")
            st.plays[p] = _cards(seat.get("play", []), "play")
    turn = setup.get("turn") or {}
    current = turn.get("player", 0)
    if not isinstance(current, int) or not 0 <= current < players:
        raise MalformedScenario("turn.player is not a seat")
    st.current = current
    st.phase = turn.get("phase", "action")
    if st.phase not in ("action", "buy"):
        raise MalformedScenario("turn.phase is action or buy")
    st.actions = turn.get("actions", 1)
    st.buys = turn.get("buys", 1)
    st.coins = turn.get("coins", 0)
    number = turn.get("number", 1)
    # Seats before the current one have taken n turns, the others n - 1.
    st.turns = [number if p < current else number - 1 for p in range(players)]
    st.start_counts = st.card_counts()
    return st


def apply(st: DominionState, player: int, move: dict[str, Any]) -> None:
    """Apply one scenario move through the engine (raises ``IllegalMove``)."""
    ENGINE.apply(st, player, move)


def report(st: DominionState) -> dict[str, Any]:
    """The output keys of the notation file for ``st``."""
    res = result(st)
    return {
        "players": [
            {
                "hand": sorted(st.hands[p]),
                "discard": sorted(st.discards[p]),
                "play": sorted(st.plays[p]),
                "deck": list(reversed(st.decks[p])),
                "turns": st.turns[p],
                "score": score(st, p),
            }
            for p in range(st.n)
        ],
        "trash": sorted(st.trash),
        "supply": dict(st.supply),
        "turn": {
            "player": st.current,
            "phase": st.phase,
            "actions": st.actions,
            "buys": st.buys,
            "coins": st.coins,
            "number": st.turns[st.current] + (0 if st.game_over else 1),
        },
        "pending": [
            {"player": d.player, "kind": d.kind, "prompt": d.prompt} for d in ENGINE.pending(st) if d.kind != "turn"
        ],
        "game_over": st.game_over,
        "winners": res.winners if res else [],
    }


def main(argv: list[str]) -> int:
    """Run one scenario file; see the module docstring."""
    return scenario_main(argv, build, apply, report)


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except EngineError as e:  # pragma: no cover - build() reports these as malformed
        print(str(e), file=sys.stderr)
        sys.exit(2)
