"""Redis, the site's cache, is killed (or frozen): pages are drawn, people stay signed in, moves save.

Each test starts a ``redis-server`` of its own (on a free port), points the
site's cache at it with the production backend (``FailSoftRedisCache``),
warms it through the site, then kills or freezes that server.
"""

from __future__ import annotations

import logging
import time
from http import HTTPStatus

from django.test import Client
from django.urls import reverse

from games.models import Action, ChatMessage, Game
from tests.conftest import make_game, user_to_move
from tests.factories import PASSWORD
from tests.faults.conftest import count, count_response, use_cache
from website import cache as site_cache


def post_move(client: Client, game: Game) -> int:
    """Post the counter game's move for the seq the page shows; count it; return the status."""
    game.refresh_from_db()
    before = Action.objects.filter(game=game).count()
    response = client.post(
        reverse("games:move", args=[game.pk]), {"move": '{"act": "add", "n": 1}', "seq": game.last_seq}
    )
    count("moves attempted")
    count("moves saved", Action.objects.filter(game=game).count() - before)
    count_response(response.status_code)
    return response.status_code


def get(client: Client, url: str) -> object:
    response = client.get(url)
    count_response(response.status_code)
    return response


def test_with_its_redis_killed_the_site_serves_pages_keeps_sessions_and_saves_moves(
    cache_redis, settings, player, opponent, caplog
):
    use_cache(settings, cache_redis.url(1))
    settings.RATELIMIT_ENABLE = True
    game = make_game(player, opponent)
    mover = user_to_move(game)
    client = Client()
    client.force_login(mover)
    page = reverse("games:detail", args=[game.pk])
    assert get(client, page).status_code == HTTPStatus.OK  # the session and the state are in Redis now

    cache_redis.kill()
    caplog.set_level(logging.WARNING)
    started = time.monotonic()
    response = get(client, page)
    assert response.status_code == HTTPStatus.OK
    assert response.wsgi_request.user == mover, "the session is read from the database"
    assert get(client, reverse("games:lobby")).status_code == HTTPStatus.OK
    assert post_move(client, game) in (HTTPStatus.OK, HTTPStatus.FOUND)
    game.refresh_from_db()
    assert game.last_seq == 1, "the move is saved"
    # Nothing new since the move: 204, drawn without the cached state.
    assert get(client, reverse("games:poll", args=[game.pk]) + "?seq=1").status_code == HTTPStatus.NO_CONTENT
    chat = client.post(reverse("games:chat", args=[game.pk]), {"text": "still here"})
    count_response(chat.status_code)
    assert chat.status_code < HTTPStatus.BAD_REQUEST and ChatMessage.objects.filter(game=game).count() == 1
    assert time.monotonic() - started < 5, "no request waited on the dead Redis"

    # Sign-in fails open (django-axes still counts failures in the database) and is logged.
    other = Client()
    signed_in = other.post(reverse("account_login"), {"login": opponent.username, "password": PASSWORD})
    count_response(signed_in.status_code)
    assert signed_in.status_code == HTTPStatus.FOUND and other.get(page).wsgi_request.user == opponent
    # Sign-up, which emails the address typed, fails closed.
    signup = Client().post(
        reverse("account_signup"),
        {
            "email": "new@example.com",
            "username": "newcomer",
            "password1": "a long pass 1",
            "password2": "a long pass 1",
        },
    )
    count_response(signup.status_code)
    assert signup.status_code == HTTPStatus.TOO_MANY_REQUESTS
    warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert sum("Redis unreachable" in w for w in warnings) == 1, "the outage is logged once"
    assert any("rate limit of account_login not counted" in w and "let through" in w for w in warnings)

    health = Client().get("/health/")
    assert health.status_code == HTTPStatus.SERVICE_UNAVAILABLE
    assert health.json()["status"] == "degraded" and health.json()["checks"]["cache"] == "down"


def test_a_sign_out_while_redis_is_frozen_stays_signed_out_when_it_answers_again(
    cache_redis, settings, player, monkeypatch
):
    """A frozen Redis (SIGSTOP: the kernel accepts, nothing answers) keeps the old session in the cache; the
    delete that failed is done before anything is read once Redis is back, so the old cookie signs nobody in."""
    use_cache(settings, cache_redis.url(1))
    monkeypatch.setattr(site_cache, "RETRY_AFTER", 0.5)
    client = Client()
    client.force_login(player)
    lobby = reverse("games:lobby")
    assert get(client, lobby).wsgi_request.user == player
    old_cookie = client.cookies[settings.SESSION_COOKIE_NAME].value

    cache_redis.freeze()
    started = time.monotonic()
    count_response(client.post(reverse("account_logout")).status_code)
    assert time.monotonic() - started < 3, "a frozen Redis costs a request at most its socket timeout"
    cache_redis.thaw()
    time.sleep(0.6)

    client.cookies[settings.SESSION_COOKIE_NAME] = old_cookie
    assert not get(client, lobby).wsgi_request.user.is_authenticated


def test_a_busy_process_uses_redis_again_soon_after_it_comes_back(cache_redis, settings, monkeypatch):
    """Calls keep coming during and after the outage, faster than the retry window: once Redis is back, the
    next call past the window (opened by the last real failure) reaches it, and the cache works again."""
    use_cache(settings, cache_redis.url(1))
    monkeypatch.setattr(site_cache, "RETRY_AFTER", 0.5)
    from django.core.cache import cache

    cache.set("k", "before", 60)
    assert cache.get("k") == "before"
    cache_redis.kill()
    end = time.monotonic() + 1.5  # three windows of calls every 50 ms while it is down
    while time.monotonic() < end:
        assert cache.get("k", "missing") == "missing"
        time.sleep(0.05)
    cache_redis.start()
    back = time.monotonic()
    while cache.get("k", "missing") != "fresh" and time.monotonic() - back < 3:
        cache.set("k", "fresh", 60)
        time.sleep(0.05)
    assert cache.get("k") == "fresh", "the process never tried Redis again"
    assert time.monotonic() - back < 1.0, "within one retry window (0.5 s) of Redis coming back"
