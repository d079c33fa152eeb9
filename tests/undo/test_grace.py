"""The End turn after the last Buy waits a grace period: Undo can reach the Buy, and nobody acting ends the turn."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from correspondence.sweep import sweep
from games import services
from games.grace import game_forced_move
from tests.conftest import make_game
from tests.undo.helpers import advance, turn_start, user_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def bought(settings, player, opponent):
    """A game whose turn player just made their last Buy (a misclicked Copper), with a 30 s grace."""
    settings.HERALD_FORCED_MOVE_GRACE = 30
    game = advance(make_game(player, opponent, kind="dominion", options={"kingdom": "First Game"}), turn_start)
    p = services.state_at(game).current
    services.game_submit_move(
        game_id=game.pk, user=user_of(game, p), move={"act": "buy", "card": "Copper"}, expected_seq=game.last_seq
    )
    game.refresh_from_db()
    return game, p


def test_the_turn_waits_for_end_turn_or_the_grace(bought):
    game, p = bought
    state = services.state_at(game)
    assert state.current == p and state.bought and game.to_act == [p]
    assert game_forced_move(game_id=game.pk) is False, "not before the grace is over"


def test_nobody_acting_ends_the_turn_after_the_grace_through_the_sweep(bought):
    game, p = bought
    seq = game.last_seq
    with time_machine.travel(timezone.now() + timedelta(seconds=31), tick=False):
        counts = sweep()
    assert counts["forced"] == 1
    game.refresh_from_db()
    assert game.last_seq == seq + 1 and game.forced_due is None
    assert game.actions.get(seq=seq + 1).move == {"act": "end_turn"}
    assert services.state_at(game).current != p
    with time_machine.travel(timezone.now() + timedelta(seconds=90), tick=False):
        assert sweep()["forced"] == 0, "made once"


def test_the_misclicked_buy_is_taken_back_before_the_grace_ends(bought):
    game, p = bought
    services.game_undo(game_id=game.pk, user=user_of(game, p), expected_seq=game.last_seq)
    game.refresh_from_db()
    state = services.state_at(game)
    assert not state.bought and state.buys == 1 and state.supply["Copper"] == 60 - 14
    assert game.forced_due is None
    with time_machine.travel(timezone.now() + timedelta(seconds=31), tick=False):
        assert sweep()["forced"] == 0, "nothing ends the turn after an undo"
    assert services.state_at(game).current == p


def test_end_turn_pressed_ends_the_wait(bought):
    game, p = bought
    services.game_submit_move(
        game_id=game.pk, user=user_of(game, p), move={"act": "end_turn"}, expected_seq=game.last_seq
    )
    game.refresh_from_db()
    assert game.forced_due is None and services.state_at(game).current != p
