"""A variant of the counter game with an out-of-turn decision, for the timeout rule.

After a move that makes the total odd, the seat two places on (the next-but-one,
or the mover's opponent with two players) must "ack" before the next turn goes
on, like a Militia discard: an ``out_of_turn`` decision.
"""

from __future__ import annotations

from typing import Any

from games.engine.core import Decision, Event, IllegalMove, Rng
from tests.counter.engine import CounterEngine, CounterState


def _ack_bot(view: dict[str, Any], rng: Rng) -> dict[str, Any]:
    if view.get("ack") == view["viewer"]:
        return {"act": "ack"}
    return {"act": "add", "n": 1}


class AckEngine(CounterEngine):
    """Counter plus an out-of-turn "ack" after every odd total."""

    kind = "ackcounter"
    bots: dict[str, Any] = {"first": _ack_bot}

    def new_game(self, options: dict[str, Any], players: int, seed: int) -> CounterState:
        """As counter, with no ack owed."""
        state = super().new_game(options, players, seed)
        state.ack = None  # type: ignore[attr-defined]
        return state

    def pending(self, state: CounterState) -> list[Decision]:
        """The ack if one is owed, else the current turn."""
        ack = getattr(state, "ack", None)
        if not state.over and ack is not None:
            return [Decision(ack, "ack", "Acknowledge.", ["ack"], 1, 1, out_of_turn=True, answer="ack")]
        return super().pending(state)

    def check(self, state: CounterState, player: int, move: dict[str, Any]) -> None:
        """Only the ack while one is owed."""
        ack = getattr(state, "ack", None)
        if ack is not None:
            if player != ack or move != {"act": "ack"}:
                raise IllegalMove("An ack is owed.", "ack_owed")
            return
        super().check(state, player, move)

    def apply(self, state: CounterState, player: int, move: dict[str, Any]) -> list[Event]:
        """Ack, or add (and maybe owe an ack)."""
        self.check(state, player, move)
        if getattr(state, "ack", None) is not None:
            state.ack = None  # type: ignore[attr-defined]
            return [Event("ack", player)]
        events = super().apply(state, player, move)
        if not state.over and state.total % 2 == 1:
            state.ack = (player + 2) % state.n if state.n > 2 else (player + 1) % state.n  # type: ignore[attr-defined]
        return events

    def view(self, state: CounterState, viewer: int | None, reveal_all: bool = False) -> dict[str, Any]:
        """Counter's view plus who owes an ack."""
        return {**super().view(state, viewer, reveal_all), "ack": getattr(state, "ack", None)}


ENGINE = AckEngine()
