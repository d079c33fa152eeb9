"""Domaine on the site: creating a game, the board page, building moves, hidden information."""

from __future__ import annotations

import json
from http import HTTPStatus

import pytest
from django.urls import reverse

from games import services
from games.engine.registry import get_engine
from games.models import Game
from tests.conftest import make_game, user_to_move, user_waiting
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


def url(name: str, game: Game | None = None) -> str:
    return reverse(f"games:{name}", kwargs={"game_id": game.pk} if game else None)


def create_form(**over: str) -> dict[str, str]:
    data = {
        "players": "2",
        "time_per_move": str(3600 * 12),
        "rated": "casual",
        "visibility": "open",
        "invited": "",
        "seat_2": "",
        "seat_3": "",
        "seat_4": "",
    }
    data.update(over)
    return data


# ---------------------------------------------------------------------------
# Creating


def test_the_new_game_page_offers_domaine_with_its_bots(client, player):
    client.force_login(player)
    response = client.get(url("new") + "?kind=domaine")
    assert response.status_code == HTTPStatus.OK
    html = response.content.decode()
    assert "New Domaine game" in html
    assert 'value="greedy"' in html and 'value="random"' in html
    assert 'value="big_money"' not in html
    assert "kingdom" not in html


def test_create_a_domaine_game_through_the_form(client, player):
    client.force_login(player)
    response = client.post(
        url("new") + "?kind=domaine", create_form(players="3", rated="rated", visibility="invite", invited="bob")
    )
    assert response.status_code == HTTPStatus.BAD_REQUEST  # no such player
    UserFactory(username="bob")
    response = client.post(
        url("new") + "?kind=domaine", create_form(players="3", rated="rated", visibility="invite", invited="bob")
    )
    game = Game.objects.get()
    assert response.status_code == HTTPStatus.FOUND
    assert (game.kind, game.max_players, game.rated, game.private, game.options) == ("domaine", 3, True, True, {})
    assert game.time_per_move.total_seconds() == 12 * 3600
    assert list(game.invitations.values_list("user__username", flat=True)) == ["bob"]


def test_create_a_domaine_game_against_a_bot_starts_it(client, player):
    client.force_login(player)
    client.post(url("new") + "?kind=domaine", create_form(seat_2="greedy"))
    game = Game.objects.get()
    assert game.kind == "domaine"
    assert game.status == Game.Status.ACTIVE
    assert list(game.seats.order_by("position").values_list("bot", flat=True)).count("greedy") == 1
    assert client.get(url("detail", game)).status_code == HTTPStatus.OK


def test_a_rated_domaine_game_with_bots_is_refused(client, player):
    client.force_login(player)
    response = client.post(url("new") + "?kind=domaine", create_form(seat_2="random", rated="rated"))
    assert response.status_code == HTTPStatus.BAD_REQUEST
    assert not Game.objects.exists()


def test_an_unknown_kind_is_404(client, player):
    client.force_login(player)
    assert client.get(url("new") + "?kind=chess").status_code == HTTPStatus.NOT_FOUND
