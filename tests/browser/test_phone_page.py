"""The game page on a phone (390 x 844) and a desktop, in each language: what comes first, what fits.

A new player on a phone found the hand a screen and a half down, a players
table that scrolled sideways, card names broken mid-word ("Moneylende r"),
a chat Send button that wrapped, and Simplified Chinese drawn with
Traditional fonts. These tests look at the drawn page in Chromium.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser.test_flows import sign_in
from tests.conftest import make_game, user_to_move
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
#: The base set's longest one-word names, so a kingdom of them tests the narrowest cards.
LONG_NAMES = [
    "Moneylender",
    "Laboratory",
    "Woodcutter",
    "Bureaucrat",
    "Chancellor",
    "Adventurer",
    "Throne Room",
    "Council Room",
    "Workshop",
    "Festival",
]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def open_game(browser, live_server, *, language: str = "en", viewport: dict | None = None, kingdom=None):
    """A new Dominion game's first player, in ``language``, on its page at ``viewport``: (game, page)."""
    game = make_game(
        UserFactory(language=language),
        UserFactory(language=language),
        kind="dominion",
        options={"kingdom": kingdom or LONG_NAMES},
    )
    mover = user_to_move(game)
    page = browser.new_page(viewport=viewport or PHONE)
    sign_in(page, live_server, mover.username)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    return game, page


@pytest.mark.parametrize(
    ("language", "wanted", "unwanted"),
    [("zh-hans", "PingFang SC", "PingFang TC"), ("zh-hant", "PingFang TC", "PingFang SC")],
)
def test_each_chinese_script_gets_its_own_fonts(browser, live_server, language, wanted, unwanted):
    _game, page = open_game(browser, live_server, language=language)
    fonts = page.evaluate("getComputedStyle(document.body).fontFamily")
    assert wanted in fonts and unwanted not in fonts, fonts
    page.close()


@pytest.mark.parametrize("width", [320, 980])
@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_the_chat_send_button_stays_on_one_line(browser, live_server, language, width):
    """On a phone the chat is as wide as the screen; just above 60rem it is the narrow side column."""
    _game, page = open_game(browser, live_server, language=language, viewport={"width": width, "height": 800})
    button = page.locator("#game-chat form button[type=submit]")
    lines = button.evaluate(
        "b => { const r = document.createRange(); r.selectNodeContents(b);"
        " return new Set([...r.getClientRects()].map(x => Math.round(x.top))).size; }"
    )
    assert lines == 1, f"the Send button wraps onto {lines} lines"
    page.close()
