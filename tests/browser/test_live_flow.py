"""Pushed moves in a browser: the other player's page and lobby update at once, with no poll request.

The site is served over ASGI (tests/asgi_server.py), as `make run` serves it:
pytest-django's WSGI live server has no push, and its pages poll.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from tests.asgi_server import Site, asgi_server
from tests.browser.test_flows import sign_in
from tests.conftest import make_game, user_to_move, user_waiting
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def site() -> Iterator[Site]:
    with asgi_server() as served:
        yield served


def connected(page) -> None:
    """Wait until the page's stream is open (live.js); the site's CSP allows no polling eval, so ask in a loop."""
    deadline = time.monotonic() + 10
    while not page.evaluate("Boolean(window.heraldLive && window.heraldLive.connected())"):
        assert time.monotonic() < deadline, "the page's stream did not open"
        page.wait_for_timeout(100)


def test_a_move_shows_on_the_other_players_page_within_a_second_and_their_lobby_follows(browser, site):
    game = make_game(UserFactory(), UserFactory())
    mover, waiter = user_to_move(game), user_waiting(game)
    url = f"{site.url}/games/{game.pk}/"

    a_context = browser.new_context()
    a = a_context.new_page()
    sign_in(a, site, mover.username)
    a.goto(url)
    b_context = browser.new_context()
    b = b_context.new_page()
    sign_in(b, site, waiter.username)
    b.goto(url)
    lobby = b_context.new_page()
    lobby.goto(f"{site.url}/")
    for page in (a, b, lobby):
        connected(page)
    assert "No game is waiting for you." in lobby.locator("#lobby-lists").inner_text()
    assert "Your move." not in b.locator("#game-status").inner_text()

    polls: list[str] = []
    b.on("request", lambda r: polls.append(r.url) if "/poll" in r.url else None)
    with a.expect_response(lambda r: f"/games/{game.pk}/move" in r.url):
        a.get_by_role("button", name="add 1", exact=True).click()
    answered = time.monotonic()
    b.locator("#game-status", has_text="Your move.").wait_for(timeout=1_000)
    assert time.monotonic() - answered < 1.0
    assert polls == [], "the page was told, it did not ask"
    # The lobby is told to look again (a second at most, spread over the lobbies that heard it).
    expect(lobby.locator("#lobby-lists")).not_to_contain_text("No game is waiting for you.", timeout=5_000)
    assert lobby.locator(f"#lobby-lists a[href='/games/{game.pk}/']").count() >= 1

    # B answers from the pushed page: its forms carry B's own CSRF token (the push carried none).
    b.get_by_role("button", name="add 1", exact=True).click()
    a.locator("#game-status", has_text="Your move.").wait_for(timeout=5_000)
    assert polls == []
    a_context.close()
    b_context.close()
