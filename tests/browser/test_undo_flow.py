"""A misclicked Buy taken back in a real browser, before the grace period ends the turn."""

from __future__ import annotations

import pytest

from games import services
from tests.browser.test_dominion_flow import POLL_WAIT_MS, sign_in
from tests.conftest import make_game
from tests.factories import UserFactory
from tests.undo.helpers import advance, turn_start

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_misclicked_buy_is_undone_in_the_browser(browser, live_server, settings):
    settings.HERALD_FORCED_MOVE_GRACE = 60
    alice, bob = UserFactory.create(username="alice"), UserFactory.create(username="bob")
    game = advance(make_game(alice, bob, kind="dominion", options={"kingdom": "First Game"}), turn_start)
    state = services.state_at(game)
    me = game.seats.get(position=state.current).user
    page = browser.new_page()
    try:
        sign_in(page, live_server, me.username)
        page.goto(f"{live_server.url}/games/{game.pk}/")
        page.wait_for_selector("text=Your turn")
        supply = page.locator("#game-board .supply")
        assert supply.locator("button[value=Curse]").count() == 0, "no $0 Buy button in the Action phase"
        page.get_by_role("button", name="End Action phase").click()
        page.wait_for_selector("text=Buy phase")
        page.locator("#game-board .supply button[value=Curse]").click()  # the slip
        page.wait_for_selector("text=Your turn ends by itself", timeout=POLL_WAIT_MS)
        page.screenshot(path="/tmp/undo-misclick.png")
        page.get_by_role("button", name="Undo").click()
        page.wait_for_selector("text=takes back their last move", timeout=POLL_WAIT_MS)
        page.wait_for_selector("text=Your turn ends by itself", state="detached")
        page.screenshot(path="/tmp/undo-after.png")
        game.refresh_from_db()
        after = services.state_at(game)
        assert after.current == state.current and not after.bought and after.supply["Curse"] == 10
        assert game.forced_due is None
        assert page.get_by_role("button", name="End turn").count() == 1, "still this player's turn"
    finally:
        page.close()
