"""A game whose row another request holds locked (PostgreSQL's lock timeout): never a 500.

The move view answers such a request with a 409; every other view that
locks a game row must refuse it as plainly (a message, the page again).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http import HTTPStatus

import pytest
from django.db import connection, connections, transaction
from django.test import Client
from django.urls import reverse

from games import locking, services
from games.models import Game
from tests.conftest import make_game, skip_missing_service
from tests.factories import UserFactory

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("site_test")]


def hold_lock(game_id: int, locked: threading.Event, release: threading.Event) -> None:
    """Hold the game's row lock in another connection (another request) until ``release``."""
    try:
        with transaction.atomic():
            Game.objects.select_for_update().get(pk=game_id)
            locked.set()
            release.wait(10)
    finally:
        connections.close_all()


@contextmanager
def game_busy(game_id: int) -> Iterator[None]:
    """While inside, another thread (another request) holds the game's row lock."""
    locked, release = threading.Event(), threading.Event()
    holder = threading.Thread(target=hold_lock, args=(game_id, locked, release))
    holder.start()
    try:
        assert locked.wait(5)
        yield
    finally:
        release.set()
        holder.join()


def running_game_and_its_mover(monkeypatch) -> tuple[Game, Client]:
    """A running game and a client signed in as its player to move, with a short lock timeout (PostgreSQL only)."""
    if connection.vendor != "postgresql":
        skip_missing_service("PostgreSQL (set DATABASE_URL): SQLite has no row locks")
    monkeypatch.setattr(locking, "LOCK_TIMEOUT_MS", 200)
    from tests.conftest import user_to_move

    game = make_game(UserFactory.create(), UserFactory.create())
    client = Client(raise_request_exception=False)
    client.force_login(user_to_move(game))
    return game, client


@pytest.mark.parametrize(
    ("name", "data", "make"),
    [
        ("resign", {"confirm": "1"}, "running"),
        ("join", {}, "open"),
        ("leave", {}, "open"),
        ("cancel", {}, "open"),
    ],
)
def test_a_busy_game_refuses_resign_join_leave_and_cancel_without_a_500(monkeypatch, name, data, make):
    if connection.vendor != "postgresql":
        skip_missing_service("PostgreSQL (set DATABASE_URL): SQLite has no row locks")
    monkeypatch.setattr(locking, "LOCK_TIMEOUT_MS", 200)
    creator, other = UserFactory.create(), UserFactory.create()
    if make == "running":
        game, actor = make_game(creator, other), other
    else:
        game = services.game_create(
            creator=creator,
            kind="counter",
            options={},
            players=3,
            rated=False,
            private=False,
            time_per_move=services.TIME_CONTROLS[3],
        )
        if name == "leave":
            services.game_join(game_id=game.pk, user=other)
        actor = creator if name == "cancel" else other
    client = Client(raise_request_exception=False)
    client.force_login(actor)
    with game_busy(game.pk):
        response = client.post(reverse(f"games:{name}", args=[game.pk]), data)
    assert response.status_code != HTTPStatus.INTERNAL_SERVER_ERROR
    game.refresh_from_db()
    assert game.status == (Game.Status.ACTIVE if make == "running" else Game.Status.OPEN)


def test_a_busy_game_refuses_a_vacation_without_a_500(monkeypatch):
    """Starting a vacation locks each game whose clock it pushes back."""
    game, client = running_game_and_its_mover(monkeypatch)
    with game_busy(game.pk):
        response = client.post(reverse("correspondence:vacation_start"), {"days": 1})
    assert response.status_code != HTTPStatus.INTERNAL_SERVER_ERROR


def test_a_move_in_a_busy_game_is_a_409_that_says_to_try_again(monkeypatch):
    """The move view answers 409; its message is for the player ('Please try again.', translated), not the
    lock's own text ('game 5 is busy')."""
    game, client = running_game_and_its_mover(monkeypatch)
    with game_busy(game.pk):
        response = client.post(
            reverse("games:move", args=[game.pk]), {"move": '{"act": "add", "n": 1}', "seq": 0}, HTTP_HX_REQUEST="true"
        )
    assert response.status_code == HTTPStatus.CONFLICT
    body = response.content.decode()
    assert "Please try again." in body and "is busy" not in body
