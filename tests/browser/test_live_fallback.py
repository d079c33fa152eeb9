"""The push stream fails under an open page in a browser: the page learns of moves by polling, then uses the
stream again by itself once it is back (issue 28, "fall back to polling ... then recover by themselves").

The live channel rides a ``redis-server`` of the test's own (a port the kernel chose, started and killed by
the test: never the shared Redis); the site is served over ASGI (tests/asgi_server.py) in this process, so
the settings below reach it. Killing that Redis is what a failed push looks like to a page: its stream
says "down" and ends, and new streams are refused (503) until the server's hub subscribes again.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.asgi_server import Site, asgi_server
from tests.browser.test_flows import sign_in
from tests.browser.test_live_equals_reload import GAME_REGIONS, same_as_reload
from tests.browser.test_live_flow import connected
from tests.conftest import make_game, user_waiting
from tests.factories import UserFactory
from tests.faults.conftest import RedisServer, _redis_server
from tests.faults.test_live_redis_down import move

pytestmark = pytest.mark.django_db(transaction=True)

#: The page polls every 5 s while it has no stream; a loaded machine may add a render and a swap.
POLL_WAIT_MS = 15_000
#: The page tries its stream again after 1 s, then 2, 4, 8 ... (at most 30 s between tries).
RECONNECT_WAIT_MS = 60_000


@pytest.fixture
def live_redis(settings: Any) -> Iterator[RedisServer]:
    """A Redis of the test's own carrying the live channel (not the shared server)."""
    for server in _redis_server():
        settings.HERALD_LIVE_REDIS_URL = server.url()
        settings.HERALD_LIVE_CHANNEL = "herald:live:browser-fault-test"
        yield server


@pytest.fixture
def site(live_redis: RedisServer) -> Iterator[Site]:
    with asgi_server() as served:
        yield served


def shows(page, seq: int, timeout: float) -> None:
    """Wait until the game page's live region is drawn at ``seq`` (its poll address carries it)."""
    expect(page.locator("#game-live")).to_have_attribute("hx-get", re.compile(rf"[?&]seq={seq}&"), timeout=timeout)


def disconnected(page, timeout: float = 10) -> None:
    """Wait until the page's stream is closed (live.js fell back to polling)."""
    deadline = time.monotonic() + timeout
    while page.evaluate("Boolean(window.heraldLive && window.heraldLive.connected())"):
        assert time.monotonic() < deadline, "the page kept its stream"
        page.wait_for_timeout(100)


def test_the_page_polls_while_the_push_is_down_and_uses_it_again_once_it_is_back(browser, live_redis, site):
    game = make_game(UserFactory(), UserFactory())
    watcher = user_waiting(game)
    context = browser.new_context()
    page = context.new_page()
    sign_in(page, site, watcher.username)
    page.goto(f"{site.url}/games/{game.pk}/")
    connected(page)
    polls: list[str] = []
    page.on("request", lambda r: polls.append(r.url) if "/poll" in r.url else None)

    # Pushed, through the test's Redis: no poll.
    assert move(game) == 1
    shows(page, 1, timeout=5_000)
    assert polls == []

    live_redis.kill()
    disconnected(page)
    # A move still applies at once, and the page learns of it by polling.
    started = time.monotonic()
    assert move(game) == 2
    assert time.monotonic() - started < 2
    shows(page, 2, timeout=POLL_WAIT_MS)
    assert any(f"/games/{game.pk}/poll" in url for url in polls), "the page polled"

    # The push is back: the page opens its stream again by itself, and the next move is pushed, not polled.
    live_redis.start()
    deadline = time.monotonic() + RECONNECT_WAIT_MS / 1000
    while not page.evaluate("Boolean(window.heraldLive && window.heraldLive.connected())"):
        assert time.monotonic() < deadline, "the page did not use the stream again"
        page.wait_for_timeout(250)
    polls.clear()
    assert move(game) == 3
    shows(page, 3, timeout=5_000)
    assert polls == [], "the page was told, it did not ask"
    # Nothing was lost: the page shows what a fresh load shows (every move in the log, whose move it is).
    same_as_reload(page, [r for r in GAME_REGIONS if r != "messages"])
    context.close()
