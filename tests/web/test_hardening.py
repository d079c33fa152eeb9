"""Refusals found by the adversarial review: each was a 500, a leak or a forged record."""

from __future__ import annotations

import json
from http import HTTPStatus

import pytest
from django.urls import reverse

from games import services
from games.models import Action, Game
from tests.conftest import make_game, user_to_move
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def post_move(client, game, raw: str, htmx: bool = False):
    extra = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client.post(reverse("games:move", args=[game.pk]), {"move": raw, "seq": game.last_seq}, **extra)


@pytest.mark.parametrize(
    "raw",
    [
        '{"act":"add","n":NaN}',
        '{"act":"add","n":Infinity}',
        '{"act":"add","n":1e999}',
        '{"act":"add","x":"\\u0000"}',
        '{"act":"add","x":"\\ud800"}',
        "[" * 1900,
        '{"act":"add","x":' + "[" * 30 + "]" * 30 + "}",
    ],
)
@pytest.mark.parametrize("htmx", [False, True])
def test_moves_postgres_or_utf8_cannot_hold_are_400_and_write_nothing(client, game, raw, htmx):
    client.force_login(user_to_move(game))
    response = post_move(client, game, raw, htmx)
    assert response.status_code == HTTPStatus.BAD_REQUEST
    assert Action.objects.filter(game=game).count() == 0


def test_only_canonical_moves_are_stored_and_the_record_cannot_be_forged(client, player, opponent):
    game = make_game(player, opponent, kind="dominion", options={"kingdom": "First Game"})
    client.force_login(user_to_move(game))
    raw = json.dumps({"act": "end_turn", "seq": 424242, "player": 1, "note": "x" * 300})
    assert post_move(client, game, raw).status_code == HTTPStatus.UNPROCESSABLE_ENTITY  # parts end_turn never has
    assert not Action.objects.filter(game=game).exists()
    raw = json.dumps({"act": "end_turn", "player": 1})  # the seat comes from the signed-in user: dropped
    assert post_move(client, game, raw).status_code == HTTPStatus.FOUND
    assert Action.objects.get(game=game).move == {"act": "end_turn"}
    game.refresh_from_db()
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    record = services.game_record(Game.objects.get(pk=game.pk))
    assert record["moves"][0]["seq"] == 1


def test_a_seat_a_bot_took_over_cannot_be_moved_by_its_former_player(client, player, opponent):
    third = UserFactory.create()
    game = make_game(player, opponent, third, kind="dominion", options={"kingdom": "First Game"})
    late = user_to_move(game)
    game.seats.filter(user=late).update(forfeited=True, bot="smart")
    client.force_login(late)
    response = post_move(client, game, '{"act":"end_turn"}')
    assert response.status_code == HTTPStatus.FORBIDDEN
    assert Action.objects.filter(game=game).count() == 0


def test_the_admin_refuses_to_filter_games_by_seed(client, game):
    admin = UserFactory.create(is_staff=True, is_superuser=True)
    client.force_login(admin)
    ok = client.get("/admin/games/game/", {"id": game.pk})
    assert ok.status_code == HTTPStatus.OK
    probe = client.get("/admin/games/game/", {"id": game.pk, "seed__gte": 1})
    # Django answers a disallowed lookup with 400 (DisallowedModelAdminLookup).
    assert probe.status_code == HTTPStatus.BAD_REQUEST
