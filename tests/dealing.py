"""Fixed Dominion deals for tests: every new game starts from a set-up the test wrote, seats in join order."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from games.engine.dominion.engine import DominionEngine
from games.engine.dominion.scenario import build


def deal_fixed(monkeypatch: pytest.MonkeyPatch, setup: Callable[[bool, int], dict], deal: dict[str, Any]) -> dict:
    """Make every new Dominion game start from ``setup(deal["moat"], players)``, under the rules version
    ``deal.get("version")`` (None: the engine's own), and keep the seats in join order.

    ``deal`` is returned and read when each game starts, so a test may change it before creating its game.
    """

    def new_game(self: DominionEngine, options: dict, players: int, seed: int) -> Any:
        st = build(setup(deal["moat"], players), deal.get("version") or self.version)
        st.ask_all = bool(options.get("hidden_reactions", True))
        return st

    monkeypatch.setattr(DominionEngine, "new_game", new_game)

    class NoShuffle:
        def shuffle(self, items: list) -> None:
            pass

    monkeypatch.setattr("games.lifecycle.secrets.SystemRandom", NoShuffle)
    return deal
