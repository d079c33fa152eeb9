"""A tiny engine for the site's own tests: "counter".

Players take turns adding 1, 2 or 3 to a running total; whoever reaches the
target exactly wins. Each seat holds a secret string that only it may see
while the game runs, so tests can check hidden information never leaks
into another player's HTML. It implements ``games.engine.core.Engine``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.engine import registry
from games.engine.core import Decision, Event, IllegalMove, InvalidOptions, Result, Rng


@dataclass
class CounterState:
    """Everything about a counter game."""

    n: int
    target: int
    secrets: list[str]
    rng: Rng
    total: int = 0
    current: int = 0
    over: bool = False
    winner: int | None = None
    history: list[int] = field(default_factory=list)


class CounterEngine:
    """The counter game behind the engine interface."""

    kind = "counter"
    version = 1
    min_players = 2
    max_players = 4

    @property
    def bots(self) -> dict[str, Any]:
        """Bot name -> function ``(view, rng) -> move``: those of ``tests/counter/bots.py``, as a real game's."""
        return registry.bots_of(self.kind)

    def normalize_options(self, options: dict[str, Any], players: int, seed: int) -> dict[str, Any]:
        """Return options with ``target`` made explicit (default 10, 3..100)."""
        if not isinstance(options, dict):
            raise InvalidOptions("Options must be an object.")
        if not self.min_players <= players <= self.max_players:
            raise InvalidOptions("Counter is for 2 to 4 players.")
        target = options.get("target", 10)
        if not isinstance(target, int) or isinstance(target, bool) or not 3 <= target <= 100:
            raise InvalidOptions("The target must be a whole number from 3 to 100.")
        return {**options, "target": target}

    def new_game(self, options: dict[str, Any], players: int, seed: int) -> CounterState:
        """Deal each seat a secret drawn from the seed."""
        opts = self.normalize_options(options, players, seed)
        rng = Rng(seed)
        secrets = [f"SECRET-{p}-{rng.randrange(16**10):010x}" for p in range(players)]
        return CounterState(n=players, target=opts["target"], secrets=secrets, rng=rng)

    def pending(self, state: CounterState) -> list[Decision]:
        """The current seat's turn, or nothing once over."""
        if state.over:
            return []
        return [Decision(state.current, "turn", "Add 1, 2 or 3.", ["1", "2", "3"], 1, 1)]

    def legal_moves(self, state: CounterState, player: int) -> list[dict[str, Any]]:
        """Adds that do not overshoot, for the current seat."""
        if state.over or player != state.current:
            return []
        return [{"act": "add", "n": k} for k in (1, 2, 3) if state.total + k <= state.target]

    def forced_move(self, state: CounterState) -> tuple[int, dict[str, Any]] | None:
        """Never: even a single legal add is left to the player, so the site's tests count every move.

        The site's forced-move path is tested with Dominion's End turn.
        """
        return None

    def check(self, state: CounterState, player: int, move: dict[str, Any]) -> None:
        """Raise IllegalMove unless ``move`` is one of ``legal_moves``."""
        if state.over:
            raise IllegalMove("The game is over.", "game_over")
        if player != state.current:
            raise IllegalMove("It is not your turn.", "not_your_decision")
        if isinstance(move, dict) and move.get("act") == "crash":
            raise KeyError("a deliberately buggy branch, for the site's tests")
        if not isinstance(move, dict) or move.get("act") != "add":
            raise IllegalMove("The only move is add.", "unknown_act")
        n = move.get("n")
        if not isinstance(n, int) or isinstance(n, bool) or n not in (1, 2, 3):
            raise IllegalMove("Add 1, 2 or 3.", "bad_number")
        if state.total + n > state.target:
            raise IllegalMove(f"That would pass {state.target}.", "overshoot")

    def apply(self, state: CounterState, player: int, move: dict[str, Any]) -> list[Event]:
        """Add, then pass the turn or end the game."""
        self.check(state, player, move)
        state.total += move["n"]
        state.history.append(move["n"])
        events = [Event("add", player, {"n": move["n"], "total": state.total})]
        if state.total == state.target:
            state.over = True
            state.winner = player
            events.append(Event("win", player))
        else:
            state.current = (state.current + 1) % state.n
        return events

    def view(self, state: CounterState, viewer: int | None, reveal_all: bool = False) -> dict[str, Any]:
        """Everything but other seats' secrets (all of it once over, or with ``reveal_all``)."""
        return {
            "game": "counter",
            "viewer": viewer,
            "total": state.total,
            "target": state.target,
            "turn": {"player": state.current},
            "seats": [
                {"seat": p, "secret": s if (p == viewer or state.over or reveal_all) else None}
                for p, s in enumerate(state.secrets)
            ],
            "waiting_on": [d.player for d in self.pending(state)],
            "legal": self.legal_moves(state, viewer) if viewer is not None else [],
            "game_over": state.over,
        }

    def player_view(self, state: CounterState, player: int) -> dict[str, Any]:
        """The view, for bots."""
        return self.view(state, player)

    def result(self, state: CounterState) -> Result | None:
        """The winner ranks 1, everyone else 2."""
        if not state.over or state.winner is None:
            return None
        ranks = [1 if p == state.winner else 2 for p in range(state.n)]
        scores = [1 if p == state.winner else 0 for p in range(state.n)]
        return Result(scores=scores, ranks=ranks, winners=[state.winner])

    def is_over(self, state: CounterState) -> bool:
        """True once the target is reached."""
        return state.over


ENGINE = CounterEngine()
