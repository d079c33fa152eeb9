"""Presence in a browser (issue 28, part 5): each player sees the other "here now" while both have the game
open, the mark clears within the promised time once the other closes the page, and the "your move" email
waits while its player has the page open (kept present by the stream alone: a pushed page makes no poll).

The site is served over ASGI (tests/asgi_server.py), as `make run` serves it. The presence TTL and the
stream's heartbeat are shortened (the production defaults are 20 s and 10 s; the heartbeat stays well below
the TTL, as there) so that the promise, "last seen" at most a TTL and a second after the page closed, is
waited for in seconds rather than half a minute.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from django.core import mail
from playwright.sync_api import expect

from correspondence.emails import message_id
from correspondence.models import Notification
from correspondence.sweep import sweep
from tests.asgi_server import Site, asgi_server
from tests.browser.test_flows import sign_in
from tests.browser.test_live_flow import connected
from tests.conftest import make_game, user_to_move, user_waiting
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

#: Seconds a touch keeps a player present (games.presence), and between a stream's touches.
TTL = 6
HEARTBEAT = 2
#: What a loaded 2-core machine may add to a promise (a render, a push, a swap).
SLACK = 4


@pytest.fixture
def site(settings) -> Iterator[Site]:
    settings.HERALD_PRESENCE_TTL = TTL
    settings.HERALD_LIVE_HEARTBEAT = HEARTBEAT
    with asgi_server() as served:
        yield served


def open_game(browser, site: Site, user, game):
    """A new browser context signed in as ``user``, on ``game``'s page with its stream open."""
    context = browser.new_context()
    page = context.new_page()
    sign_in(page, site, user.username)
    page.goto(f"{site.url}/games/{game.pk}/")
    connected(page)
    return context, page


def mark(page, user):
    """The presence mark next to ``user``'s seat on ``page``."""
    return page.locator("#game-seats tr", has_text=user.username).locator(".presence")


def emails_of(row: Notification) -> list:
    """The emails sent for the outbox row ``row`` (by its stable Message-ID): not the game-started one."""
    wanted = message_id("notification", row.pk)
    return [m for m in mail.outbox if m.extra_headers.get("Message-ID") == wanted]


def test_each_player_sees_the_other_here_and_the_mark_clears_within_the_ttl_once_they_leave(browser, site):
    game = make_game(UserFactory(), UserFactory())
    alice, bob = user_to_move(game), user_waiting(game)

    a_context, a = open_game(browser, site, alice, game)
    expect(mark(a, bob)).to_have_count(0)  # Bob never opened the game: no mark at all
    polls: list[str] = []
    a.on("request", lambda r: polls.append(r.url) if "/poll" in r.url else None)

    b_context, b = open_game(browser, site, bob, game)
    expect(mark(b, alice)).to_have_text("here now")  # Alice's page is open: Bob's load says so
    # Bob's arrival is pushed to Alice's open page.
    expect(mark(a, bob)).to_have_text("here now", timeout=SLACK * 1000)
    # Both stay marked while both pages stay open, beyond a TTL: the streams' heartbeats keep them present.
    a.wait_for_timeout((TTL + HEARTBEAT) * 1000)
    fresh = a_context.new_page()  # the live page might merely not have been told: a fresh load agrees
    fresh.goto(f"{site.url}/games/{game.pk}/")
    expect(mark(fresh, bob)).to_have_text("here now")
    fresh.close()
    expect(mark(a, bob)).to_have_text("here now")
    expect(mark(b, alice)).to_have_text("here now")

    b_context.close()
    left = time.monotonic()
    # Promised: "last seen" once presence forgets Bob (a TTL after his last touch), pushed a second later.
    expect(mark(a, bob)).to_have_text("last seen a moment ago", timeout=(TTL + 1 + SLACK) * 1000)
    assert time.monotonic() - left <= TTL + 1 + SLACK
    assert polls == [], "Alice's page was told; it did not ask"
    a_context.close()


def test_the_your_move_email_waits_while_the_pushed_page_stays_open_and_goes_once_it_closes(browser, site):
    game = make_game(UserFactory(), UserFactory())
    alice, bob = user_to_move(game), user_waiting(game)
    b_context, b = open_game(browser, site, bob, game)
    polls: list[str] = []
    b.on("request", lambda r: polls.append(r.url) if "/poll" in r.url else None)
    a_context, a = open_game(browser, site, alice, game)

    with a.expect_response(lambda r: f"/games/{game.pk}/move" in r.url):
        a.get_by_role("button", name="add 1", exact=True).click()
    b.locator("#game-status", has_text="Your move.").wait_for(timeout=SLACK * 1000)
    game.refresh_from_db()
    row = Notification.objects.get(user=bob, game=game, kind="your_move", seq=game.last_seq, channel="email")
    assert row.status == "deferred"

    # Bob's page stays open past a TTL and makes no poll: only its stream keeps him present, and the email waits.
    b.wait_for_timeout((TTL + HEARTBEAT) * 1000)
    sweep()
    row.refresh_from_db()
    assert row.status == "deferred" and emails_of(row) == []
    assert polls == []

    # He closes the page without moving: the email goes out once presence forgets him (the sweep's next run).
    b_context.close()
    deadline = time.monotonic() + TTL + SLACK
    while True:
        sweep()
        row.refresh_from_db()
        if row.status != "deferred" or time.monotonic() > deadline:
            break
        a.wait_for_timeout(500)
    assert row.status == "sent"
    assert [m.to for m in emails_of(row)] == [[bob.email]]
    a_context.close()
