"""A newcomer in a real browser, on a phone and on a desktop: reads the Domaine rules from the game page, taps
cards to read their text (no hover, no script needed), places a border in two taps, and turns the hints off."""

from __future__ import annotations

import re

import pytest

from games.engine.domaine.cards import CARDS
from games.models import Action
from tests.browser.test_domaine_flow import click_and_settle, open_game, sign_in
from tests.conftest import make_game
from tests.factories import UserFactory
from tests.web.test_domaine_views import at_step, bot_moves, view_of

pytestmark = pytest.mark.django_db(transaction=True)

SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 900}}


def new_page(browser, size: str):
    phone = size == "phone"
    context = browser.new_context(viewport=SIZES[size], has_touch=phone, is_mobile=phone)
    return context.new_page()


def borders_in_hand(game, state) -> bool:
    """A play step where the mover can pay for a card with a borders action."""
    if not at_step("play")(game, state):
        return False
    playable = view_of(game, game.to_act[0])["pending"][0]["params"]["playable"]
    return any(a.kind == "borders" for c in playable for a in CARDS[c].actions)


def mover(game):
    game.refresh_from_db()
    return game.seats.get(position=game.to_act[0]).user


@pytest.mark.parametrize("size", SIZES)
def test_a_new_player_reads_the_domaine_rules_from_the_game_and_taps_a_card_for_its_text(browser, live_server, size):
    alice, bob = UserFactory.create(username="alice"), UserFactory.create(username="bob")
    game = make_game(alice, bob, kind="domaine")
    page = new_page(browser, size)
    sign_in(page, live_server, mover(game).username)
    open_game(page, live_server, game)
    strip = page.locator(".hint-strip")
    # Folded to one line (the move stays on the first screen); a tap opens it.
    assert strip.is_visible() and not strip.get_by_text("at least 6 squares apart").is_visible()
    assert strip.bounding_box()["height"] < 60
    strip.locator("summary").tap() if size == "phone" else strip.locator("summary").click()
    assert strip.get_by_text("at least 6 squares apart").is_visible()
    strip.get_by_role("link", name="How to play").click()
    page.wait_for_url(f"{live_server.url}/rules/domaine/")
    assert page.get_by_role("heading", name="How to play Domaine").is_visible()
    target = page.locator("#h-target")
    target.scroll_into_view_if_needed()
    assert target.is_visible() and "2 players: 50 points" in page.locator(".guide-box").inner_text()
    page.go_back()

    # some turns later, the player taps a card's name in the hand: its full text and reference link open
    game = bot_moves(game, until=at_step("play"))
    page.close()
    page = new_page(browser, size)
    sign_in(page, live_server, mover(game).username)
    open_game(page, live_server, game)
    card = page.locator(".dm-hand details.dm-card-info").first
    text = card.locator(".dm-card-text")
    assert not text.is_visible()
    card.locator("summary").tap() if size == "phone" else card.locator("summary").click()
    assert text.is_visible() and re.search(r"Place up to|domain", text.inner_text())
    text.get_by_role("link", name="Card reference").click()
    page.wait_for_url(re.compile(r"/rules/domaine/cards/#card-[a-d]\d$"))
    entry_id = page.url.rsplit("#", 1)[1]
    assert page.locator(f"#{entry_id}").is_visible()
    page.close()


@pytest.mark.parametrize("size", SIZES)
def test_dominion_cards_open_their_text_on_a_tap_or_enter_and_hide_it_again(browser, live_server, size):
    alice, bob = UserFactory.create(username="alice"), UserFactory.create(username="bob")
    game = make_game(alice, bob, kind="dominion", options={"kingdom": "First Game"})
    page = new_page(browser, size)
    sign_in(page, live_server, mover(game).username)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    smithy = page.locator("#game-board .supply details.card", has_text="Smithy")
    smithy.scroll_into_view_if_needed()
    text = smithy.locator(".card-text")
    assert not text.is_visible()
    smithy.locator("summary").tap() if size == "phone" else smithy.locator("summary").click()
    assert text.is_visible() and "+3 Cards." in text.inner_text()
    assert text.get_by_role("link", name="Card reference").get_attribute("href").endswith("#card-smithy")
    # opening another card closes the first (one text at a time)
    market = page.locator("#game-board .supply details.card", has_text="Market")
    market.locator("summary").focus()
    page.keyboard.press("Enter")
    assert market.locator(".card-text").is_visible() and not text.is_visible()
    page.keyboard.press("Enter")
    assert not market.locator(".card-text").is_visible()
    # a playable card is a Play button: its "?" beside it opens the text without playing it
    more = page.locator("#game-board .hand .card-more").first
    more.locator("summary").tap() if size == "phone" else more.locator("summary").click()
    assert more.locator(".card-text").is_visible()
    assert game.actions.count() == 0


def test_a_border_takes_two_taps_a_square_then_its_side(browser, live_server):
    alice, bob = UserFactory.create(username="alice"), UserFactory.create(username="bob")
    game = make_game(alice, bob, kind="domaine")
    game = bot_moves(game, until=borders_in_hand)
    page = new_page(browser, "phone")
    sign_in(page, live_server, mover(game).username)
    open_game(page, live_server, game)
    click_and_settle(page, page.locator("a.dm-play", has_text="border").first)
    assert page.locator("a.dm-edge-target").count() == 0 and page.locator("a.dm-focus-target").count() > 20
    click_and_settle(page, page.locator("a.dm-focus-target").nth(30))
    sides = page.locator("a.dm-edge-target")
    assert 1 <= sides.count() <= 4
    click_and_settle(page, sides.first)
    assert "Your score:" in page.inner_text(".dm-outlook")
    seq = game.last_seq
    click_and_settle(page, page.get_by_role("button", name="Confirm"))
    move = Action.objects.get(game=game, seq=seq + 1).move
    assert move["act"] == "play" and len(move["borders"]) == 1


def test_the_hint_strip_can_be_turned_off_and_on_again(browser, live_server):
    alice, bob = UserFactory.create(username="alice"), UserFactory.create(username="bob")
    game = make_game(alice, bob, kind="domaine")
    page = new_page(browser, "desktop")
    sign_in(page, live_server, "bob")
    open_game(page, live_server, game)
    page.locator(".hint-strip summary").click()
    page.get_by_role("button", name="Turn these hints off").click()
    page.wait_for_url(f"{live_server.url}/games/{game.pk}/")
    assert page.locator(".hint-strip").count() == 0
    page.get_by_role("button", name="Show first-game hints").click()
    page.wait_for_url(f"{live_server.url}/games/{game.pk}/")
    assert page.locator(".hint-strip").is_visible()
