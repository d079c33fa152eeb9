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


def _count_drawn(browser, live_server, username: str, *, javascript: bool, picked: int) -> bytes:
    """A picture of the count line after ticking the first ``picked`` cards, with or without JavaScript."""
    context = browser.new_context(java_script_enabled=javascript, viewport={"width": 390, "height": 844})
    page = context.new_page()
    sign_in(page, live_server, username)
    page.goto(f"{live_server.url}/games/new/")
    page.get_by_text("Cards (when picking 10)").click()
    boxes = page.locator(".kingdom-pick input[name=cards]")
    for i in range(picked):
        boxes.nth(i).check()
    picture = page.locator(".kingdom-count").screenshot(animations="disabled", caret="hide")
    context.close()
    return picture


def test_without_javascript_the_count_is_drawn_all_the_same(browser, live_server):
    """Without JavaScript a CSS counter draws the number (the text is empty for a script to fill): the line
    must look exactly as herald.js writes it, and follow the ticks. Its text is no help here (generated
    content is not in the DOM), so the two are compared as pictures."""
    username = UserFactory.create().username
    without = _count_drawn(browser, live_server, username, javascript=False, picked=3)
    assert without == _count_drawn(browser, live_server, username, javascript=True, picked=3)
    assert without != _count_drawn(browser, live_server, username, javascript=False, picked=2)
