"""Private notes in Chromium: typed notes are saved as one types, with no reload, and survive one."""

from __future__ import annotations

import pytest

from games.models import GameNote
from tests.browser.test_flows import sign_in
from tests.conftest import make_game
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db(transaction=True)


def wait_for(page, check, what: str, ms: int = 8000) -> None:
    for _ in range(ms // 100):
        if check():
            return
        page.wait_for_timeout(100)
    raise AssertionError(what)


@pytest.mark.parametrize("viewport", [{"width": 390, "height": 844}, {"width": 1280, "height": 900}])
def test_notes_save_as_one_types_without_a_reload(browser, live_server, viewport):
    alice, bob = UserFactory.create(), UserFactory.create()
    game = make_game(alice, bob)
    page = browser.new_page(viewport=viewport)
    sign_in(page, live_server, alice.username)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.evaluate("window.notReloaded = true")
    box = page.locator("#notes-text")
    box.click()
    box.type("buy Gold at 6")
    wait_for(
        page,
        lambda: GameNote.objects.filter(game=game, user=alice, text="buy Gold at 6").exists(),
        "the notes were not saved",
    )
    wait_for(page, lambda: "Saved at" in page.locator("#notes-saved").inner_text(), "no 'Saved at'")
    # The same page: nothing reloaded, the caret still in the box.
    assert page.evaluate("window.notReloaded") is True
    assert page.evaluate("document.activeElement.id") == "notes-text"
    # The notes sit beside the board on a wide screen, under the live region on a phone.
    notes = page.locator("#game-notes").bounding_box()
    live = page.locator("#game-live").bounding_box()
    chat = page.locator("#game-chat").bounding_box()
    if viewport["width"] >= 960:
        assert notes["x"] > live["x"] + live["width"] - 1 and notes["y"] < 400, (notes, live)
        assert chat["x"] == notes["x"] and chat["y"] > notes["y"], (chat, notes)
    else:
        assert notes["y"] >= live["y"] + live["height"] - 1 and chat["y"] > notes["y"], (notes, live, chat)
    page.reload()
    assert page.locator("#notes-text").input_value() == "buy Gold at 6"
    page.close()


def test_without_javascript_the_save_button_saves(browser, live_server):
    alice, bob = UserFactory.create(), UserFactory.create()
    game = make_game(alice, bob)
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    sign_in(page, live_server, alice.username)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.fill("#notes-text", "no script here")
    page.get_by_role("button", name="Save notes").click()
    page.wait_for_url(f"{live_server.url}/games/{game.pk}/#notes")
    assert GameNote.objects.get(game=game, user=alice).text == "no script here"
    assert page.locator("#notes-text").input_value() == "no script here"
    assert "Saved at" in page.locator("#notes-saved").inner_text()
    context.close()
