"""Dominion games played through the site's move path up to a chosen position."""

from __future__ import annotations

import random
from collections.abc import Callable

from games import services
from games.engine.dominion.engine import ENGINE
from games.models import Game
from tests.conftest import seated

DRAWERS = ("Smithy", "Moat", "Village", "Market")


def advance(game: Game, until: Callable[[object], bool], *, limit: int = 400, seed: int = 5) -> Game:
    """Play the smart bot's moves for whoever must act until ``until(state)`` holds; return the game fresh."""
    rng = random.Random(seed)
    users = {s.position: seated(s) for s in game.seats.all()}
    for _ in range(limit):
        game.refresh_from_db()
        state = services.state_at(game)
        if until(state):
            return game
        seat = ENGINE.pending(state)[0].player
        move = ENGINE.bots["smart"](ENGINE.player_view(state, seat), rng)
        services.game_submit_move(game_id=game.pk, user=users[seat], move=move, expected_seq=game.last_seq)
    raise AssertionError("the position never came")


def drawer_in_hand(state) -> bool:
    """The turn's player is in the Action phase with nothing asked and a card that draws in hand."""
    return (
        not state.open
        and state.phase == "action"
        and state.actions > 0
        and any(c in DRAWERS for c in state.hands[state.current])
    )


def turn_start(state) -> bool:
    """A turn's first position: Action phase, nothing played yet, nothing asked."""
    return not state.open and state.phase == "action" and not state.plays[state.current] and state.actions == 1


def user_of(game: Game, position: int):
    return game.seats.get(position=position).user
