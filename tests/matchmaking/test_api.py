"""The API's matchmaking: the same rules as the pages, problems for refusals, bots seeking among bots."""

from __future__ import annotations

import json

from accounts.models import Block
from games.models import Game
from matchmaking.models import Follow, RematchOffer, Seek
from tests.api.conftest import api_client
from tests.factories import UserFactory
from tests.matchmaking.conftest import finished_game


def call(api, method: str, path: str, body=None):
    return api.client.generic(
        method,
        f"/api/v1{path}",
        data="" if body is None else json.dumps(body),
        content_type="application/json",
        headers=api.headers,
    )


def test_two_bot_accounts_find_a_rated_game_through_the_api(db):
    one, two = UserFactory.create(bot_account=True), UserFactory.create(bot_account=True)
    person = UserFactory.create()
    a, b, p = api_client(one), api_client(two), api_client(person)
    first = a.post("/seeks/quick", {"kind": "dominion"}).json()
    assert first["status"] == "open"
    assert p.post("/seeks/quick", {"kind": "dominion"}).json()["status"] == "open"  # never with a person
    second = b.post("/seeks/quick", {"kind": "dominion"}).json()
    assert second["status"] == "matched" and second["game_id"]
    assert a.get(f"/seeks/{first['id']}").json()["game_id"] == second["game_id"]
    game = Game.objects.get(pk=second["game_id"])
    assert game.rated and {s.user_id for s in game.seats.all()} == {one.pk, two.pk}


def test_posting_listing_and_withdrawing_a_seek(db):
    alice, bob = UserFactory.create(), UserFactory.create()
    a, b = api_client(alice), api_client(bob)
    body = {"kind": "domaine", "players_min": 3, "players_max": 4, "rating_low": 1000, "rating_high": 2000}
    response = a.post("/seeks", body)
    assert response.status_code == 201
    seek = response.json()
    assert [s["id"] for s in b.get("/seeks").json()] == [seek["id"]]
    assert call(b, "DELETE", f"/seeks/{seek['id']}").status_code == 404  # not bob's
    assert call(a, "DELETE", f"/seeks/{seek['id']}").status_code == 204
    assert call(a, "DELETE", f"/seeks/{seek['id']}").json()["code"] == "seek_not_open"
    assert b.get("/seeks").json() == []


def test_refusals_are_problems_and_change_nothing(db):
    alice = UserFactory.create()
    a = api_client(alice)
    bad = a.post("/seeks", {"kind": "dominion", "players_min": 4, "players_max": 2})
    assert bad.status_code == 422 and bad.json()["code"] == "invalid_options"
    assert a.post("/seeks", {"kind": "dominion", "time_per_move": 7}).status_code == 400
    for size in (2, 3, 4):
        a.post("/seeks", {"kind": "dominion", "players_min": size, "players_max": size})
    too_many = a.post("/seeks", {"kind": "domaine"})
    assert too_many.status_code == 409 and too_many.json()["code"] == "too_many_seeks"
    assert Seek.objects.count() == 3
    read_only = api_client(alice, scopes=("read",))
    assert read_only.post("/seeks/quick", {}).status_code == 403


def test_rematch_through_the_api(db):
    alice, bob = UserFactory.create(), UserFactory.create()
    game = finished_game(alice, bob)
    a, b = api_client(alice), api_client(bob)
    assert a.get(f"/games/{game.pk}/rematch").status_code == 404
    offer = a.post(f"/games/{game.pk}/rematch").json()
    assert offer["status"] == "open" and offer["accepted"] == [alice.username]
    started = b.post(f"/games/{game.pk}/rematch").json()
    assert started["status"] == "started" and started["new_game_id"] == RematchOffer.objects.get().new_game_id
    outsider = api_client(UserFactory.create())
    assert outsider.post(f"/games/{game.pk}/rematch").json()["code"] == "rematch_refused"


def test_follow_through_the_api_and_blocks_win(db):
    alice, bob, carol = UserFactory.create(), UserFactory.create(), UserFactory.create()
    a = api_client(alice)
    assert call(a, "PUT", f"/players/{bob.username}/follow").status_code == 204
    assert call(a, "PUT", f"/players/{bob.username}/follow").status_code == 204  # idempotent
    assert [f["username"] for f in a.get("/following").json()] == [bob.username]
    Block.objects.create(blocker=carol, blocked=alice)
    assert call(a, "PUT", f"/players/{carol.username}/follow").status_code == 404
    assert call(a, "PUT", f"/players/{alice.username}/follow").json()["code"] == "follow_self"
    assert call(a, "DELETE", f"/players/{bob.username}/follow").status_code == 204
    assert not Follow.objects.exists()
