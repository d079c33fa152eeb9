"""In-tab notices: the title and icon say that a move is owed when the other player moves while the tab is open."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect
from py_vapid import Vapid

from correspondence import push
from games import services
from tests.browser.test_flows import sign_in
from tests.browser.test_phone_page import DESKTOP, PHONE
from tests.conftest import make_game, user_to_move, user_waiting
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db(transaction=True)
POLL_WAIT_MS = 15_000  # the page polls every 5 s


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_tab_title_and_icon_change_when_the_other_player_moves(browser, live_server, viewport):
    game = make_game(UserFactory.create(), UserFactory.create())
    page = browser.new_page(viewport=viewport)
    sign_in(page, live_server, user_waiting(game).username)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    title = page.title()
    assert not title.startswith("(1)"), title
    assert page.get_attribute("link[rel=icon]", "href").endswith("favicon.svg")

    services.game_submit_move(game_id=game.pk, user=user_to_move(game), move={"act": "add", "n": 1}, expected_seq=0)
    page.wait_for_selector("#game-live[data-owed]", timeout=POLL_WAIT_MS)
    page.locator("text=Your move.").wait_for()
    # notices.js updates the title after htmx settles the swap, a moment after the region itself changes
    expect(page).to_have_title(f"(1) {title}")
    expect(page.locator("link[rel=icon]")).to_have_attribute("href", re.compile(r"favicon-move\.svg$"))

    # once the player has moved, the marks go
    page.get_by_role("button", name="add 1", exact=True).click()
    page.wait_for_selector("#game-live:not([data-owed])")
    expect(page).to_have_title(title)
    expect(page.locator("link[rel=icon]")).to_have_attribute("href", re.compile(r"/favicon\.svg$"))
    page.close()


def test_the_move_sound_is_this_browsers_choice_and_needs_javascript(browser, live_server):
    game = make_game(UserFactory.create(), UserFactory.create())
    user = user_waiting(game)
    page = browser.new_page()
    sign_in(page, live_server, user.username)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    box = page.locator("#move-sound")
    assert box.is_visible() and not box.is_checked()
    box.check()
    page.reload()
    assert page.locator("#move-sound").is_checked()
    context = browser.new_context(java_script_enabled=False)
    plain = context.new_page()
    sign_in(plain, live_server, user.username)
    plain.goto(f"{live_server.url}/games/{game.pk}/")
    assert not plain.locator("#move-sound").is_visible()
    context.close()
    page.close()


def test_the_settings_page_offers_notifications_in_this_browser(browser, live_server, settings):
    """With a VAPID key the page shows the switch (with JavaScript) and registers the service worker."""
    key = Vapid()
    key.generate_keys()
    settings.VAPID_PRIVATE_KEY = key.private_pem().decode()
    push._vapid.cache_clear()
    try:
        user = UserFactory.create()
        page = browser.new_page()
        sign_in(page, live_server, user.username)
        page.goto(f"{live_server.url}/settings/email/")
        page.locator("#push-setup").wait_for()
        page.locator("#push-state:has-text('Notifications are off in this browser.')").wait_for()
        assert page.locator("#push-on").is_visible()
        # Off in this browser: only "Turn on" is offered (a button's display once beat its hidden attribute).
        assert not page.locator("#push-off").is_visible()
        assert page.evaluate("navigator.serviceWorker.getRegistration().then(r => !!r && !!r.active)")
        assert page.get_attribute("#push-setup", "data-key") == push.public_key()
        page.close()
    finally:
        push._vapid.cache_clear()


def test_signing_out_still_works_where_the_push_worker_is_registered(browser, live_server, settings):
    """push.js holds the sign-out form a moment (to unsubscribe this browser), then signs out."""
    key = Vapid()
    key.generate_keys()
    settings.VAPID_PRIVATE_KEY = key.private_pem().decode()
    push._vapid.cache_clear()
    try:
        page = browser.new_page()
        sign_in(page, live_server, UserFactory.create().username)
        page.goto(f"{live_server.url}/settings/email/")
        page.locator("#push-state:has-text('Notifications are off in this browser.')").wait_for()
        page.get_by_role("button", name="Sign out").click()
        page.get_by_role("navigation", name="Main").get_by_role("link", name="Sign in").wait_for()
        page.goto(f"{live_server.url}/settings/email/")
        assert "/accounts/login/" in page.url
        page.close()
    finally:
        push._vapid.cache_clear()
