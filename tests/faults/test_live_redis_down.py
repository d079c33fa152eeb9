"""The Redis that carries pushed moves dies under open pages: moves still apply, pages poll, and recover.

A ``redis-server`` of the test's own (a port chosen now) carries the live
channel; the site is served over ASGI by uvicorn in a thread
(tests/asgi_server.py) and read by plain HTTP clients, as a page's
EventSource would.
"""

from __future__ import annotations

import http.client
import json
import time
from collections.abc import Iterator
from http import HTTPStatus
from typing import Any

import pytest
from django.test import Client

from games import services
from games.models import Game
from games.views.live import live_cursor
from tests.asgi_server import asgi_server
from tests.conftest import make_game, user_to_move
from tests.faults.conftest import _redis_server


class Stream:
    """One open ``/games/<id>/live`` stream, read event by event."""

    def __init__(self, port: int, game: Game, seq: int, cursor: str) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        self.conn.request("GET", f"/games/{game.pk}/live?seq={seq}&v={cursor}")
        self.response = self.conn.getresponse()
        self.status = self.response.status

    def next_event(self) -> tuple[str, Any]:
        """The next event's name and data (keep-alive comments skipped); ("", None) when the stream ended."""
        fields: dict[str, str] = {}
        while True:
            line = self.response.readline().decode()
            if not line:
                return "", None
            line = line.rstrip("\n")
            if not line:
                if "event" in fields:
                    return fields["event"], json.loads(fields.get("data", "null"))
                fields = {}
                continue
            if ": " in line and not line.startswith(":"):
                name, value = line.split(": ", 1)
                fields[name] = value

    def close(self) -> None:
        self.conn.close()


@pytest.fixture
def live_redis(settings: Any) -> Iterator[Any]:
    """A Redis of the test's own carrying the live channel (not the shared server)."""
    for server in _redis_server():
        settings.HERALD_LIVE_REDIS_URL = server.url()
        settings.HERALD_LIVE_CHANNEL = "herald:live:fault-test"
        yield server


def move(game: Game) -> int:
    """Make the next move through the services (as any page or bot would); return the new seq."""
    game.refresh_from_db()
    services.game_submit_move(
        game_id=game.pk, user=user_to_move(game), move={"act": "add", "n": 1}, expected_seq=game.last_seq
    )
    game.refresh_from_db()
    return game.last_seq


def test_redis_killed_under_open_pages_moves_apply_pages_poll_and_recover(live_redis, player, opponent):
    game = make_game(player, opponent)
    with asgi_server() as site:
        stream = Stream(site.port, game, game.last_seq, live_cursor(game))
        assert stream.status == HTTPStatus.OK
        assert move(game) == 1
        name, data = stream.next_event()
        assert (name, data["seq"]) == ("live", 1)

        live_redis.kill()
        # The stream says the push is gone and ends: the page polls from now on.
        assert stream.next_event()[0] == "down"
        assert stream.next_event() == ("", None)
        refused = Stream(site.port, game, 1, live_cursor(game))
        assert refused.status == HTTPStatus.SERVICE_UNAVAILABLE
        refused.close()

        # Moves still apply, at once, and the page's poll shows them.
        started = time.monotonic()
        assert move(game) == 2
        assert time.monotonic() - started < 2
        polled = Client().get(f"/games/{game.pk}/poll?seq=1")
        assert polled.status_code == HTTPStatus.OK and "seq=2" in polled.content.decode()

        live_redis.start()
        # The page connects again (as live.js does, with what it shows): it gets what it missed at once...
        deadline = time.monotonic() + 10
        again = Stream(site.port, game, 1, "stale")
        while again.status != HTTPStatus.OK and time.monotonic() < deadline:
            again.close()
            time.sleep(0.5)
            again = Stream(site.port, game, 1, "stale")
        assert again.status == HTTPStatus.OK
        name, data = again.next_event()
        assert (name, data["seq"]) == ("live", 2)
        # ...and the next move is pushed again.
        assert move(game) == 3
        name, data = again.next_event()
        assert (name, data["seq"]) == ("live", 3)
        again.close()
