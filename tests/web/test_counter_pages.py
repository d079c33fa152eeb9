"""The counter game, a plug-in installed from its folder alone (``tests/counter``), is created on the
new-game page with its own option, found and joined from the lobby, and played to the end through the
pages' forms, as Dominion and Domaine are: the new-game page and the lobby name no game themselves."""

from __future__ import annotations

import json
import re
from html import unescape
from http import HTTPStatus

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game
from tests.conftest import user_to_move
from tests.web.forms import new_game_fields

pytestmark = pytest.mark.django_db


def new_game_form(**over: str) -> dict[str, str]:
    """The new-game form for counter: the shared fields and its target."""
    return new_game_fields(**{"target": "5", **over})


def test_the_new_game_page_offers_counter_with_its_own_option_and_bot(client, player):
    client.force_login(player)
    dominion = client.get(reverse("games:new")).content.decode()
    assert f'href="{reverse("games:new")}?kind=counter"' in dominion and "Play Counter instead" in dominion
    response = client.get(reverse("games:new") + "?kind=counter")
    assert response.status_code == HTTPStatus.OK
    html = response.content.decode()
    assert "New Counter game" in html
    assert 'name="target"' in html and 'value="10"' in html  # its own field, the engine's default
    assert 'value="level1"' in html and 'value="first"' not in html  # its levels, not its bots' own names
    assert 'name="kingdom"' not in html and 'value="smart"' not in html
    assert "Play Dominion instead" in html and "Play Domaine instead" in html
    assert f'action="{reverse("games:new")}?kind=counter"' in html


def test_a_counter_option_out_of_range_is_refused_on_the_form(client, player):
    client.force_login(player)
    response = client.post(reverse("games:new") + "?kind=counter", new_game_form(target="2"))
    assert response.status_code == HTTPStatus.BAD_REQUEST
    assert not Game.objects.exists()


def test_an_unknown_game_on_the_new_game_page_is_404(client, player):
    client.force_login(player)
    assert client.get(reverse("games:new") + "?kind=chess").status_code == HTTPStatus.NOT_FOUND
    response = client.post(reverse("games:new") + "?kind=chess", new_game_form())
    assert response.status_code == HTTPStatus.NOT_FOUND
    assert not Game.objects.exists()


def test_a_counter_game_made_on_the_new_game_page_is_joined_from_the_lobby_and_played_to_the_end(
    client, player, opponent
):
    client.force_login(player)
    response = client.post(reverse("games:new") + "?kind=counter", new_game_form())
    game = Game.objects.get()
    assert response.status_code == HTTPStatus.FOUND and response["Location"] == game.get_absolute_url()
    assert (game.kind, game.options, game.status) == ("counter", {"target": 5}, Game.Status.OPEN)

    # The other player finds it among the lobby's open games and takes the seat.
    other = Client()
    other.force_login(opponent)
    lobby = other.get(reverse("games:lobby")).content.decode()
    open_games = lobby.split('id="h-open"', 1)[1].split("</section>", 1)[0]
    assert game.get_absolute_url() in open_games
    response = other.post(reverse("games:join", kwargs={"game_id": game.pk}))
    assert response.status_code == HTTPStatus.FOUND
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE

    # Each in turn presses one of the buttons its page offers until the total reaches the target.
    clients = {player.pk: client, opponent.pk: other}
    for _ in range(10):
        game.refresh_from_db()
        if not game.is_active:
            break
        mover = clients[user_to_move(game).pk]
        page = mover.get(game.get_absolute_url()).content.decode()
        buttons = [
            json.loads(unescape(v)) for v in re.findall(r'<button type="submit" name="move" value="([^"]+)"', page)
        ]
        assert buttons, "the player to move sees their moves"
        move = max(buttons, key=lambda m: m["n"])  # add as much as the page allows
        response = mover.post(
            reverse("games:move", kwargs={"game_id": game.pk}), {"move": json.dumps(move), "seq": game.last_seq}
        )
        assert response.status_code in (HTTPStatus.OK, HTTPStatus.FOUND)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    # 3 + 2 = 5: whoever moved second reached the target and won.
    last = game.actions.order_by("seq").last()
    assert game.actions.count() == 2
    assert game.seats.get(rank=1).position == last.seat
    assert "Counter" in client.get(game.get_absolute_url()).content.decode()


def test_the_lobby_names_every_installed_game_to_a_visitor(client):
    html = client.get(reverse("games:lobby")).content.decode()
    assert "Herald is a place to play Dominion, Domaine and Counter by correspondence" in html
    zh = client.get(reverse("games:lobby"), HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "Herald 是以通信方式玩皇舆争霸、领域和Counter的地方" in zh
