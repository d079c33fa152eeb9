"""Taking moves back through the API, as the game page's Undo does: free, refused with its reason, or by consent."""

from __future__ import annotations

import pytest

from games import services
from games.models import Game
from tests.api.conftest import api_client
from tests.conftest import make_game
from tests.factories import UserFactory
from tests.undo.helpers import DRAWERS, advance, drawer_in_hand, user_of

pytestmark = pytest.mark.django_db


def test_an_undo_after_a_draw_is_refused_with_its_reason_then_done_once_both_others_allow_it():
    ann, bo, cy = UserFactory.create(), UserFactory.create(), UserFactory.create()
    game = advance(make_game(ann, bo, cy, kind="dominion", options={"kingdom": "First Game"}), drawer_in_hand)
    p = services.state_at(game).current
    clients = {q: api_client(user_of(game, q)) for q in range(3)}
    others = [q for q in range(3) if q != p]
    cursors = {q: clients[q].get("/events").json()["cursor"] for q in others}
    drawer = next(c for c in services.state_at(game).hands[p] if c in DRAWERS)
    played = clients[p].post(
        f"/games/{game.pk}/moves", {"move": {"act": "play", "card": drawer}, "expected_seq": game.last_seq}
    )
    assert played.status_code == 200
    seq = played.json()["game"]["last_seq"]

    refused = clients[p].post(f"/games/{game.pk}/undo", {"expected_seq": seq})
    assert refused.status_code == 422 and refused.json()["reason"] == "undo_needs_consent", refused.json()
    asked = clients[p].post(f"/games/{game.pk}/undo", {"expected_seq": seq, "ask": True})
    assert asked.status_code == 200
    request = asked.json()["undo_request"]
    assert request["seat"] == p and request["agreed"] == []
    for q in others:
        events = clients[q].get("/events", after=cursors[q], wait=0).json()["events"]
        assert ("undo_asked", game.pk) in [(e["kind"], e["game"]) for e in events]
        assert clients[q].get(f"/games/{game.pk}").json()["undo_request"]["id"] == request["id"]
    # The one asking has no say; a malformed or unknown request is refused, not a 500.
    assert clients[p].post(f"/games/{game.pk}/undo/{request['id']}", {"agree": True}).status_code == 403
    assert clients[others[0]].post(f"/games/{game.pk}/undo/999999", {"agree": True}).status_code == 409
    assert clients[others[0]].post(f"/games/{game.pk}/undo/{request['id']}", {"agree": "maybe"}).status_code in (
        400,
        422,
    )

    first = clients[others[0]].post(f"/games/{game.pk}/undo/{request['id']}", {"agree": True})
    assert first.status_code == 200 and first.json()["undo_request"]["agreed"] == [others[0]]
    assert Game.objects.get(pk=game.pk).last_seq == seq  # one of two: nothing taken back yet
    done = clients[others[1]].post(f"/games/{game.pk}/undo/{request['id']}", {"agree": True})
    assert done.status_code == 200 and done.json()["undo_request"] is None
    game.refresh_from_db()
    assert game.actions.order_by("-seq").first().move["act"] == "undo"
    assert drawer in services.state_at(game).hands[p]
