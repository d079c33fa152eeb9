"""Sign-in, sign-up, moves and chat past their limits answer 429 with a clear message."""

from __future__ import annotations

from http import HTTPStatus

import pytest
from pytest_django import Settings

from tests.conftest import make_game, user_to_move

pytestmark = pytest.mark.django_db


@pytest.fixture
def limits(settings: Settings) -> object:
    """Rate limits on (they are off by default under tests), tight enough to reach quickly."""
    settings.RATELIMIT_ENABLE = True
    settings.HERALD_RATE_LIMITS = {
        "account_login": ("ip", "3/m"),
        "account_signup": ("ip", "2/h"),
        "games:move": ("user_or_ip", "2/m"),
    }
    return settings


def test_sign_in_past_the_limit_is_refused_with_429(client, limits, player):
    for _ in range(3):
        response = client.post("/accounts/login/", {"login": "nobody", "password": "wrong"})
        assert response.status_code != HTTPStatus.TOO_MANY_REQUESTS
    response = client.post("/accounts/login/", {"login": player.username, "password": "whatever"})
    assert response.status_code == HTTPStatus.TOO_MANY_REQUESTS
    assert b"Too many sign-in attempts" in response.content
    assert 0 < int(response["Retry-After"]) <= 60
    # Reading the page is never limited.
    assert client.get("/accounts/login/").status_code == HTTPStatus.OK


def test_sign_up_past_the_limit_is_refused_with_429(client, limits):
    for i in range(2):
        client.post(
            "/accounts/signup/",
            {
                "username": f"new{i}",
                "email": f"new{i}@example.com",
                "password1": "a long pass phrase 1",
                "password2": "a long pass phrase 1",
            },
        )
    response = client.post("/accounts/signup/", {"username": "new9"})
    assert response.status_code == HTTPStatus.TOO_MANY_REQUESTS
    assert b"Too many new accounts" in response.content


def test_moves_past_the_limit_are_refused_with_429_and_the_board_is_left_alone(client, limits, player, opponent):
    game = make_game(player, opponent)
    client.force_login(user_to_move(game))
    for _ in range(2):
        # Stale seq: refused by the game (409), but each still counts against the limit.
        response = client.post(f"/games/{game.pk}/move", {"act": "add", "seq": 99}, HTTP_HX_REQUEST="true")
        assert response.status_code == HTTPStatus.CONFLICT
    response = client.post(f"/games/{game.pk}/move", {"act": "add", "seq": 0}, HTTP_HX_REQUEST="true")
    assert response.status_code == HTTPStatus.TOO_MANY_REQUESTS
    assert response["HX-Retarget"] == "#main"
    assert response["HX-Reswap"] == "afterbegin"
    assert b"faster than the site accepts" in response.content
    assert b'role="alert"' in response.content
    # Without htmx: a whole page with the message.
    response = client.post(f"/games/{game.pk}/move", {"act": "add", "seq": 0})
    assert response.status_code == HTTPStatus.TOO_MANY_REQUESTS
    assert b"<h1>Too many requests</h1>" in response.content
    game.refresh_from_db()
    assert game.last_seq == 0


def test_the_move_limit_is_per_user(client, limits, player, opponent, outsider):
    game = make_game(player, opponent)
    client.force_login(outsider)
    for _ in range(3):
        client.post(f"/games/{game.pk}/move", {"act": "add", "seq": 0})
    client.force_login(user_to_move(game))
    response = client.post(
        f"/games/{game.pk}/move", {"move": '{"act": "add", "n": 1}', "seq": 0}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == HTTPStatus.OK


def test_chat_past_its_limit_is_refused_with_429(client, settings, player, opponent):
    settings.CHAT_RATE_LIMIT = 1
    game = make_game(player, opponent)
    client.force_login(player)
    assert client.post(f"/games/{game.pk}/chat", {"text": "hi"}, HTTP_HX_REQUEST="true").status_code == HTTPStatus.OK
    response = client.post(f"/games/{game.pk}/chat", {"text": "hi again"}, HTTP_HX_REQUEST="true")
    assert response.status_code == HTTPStatus.TOO_MANY_REQUESTS
    assert b"too quickly" in response.content


def test_limits_are_off_when_disabled(client, limits, player, opponent):
    limits.RATELIMIT_ENABLE = False
    for i in range(5):
        # A different login each time, so django-axes (per login and address) does not step in.
        assert client.post("/accounts/login/", {"login": f"nobody{i}", "password": "x"}).status_code != 429
