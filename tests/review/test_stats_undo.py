"""Statistics of a game whose log holds an undo entry: the retracted moves must not count."""

from __future__ import annotations

import pytest

from games import services
from stats.services import measure
from tests.conftest import make_game
from tests.undo.helpers import advance, drawer_in_hand, user_of

pytestmark = pytest.mark.django_db


def test_stats_replay_skips_retracted_moves(settings, player, opponent):
    settings.HERALD_FORCED_MOVE_GRACE = 30
    game = advance(make_game(player, opponent, kind="dominion", options={"kingdom": "First Game"}), drawer_in_hand)
    p = services.state_at(game).current
    u = user_of(game, p)
    services.game_submit_move(game_id=game.pk, user=u, move={"act": "play_treasures"}, expected_seq=game.last_seq)
    game.refresh_from_db()
    services.game_submit_move(
        game_id=game.pk, user=u, move={"act": "buy", "card": "Copper"}, expected_seq=game.last_seq
    )
    game.refresh_from_db()
    services.game_undo(game_id=game.pk, user=u, expected_seq=game.last_seq)
    game.refresh_from_db()
    numbers = measure(game)
    assert numbers is not None, "a game with an undo entry must still be measured"
    assert numbers.bought[p].get("Copper", 0) == 0, "a Buy taken back is not a Buy"
