"""The game page on a phone (390 x 844) and a desktop, in each language: what comes first, what fits.

A new player on a phone found the hand a screen and a half down, a players
table that scrolled sideways, card names broken mid-word ("Moneylende r"),
a chat Send button that wrapped, and Simplified Chinese drawn with
Traditional fonts. These tests look at the drawn page in Chromium.
"""

from __future__ import annotations

import os
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
        UserFactory.create(language=language),
        UserFactory.create(language=language),
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


def hand_card_bottom(page) -> float:
    return page.evaluate(
        "(() => { const c = document.querySelector('#game-board .hand .card');"
        " return c ? c.getBoundingClientRect().bottom + window.scrollY : -1; })()"
    )


@pytest.mark.parametrize("language", ["en", "zh-hans", "zh-hant"])
def test_on_a_phone_the_hand_is_on_the_first_screen(browser, live_server, language, tmp_path):
    """The turn bar and the hand first, then the supply; seats, clocks and the log below them.

    With ``HERALD_SCREENSHOTS=1`` the first screen and the whole page are saved
    as ``docs/screenshots/phone-game-<language>[-full].png``, to look at.
    """
    _game, page = open_game(browser, live_server, language=language)
    shots = SCREENSHOTS if os.environ.get("HERALD_SCREENSHOTS") else tmp_path
    shots.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(shots / f"phone-game-{language}.png"))
    page.screenshot(path=str(shots / f"phone-game-{language}-full.png"), full_page=True)
    bottom = hand_card_bottom(page)
    assert 0 < bottom <= PHONE["height"], f"the hand's first card ends at {bottom}px, below the first screen"
    order = page.evaluate(
        "['.turn-bar', '.hand', '.supply', 'table.seats', '.clocks', '#game-log']"
        ".map(s => document.querySelector(s).getBoundingClientRect().top + window.scrollY)"
    )
    turn_bar, hand, supply, seats, clocks, log = order
    assert turn_bar < hand < supply < min(seats, clocks, log), order
    page.close()


def test_on_a_desktop_the_hand_is_on_the_first_screen_too(browser, live_server):
    _game, page = open_game(browser, live_server, viewport=DESKTOP)
    bottom = hand_card_bottom(page)
    assert 0 < bottom <= DESKTOP["height"], bottom
    page.close()


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_nothing_on_the_phone_page_scrolls_sideways(browser, live_server, language):
    _game, page = open_game(browser, live_server, language=language)
    wide = page.evaluate(
        "[...document.querySelectorAll('body, table, .live, .board, section')]"
        ".filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.tagName + '.' + e.className)"
    )
    assert wide == [], wide
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.close()


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_card_names_break_only_between_words(browser, live_server, viewport):
    """'Moneylende r' on a phone: each word of a card's name stays on one line, inside its card."""
    _game, page = open_game(browser, live_server, viewport=viewport)
    broken = page.evaluate(
        """[...document.querySelectorAll('.card-name')].filter(n => {
             const text = n.firstChild; if (!text || text.nodeType !== 3) return false;
             const words = text.data.split(' '); let at = 0;
             for (const w of words) {
               const r = document.createRange();
               r.setStart(text, at); r.setEnd(text, at + w.length); at += w.length + 1;
               if (new Set([...r.getClientRects()].map(x => Math.round(x.top))).size > 1) return true;
             }
             return n.scrollWidth > n.clientWidth + 1;
           }).map(n => n.textContent)"""
    )
    assert broken == [], broken
    page.close()


@pytest.mark.parametrize("address", ["/api/v1/guide/", "/api/v1/guide/dominion-moves/", "/api/v1/guide/domaine-moves/"])
def test_the_api_guide_does_not_scroll_sideways_on_a_phone(browser, live_server, address):
    """Its code samples and tables scroll inside their own box (the whole page was 1,621 px wide)."""
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(live_server.url + address)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.close()
