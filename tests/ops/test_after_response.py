"""Work a request defers (a move's emails, its bot turn) runs once the answer has been sent, and is never lost.

The move is served through Django's WSGI handler as gunicorn serves it:
the body is read first, then the server closes the response.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any

import pytest
from django.core.handlers.wsgi import WSGIHandler
from django.test import Client, RequestFactory
from django.urls import reverse
from pytest_django import Settings

from correspondence.models import Notification
from games.models import Game
from ops.after_response import after_response
from tests.conftest import make_game, user_to_move

pytestmark = pytest.mark.django_db(transaction=True)

CSRF = "testcsrfsecrettestcsrfsecrettest"  # any 32 letters: the cookie and the header must agree


@pytest.fixture
def queued(monkeypatch: pytest.MonkeyPatch, settings: Settings) -> list[tuple[str, tuple]]:
    """Tasks handed to the broker, in order (with a broker, as in production; none runs here)."""
    settings.CELERY_TASK_ALWAYS_EAGER = False
    sent: list[tuple[str, tuple]] = []

    def enqueue(task, *args, countdown: float = 0) -> bool:
        sent.append((task.name, args))
        return True

    monkeypatch.setattr("ops.queue.enqueue", enqueue)
    return sent


def served_move(game: Game, n: int):
    """Post a move for the player to move, through the WSGI handler; return the unclosed response."""
    client = Client()
    client.force_login(user_to_move(game))
    body = {"move": json.dumps({"act": "add", "n": n}), "seq": str(game.last_seq)}
    environ = (
        RequestFactory()
        .post(
            reverse("games:move", kwargs={"game_id": game.pk}),
            body,
            HTTP_COOKIE=f"sessionid={client.cookies['sessionid'].value}; csrftoken={CSRF}",
            HTTP_X_CSRFTOKEN=CSRF,
            HTTP_HX_REQUEST="true",
        )
        .environ
    )
    statuses: list[str] = []

    def start_response(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Callable[[bytes], object]:
        statuses.append(status)
        return lambda data: None  # the write() callable; Django never calls it

    response = WSGIHandler()(environ, start_response)
    return statuses[0], b"".join(response), response


def test_a_moves_your_move_email_is_queued_only_once_its_answer_has_been_sent(player, opponent, queued):
    game = make_game(player, opponent)
    waiting = game.seats.exclude(position=game.to_act[0]).get().user
    queued.clear()  # the "game started" emails, queued when it started
    status, body, response = served_move(game, 2)
    assert status.startswith("200")
    assert b'id="game-live"' in body
    # The move is committed and its email owed before the answer is sent ...
    game.refresh_from_db()
    assert game.last_seq == 1
    owed = Notification.objects.get(user=waiting, kind=Notification.Kind.YOUR_MOVE)
    assert queued == []
    # ... and handed to the broker when the server closes the response.
    response.close()
    assert queued == [("correspondence.tasks.send_notification", (owed.pk,))]


def test_a_bots_turn_is_queued_once_the_answer_to_the_move_before_it_has_been_sent(player, queued):
    from games import autoplay, services

    game = services.game_create(
        creator=player,
        kind="counter",
        options={"target": 10},
        players=2,
        rated=False,
        private=False,
        time_per_move=services.TIME_CONTROLS[0],
        bots=["first"],
    )
    game.refresh_from_db()
    if game.seats.get(position=game.to_act[0]).bot:
        # The seats are shuffled at the start: when the bot sits first, it moves first (its task is not run here).
        autoplay.game_bot_moves(game_id=game.pk)
        game.refresh_from_db()
    queued.clear()  # what starting the game queued
    _status, _body, response = served_move(game, 1)
    assert not any(name == "games.tasks.bot_moves" for name, _args in queued)
    response.close()
    assert ("games.tasks.bot_moves", (game.pk,)) in queued


def test_a_new_position_is_cached_before_the_answer_is_sent(player, opponent, queued, django_assert_num_queries):
    """The other player's next poll must find the position in the cache, not replay the log."""
    from games import services

    game = make_game(player, opponent)
    _status, _body, response = served_move(game, 3)
    game.refresh_from_db()
    with django_assert_num_queries(0):
        assert services.state_at(game) is not None
    response.close()


def test_deferred_work_runs_at_once_outside_a_request():
    ran: list[int] = []
    after_response(lambda: ran.append(1))
    assert ran == [1]


def test_one_failing_piece_of_deferred_work_is_logged_and_the_rest_still_runs(rf, caplog):
    from ops.after_response import middleware

    ran: list[str] = []

    def view(request):
        from django.http import HttpResponse

        after_response(lambda: 1 / 0)
        after_response(lambda: ran.append("second"))
        return HttpResponse(b"done")

    response = middleware(view)(rf.get("/"))
    assert ran == []
    with caplog.at_level(logging.ERROR, logger="ops.after_response"):
        response.close()
    assert ran == ["second"]
    assert "ZeroDivisionError" in caplog.text


def test_work_deferred_by_a_view_that_raises_runs_before_the_error_goes_on(rf):
    from ops.after_response import middleware

    ran: list[str] = []

    def view(request):
        after_response(lambda: ran.append("fan-out"))
        raise RuntimeError("rendering failed after the commit")

    with pytest.raises(RuntimeError):
        middleware(view)(rf.get("/"))
    assert ran == ["fan-out"]


def test_work_deferred_by_a_view_served_over_asgi_runs_before_the_answer_leaves():
    """An ASGI server never closes the response of a client that left while the view ran (Django's
    ASGIHandler drops it), so a move made by a player who then closed the tab would never queue its
    emails or the bot's turn: over ASGI the work runs at once, as it did before it was deferred."""
    from django.http import HttpResponse
    from django.test import AsyncRequestFactory

    from ops.after_response import middleware

    ran: list[str] = []

    def view(request):
        after_response(lambda: ran.append("fan-out"))
        return HttpResponse(b"done")

    middleware(view)(AsyncRequestFactory().post("/games/1/move"))
    assert ran == ["fan-out"]


def test_a_sweep_run_from_a_page_queues_a_late_bot_seats_moves_once_and_makes_none_itself(player, queued, settings):
    """Without beat a page request runs the sweep. A late bot seat (its worker behind or down) gets its moves
    queued again, once, for the bots' own queue; the sweep, which runs beside mail and clocks, never thinks for
    a bot itself (docs/bots.md)."""
    from datetime import timedelta

    from django.utils import timezone

    from games import services
    from games.models import Seat

    settings.HERALD_SWEEP_ON_REQUEST = True
    while True:  # the seats are shuffled: the person first, then the two bots back to back
        game = services.game_create(
            creator=player,
            kind="counter",
            options={"target": 30},
            players=3,
            rated=False,
            private=False,
            time_per_move=services.TIME_CONTROLS[0],
            bots=["first", "first"],
        )
        if game.seats.get(position=0).user_id == player.pk:
            break
    services.game_submit_move(game_id=game.pk, user=player, move={"act": "add", "n": 1}, expected_seq=0)
    Seat.objects.filter(game=game, deadline__isnull=False).update(deadline=timezone.now() - timedelta(seconds=1))
    queued.clear()
    client = Client()
    client.force_login(player)
    client.get(reverse("games:lobby"))
    game.refresh_from_db()
    assert game.last_seq == 1 and game.to_act != [0]  # no bot moved inside the request
    assert [args for name, args in queued if name == "games.tasks.bot_moves"] == [(game.pk,)]


def test_the_connection_the_deferred_work_took_is_put_away_as_the_request_put_away_its_own(
    player, opponent, queued, settings
):
    """With CONN_MAX_AGE 0 (or a pool) a connection is held only while a request uses it; the fan-out after
    the answer must not leave one checked out, idle, until the worker's next request."""
    from django.db import connection

    from tests.conftest import skip_missing_service

    if connection.vendor != "postgresql":
        skip_missing_service("PostgreSQL (set DATABASE_URL): Django never closes SQLite's in-memory test database")
    assert connection.settings_dict["CONN_MAX_AGE"] == 0
    game = make_game(player, opponent)
    _status, _body, response = served_move(game, 2)
    response.close()
    assert queued  # the deferred work did read the outbox ...
    assert connection.connection is None  # ... and its connection was closed again
