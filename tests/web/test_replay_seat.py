"""The replay's ``seat`` is numbered as the page numbers seats: 1, 2, ... (0, from old links, is seat 1)."""

from __future__ import annotations

import re
from http import HTTPStatus

import pytest
from django.urls import reverse

from games import services
from games.models import Game
from tests.conftest import make_game, seated

pytestmark = pytest.mark.usefixtures("site_test")


def finished_counter(player, opponent) -> Game:
    game = make_game(player, opponent)
    while game.status == Game.Status.ACTIVE:
        mover = seated(game.seats.get(position=game.to_act[0]))
        total = services.state_at(game).total
        services.game_submit_move(
            game_id=game.pk, user=mover, move={"act": "add", "n": min(3, 10 - total)}, expected_seq=game.last_seq
        )
        game.refresh_from_db()
    return game


def replay(client, game, query: str):
    return client.get(reverse("games:replay", args=[game.pk]) + query)


def seen_from(response) -> tuple[str, str]:
    """The "Seen from" choice that is selected: (its value, the name shown)."""
    select = response.content.decode().split('id="replay-seat"', 1)[1].split("</select>", 1)[0]
    found = re.search(r'<option value="([^"]*)" selected>([^<]*)</option>', select)
    assert found is not None, "no seat is selected"
    value, name = found.groups()
    return value, name


@pytest.fixture
def finished(player, opponent):
    return finished_counter(player, opponent)


def test_seat_1_is_the_first_seat_and_seat_2_the_second(client, finished, outsider):
    names = {s.position: str(s.name) for s in finished.seats.all()}
    client.force_login(outsider)
    assert seen_from(replay(client, finished, "?step=1&seat=1")) == ("1", names[0])
    assert seen_from(replay(client, finished, "?step=1&seat=2")) == ("2", names[1])
    # The page's own links and choices carry the same numbers.
    page = replay(client, finished, "?step=1&seat=2").content.decode()
    assert "?step=2&amp;seat=2" in page and "?step=0&amp;seat=2" in page
    select = page.split('id="replay-seat"', 1)[1].split("</select>", 1)[0]
    assert re.findall(r'<option value="(\d+)"', select) == ["1", "2"]


def test_an_old_link_with_seat_0_shows_seat_1(client, finished, outsider):
    client.force_login(outsider)
    response = replay(client, finished, "?step=1&seat=0")
    assert response.status_code == HTTPStatus.OK
    assert seen_from(response)[0] == "1"


def test_without_a_seat_a_player_sees_through_their_own_eyes(client, finished, opponent):
    client.force_login(opponent)
    mine = finished.seats.get(user=opponent).position
    assert seen_from(replay(client, finished, "?step=1")) == (str(mine + 1), opponent.shown_name)


@pytest.mark.parametrize("seat", ["3", "-1", "99999999999999999999", ""])
def test_a_seat_number_out_of_range_falls_back_to_the_readers_seat(client, finished, player, seat):
    client.force_login(player)
    mine = finished.seats.get(user=player).position
    response = replay(client, finished, f"?step=1&seat={seat}")
    assert response.status_code == HTTPStatus.OK
    assert seen_from(response)[0] == str(mine + 1)


@pytest.mark.parametrize("seat", ["x", "1.5", "1e3", "9" * 5000, "%00"])
def test_a_seat_that_is_no_number_is_a_bad_request_not_an_error(client, finished, player, seat):
    client.force_login(player)
    response = replay(client, finished, f"?step=1&seat={seat}")
    assert response.status_code == HTTPStatus.BAD_REQUEST
    assert "Step and seat must be numbers." in response.content.decode()
