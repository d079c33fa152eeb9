"""The event stream holds over ASGI: a long poll waits on the live hub and wakes at the event; bad cursors are 400s."""

from __future__ import annotations

import asyncio
import time
from http import HTTPStatus
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.db import connection
from django.test import AsyncClient

from api import stream
from api.tokens import token_create
from games import services
from tests.api.conftest import api_client
from tests.conftest import make_game, user_to_move


@pytest.mark.django_db(transaction=True)
def test_over_asgi_a_long_poll_waits_and_answers_the_moment_a_move_commits(
    player: Any, opponent: Any, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.SERVED_OVER_ASGI = True
    settings.HERALD_API_EVENTS_MAX_WAIT = 25
    game = make_game(player, opponent)
    mover = user_to_move(game)
    _token, raw = token_create(user=player, name="bot", scopes=("read",))
    cursor = stream.latest_id(player)

    def no_polling(seconds: float) -> None:
        raise AssertionError("the wait looked at the database again instead of waiting on the hub")

    monkeypatch.setattr(stream.time, "sleep", no_polling)

    def move() -> None:
        try:
            services.game_submit_move(
                game_id=game.pk, user=mover, move={"act": "add", "n": 1}, expected_seq=game.last_seq
            )
        finally:
            connection.close()  # this thread's: the test database is dropped at the end

    async def run() -> tuple[Any, float, bool]:
        client = AsyncClient()
        started = time.monotonic()
        answer = asyncio.ensure_future(
            client.get("/api/v1/events", {"after": cursor, "wait": 20}, headers={"Authorization": f"Bearer {raw}"})
        )
        await asyncio.sleep(1.5)
        waited = not answer.done()
        await sync_to_async(move, thread_sensitive=False)()
        response = await answer
        return response, time.monotonic() - started, waited

    response, took, waited = async_to_sync(run)()
    assert waited, "with no event yet, the long poll waits"
    assert response.status_code == HTTPStatus.OK, response.content
    assert "move" in [e["kind"] for e in response.json()["events"]]
    assert took < 5


@pytest.mark.django_db
def test_a_cursor_past_the_last_event_is_a_400_not_an_empty_stream_forever(site_test: None, game: Any, player: Any):
    client = api_client(player)
    services.chat_post(game_id=game.pk, user=player, text="hello")
    cursor = client.get("/events").json()["cursor"]
    assert client.get("/events", after=cursor, wait=0).status_code == HTTPStatus.OK
    problem = client.get("/events", after=cursor + 1000, wait=5)
    assert problem.status_code == HTTPStatus.BAD_REQUEST
    assert problem.json()["code"] == "cursor_beyond_end"
