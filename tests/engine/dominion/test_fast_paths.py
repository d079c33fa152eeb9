"""The engine's fast paths for simulations change no game.

Bot games (``simulate.play_out``, the search's rollouts) run with
``record = False`` and take shortcuts (no event lists, no owed-answer
lookups when nothing is owed, one view per seat): the same game must come
out, move for move, as when the site plays it with events on.
"""

from __future__ import annotations

import random

import pytest

from games.engine.dominion.bots import BOTS
from games.engine.dominion.engine import ENGINE, PlayerView, new_state, next_mover, pending_decisions, resolve_kingdom
from games.engine.dominion.simulate import play_game


def site_game(bots: list[str], seed: int):
    """The game as the site plays it: events on, a fresh view per move, the mover from ``pending``."""
    st = new_state(len(bots), resolve_kingdom("random", seed), seed)
    rng = random.Random(seed)
    moves = []
    while not st.game_over and sum(st.turns) < 400:
        p = pending_decisions(st)[0].player
        assert next_mover(st) == p
        move = BOTS[bots[p]](PlayerView(st, p), rng)
        events = ENGINE.apply(st, p, move)
        assert st.events == []  # drained into the answer
        moves.append((p, move, len(events)))
    return st, moves


@pytest.mark.parametrize(
    "bots", [["big_money", "big_money"], ["smart", "smart", "smart"], ["random", "smart", "level1", "big_money"]]
)
def test_a_simulated_game_is_the_game_the_site_plays(bots):
    for seed in range(5):
        fast = play_game(bots, seed)
        site, moves = site_game(bots, seed)
        assert moves
        assert fast.events == []
        for name in ("supply", "trash", "hands", "decks", "discards", "plays", "turns", "moves", "game_over"):
            assert getattr(fast, name) == getattr(site, name), (bots, seed, name)
        assert fast.rng == site.rng  # the same number of draws


def test_apply_without_recording_returns_no_events_and_keeps_none():
    st = new_state(2, resolve_kingdom("random", 3), 3)
    st.record = False
    p = next_mover(st)
    assert ENGINE.apply(st, p, {"act": "play_treasures"}) == []
    assert ENGINE.apply(st, p, {"act": "end_turn"}) == []
    assert st.events == []
