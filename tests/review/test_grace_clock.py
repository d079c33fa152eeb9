"""A player whose clock runs out during the grace after their last Buy has moved in time: the turn ends, no timeout."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from correspondence.sweep import sweep
from games import services
from games.models import Game, Seat
from tests.conftest import make_game
from tests.undo.helpers import advance, turn_start, user_of

pytestmark = pytest.mark.django_db


def test_a_clock_that_ends_inside_the_grace_does_not_time_the_player_out(settings, player, opponent):
    settings.HERALD_FORCED_MOVE_GRACE = 30
    game = advance(make_game(player, opponent, kind="dominion", options={"kingdom": "First Game"}), turn_start)
    p = services.state_at(game).current
    soon = timezone.now() + timedelta(seconds=10)  # the player's clock is nearly out
    Seat.objects.filter(game=game, position=p).update(deadline=soon)
    Game.objects.filter(pk=game.pk).update(deadline=soon)
    game.refresh_from_db()
    services.game_submit_move(
        game_id=game.pk, user=user_of(game, p), move={"act": "buy", "card": "Copper"}, expected_seq=game.last_seq
    )
    game.refresh_from_db()
    assert game.forced_due is not None and game.forced_due > soon
    with time_machine.travel(timezone.now() + timedelta(seconds=15), tick=False):
        sweep()
    seat = Seat.objects.get(game=game, position=p)
    assert not seat.forfeited, "the last Buy was in time: the End turn the site holds back is not a timeout"
    assert services.state_at(Game.objects.get(pk=game.pk)).current != p
