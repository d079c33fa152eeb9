"""The grace before a forced End turn, in a version-3 game where a victim still owes an attack's answer."""

from __future__ import annotations

import pytest

from games import services
from games.engine.dominion.standing import ASK_ALL, DEFAULTS
from tests.web.test_standing import _game, _move, dealt  # noqa: F401 - the fixture

pytestmark = pytest.mark.django_db
E = "Estate"


def test_a_victims_late_answer_does_not_cut_the_attackers_grace_short(dealt, settings, player, opponent):  # noqa: F811
    settings.HERALD_FORCED_MOVE_GRACE = 30
    opponent.standing_answers = ASK_ALL
    opponent.save()
    dealt["moat"] = False
    game = _move(_game(player, opponent), player, act="play", card="Village")
    game = _move(game, player, act="play", card="Militia")
    game = _move(game, player, act="play", card="Market")
    game = _move(game, player, act="play_treasures")
    game = _move(game, player, act="buy", card="Gold")
    game = _move(game, player, act="buy", card="Copper")  # the last Buy: End turn waits out the grace
    assert game.forced_due is not None and services.state_at(game).turns[0] == 0
    game = _move(game, opponent, act="no")  # Bob answers his owed question meanwhile
    state = services.state_at(game)
    assert state.turns[0] == 0, "Bob's answer made Alice's End turn for her, inside her grace"
    assert game.forced_due is not None, "the grace still runs"


def test_standing_answers_set_during_the_attackers_grace_answer_at_once_and_keep_the_grace(
    dealt,  # noqa: F811
    settings,
    client,
    player,
    opponent,
):
    settings.HERALD_FORCED_MOVE_GRACE = 30
    opponent.standing_answers = ASK_ALL
    opponent.save()
    dealt["moat"] = False
    game = _move(_game(player, opponent), player, act="play", card="Village")
    game = _move(game, player, act="play", card="Militia")
    game = _move(game, player, act="play", card="Market")
    game = _move(game, player, act="play_treasures")
    game = _move(game, player, act="buy", card="Gold")
    game = _move(game, player, act="buy", card="Copper")
    due = game.forced_due
    assert due is not None and sorted(game.to_act) == [0, 1]
    client.force_login(opponent)
    client.post(f"/games/{game.pk}/standing", dict(DEFAULTS))
    game.refresh_from_db()
    state = services.state_at(game)
    assert len(state.hands[1]) == 3, "Bob's new standing answers discard for him at once"
    assert state.turns[0] == 0 and game.forced_due == due, "Alice's End turn still waits out her grace"
