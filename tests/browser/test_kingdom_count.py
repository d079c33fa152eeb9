"""Picking ten kingdom cards: the form counts them as one picks (the walk-through: only "Pick exactly 10 cards."
after submitting)."""

from __future__ import annotations

import pytest

from tests.browser.test_flows import sign_in
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_kingdom_form_counts_the_picked_cards(browser, live_server):
    page = browser.new_page(viewport={"width": 390, "height": 844})
    sign_in(page, live_server, UserFactory.create().username)
    page.goto(f"{live_server.url}/games/new/")
    page.get_by_text("Cards (when picking 10)").click()
    count = page.locator(".kingdom-count")
    assert count.inner_text() == "Picked: 0 of 10"
    boxes = page.locator(".kingdom-pick input[name=cards]")
    for i in range(3):
        boxes.nth(i).check()
    assert count.inner_text() == "Picked: 3 of 10"
    boxes.nth(1).uncheck()
    assert count.inner_text() == "Picked: 2 of 10"
    # It stays in view under the list while one scrolls through the cards.
    boxes.nth(20).scroll_into_view_if_needed()
    box = count.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= 844, box
    page.close()
