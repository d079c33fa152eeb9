"""The API shows a version-3 game's pending Moat question the same way whether or not the hand holds a Moat."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
import time_machine

from api.models import StreamEvent
from games.engine.dominion.standing import ASK_ALL
from games.models import Game
from tests.api.conftest import api_client
from tests.factories import UserFactory
from tests.web.test_standing import _game, _move, dealt  # noqa: F401 - the fixture

pytestmark = pytest.mark.django_db


def _strip(data, game_id):
    """The answer without what differs between two games anyway (ids, addresses)."""
    if isinstance(data, dict):
        return {k: _strip(v, game_id) for k, v in data.items() if k not in ("id", "url", "game", "created", "cursor")}
    if isinstance(data, list):
        return [_strip(v, game_id) for v in data]
    return data


def test_nobody_can_tell_a_moat_through_the_api(dealt):  # noqa: F811
    alice, bob, carol, dave = (UserFactory.create(username=n) for n in ("alice", "bob", "carol", "dave"))
    bob.standing_answers = ASK_ALL
    bob.save()
    clients = {u.username: api_client(u) for u in (alice, carol, dave)}
    seen = []
    for moat in (True, False):
        dealt["moat"] = moat
        StreamEvent.objects.all().delete()
        with time_machine.travel(datetime(2026, 12, 1, 12, 0, tzinfo=UTC), tick=False):
            game = _move(_game(alice, bob, carol), alice, act="play", card="Village")
            game = _move(game, alice, act="play", card="Militia")
            assert sorted(game.to_act) == [0, 1]
            out = {}
            for name, client in clients.items():
                response = client.get(f"/games/{game.pk}")
                assert response.status_code == 200
                out[name] = _strip(response.json(), game.pk)
                out[name + " events"] = _strip(client.get("/events", after=0).json(), game.pk)
            seen.append(out)
        Game.objects.filter(pk=game.pk).delete()
    with_moat, without = seen
    for key in with_moat:
        assert with_moat[key] == without[key], key
