"""A two-player Domaine game in a real browser: create, join, the whole setup and several turns, all by clicking."""

from __future__ import annotations

import pytest

from games import services
from games.engine.registry import get_engine
from games.models import Action, Game
from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

SETTLE_MS = 10_000


def sign_in(page, live_server, username: str) -> None:
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=login]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("main form button[type=submit]")
    page.wait_for_url(f"{live_server.url}/")


def open_game(page, live_server, game: Game) -> None:
    """Load the game page and count htmx swaps from now on (``window.settled``)."""
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.evaluate("window.settled = 0; document.body.addEventListener('htmx:afterSettle', () => window.settled++)")


def click_and_settle(page, locator) -> None:
    """Click something htmx handles and wait until its answer has been swapped in."""
    before = page.evaluate("window.settled")
    locator.click()
    # Polled from here: the site's CSP (no eval) rules out page.wait_for_function.
    for _ in range(SETTLE_MS // 50):
        if page.evaluate("window.settled") > before:
            return
        page.wait_for_timeout(50)
    raise AssertionError("htmx did not swap the answer in")


def fresh(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)


def mover_page(pages: dict[int, object], game: Game):
    user_id = game.seats.get(position=game.to_act[0]).user_id
    assert user_id is not None
    return pages[user_id]


def test_setup_and_turns_by_clicking(browser, live_server):
    alice, bob = UserFactory.create(username="alice"), UserFactory.create(username="bob")
    pages = {}
    console_errors: list[str] = []
    for user in (alice, bob):
        context = browser.new_context(viewport={"width": 1280, "height": 1000})
        pages[user.pk] = context.new_page()
        pages[user.pk].on("console", lambda m: console_errors.append(m.text) if m.type == "error" else None)
        sign_in(pages[user.pk], live_server, user.username)

    # alice creates the game on the form, bob joins from the game page
    page = pages[alice.pk]
    page.goto(f"{live_server.url}/games/new/")
    page.click("text=Play Domaine instead")
    page.select_option("select[name=players]", "2")
    page.click("main form button[type=submit]")
    page.wait_for_url(f"{live_server.url}/games/*/")
    game = Game.objects.get()
    assert game.kind == "domaine"
    pages[bob.pk].goto(f"{live_server.url}/games/{game.pk}/")
    pages[bob.pk].get_by_role("button", name="Join this game").click()
    pages[bob.pk].wait_for_load_state()
    game = fresh(game)
    assert game.is_active

    # setup: 4 castles each, then 4 neutral castles, each by clicking a castle square, a knight square, confirm
    placements = 0
    while get_engine("domaine").view(services.state_at(game), None)["turn"]["step"] == "setup":
        page = mover_page(pages, game)
        placer = game.to_act[0]
        open_game(page, live_server, game)
        neutral = "Place a neutral castle" in page.inner_text(".dm-controls h3")
        assert page.locator("a.dm-target").count() > 0
        click_and_settle(page, page.locator("a.dm-target").first)
        if not neutral:
            assert "castle's knight" in page.inner_text(".dm-prompt")
            click_and_settle(page, page.locator("a.dm-target").first)
        click_and_settle(page, page.get_by_role("button", name="Confirm"))
        game = fresh(game)
        placements += 1
        assert game.last_seq == placements
        if game.to_act[0] != placer:  # the page answered with the new position: no longer this player's move
            assert "Your move." not in page.inner_text("#game-status")
    assert placements == 12
    castles = get_engine("domaine").view(services.state_at(game), None)["castles"]
    assert len(castles) == 12

    # three turns each: play the first affordable card with as many clicked targets as it allows, then draw
    for _turn in range(6):
        page = mover_page(pages, game)
        open_game(page, live_server, game)
        seq = game.last_seq
        plays = page.locator("a.dm-play")
        if plays.count():
            click_and_settle(page, plays.first)
            # nothing placed yet: the play could be sent, but only on purpose
            assert page.get_by_role("button", name="Play without using it").count() == 1
            assert page.get_by_role("button", name="Confirm").count() == 0
            if _turn == 0:
                # a click without the tick box sends nothing (the browser checks the required box)
                page.get_by_role("button", name="Play without using it").click()
                page.wait_for_timeout(300)
                assert Action.objects.filter(game=game).count() == seq
            for _click in range(3):
                targets = page.locator("a.dm-target")
                if not targets.count():
                    break
                # A border takes two taps: once a square is chosen, its sides come first (they may cover
                # part of the next square, as a finger would find them).
                edges = page.locator("a.dm-edge-target")
                click_and_settle(page, edges.first if edges.count() else targets.first)
            empty = page.get_by_role("button", name="Play without using it")
            if empty.count():
                # no target at all: the tick box guards the play; without it the browser keeps the form
                empty.click()
                page.wait_for_timeout(300)
                assert Action.objects.filter(game=game).count() == seq
                page.get_by_label("Yes, play this card without using it").check()
                click_and_settle(page, empty)
            else:
                click_and_settle(page, page.get_by_role("button", name="Confirm"))
            move = Action.objects.get(game=game, seq=seq + 1).move
            assert move["act"] == "play"
        else:
            click_and_settle(page, page.locator("button.dm-sell").first)
            assert Action.objects.get(game=game, seq=seq + 1).move["act"] == "sell"
        game = fresh(game)
        if game.last_seq == seq + 1:
            # another card lies in the display: the take is the player's choice, on the page
            assert "Take a card" in page.inner_text(".dm-controls")
            click_and_settle(page, page.get_by_role("button", name="Draw from the deck"))
            game = fresh(game)
        # else the deck was the only choice and the site drew for the player at once
        assert game.last_seq == seq + 2
        assert Action.objects.get(game=game, seq=seq + 2).move == {"act": "take", "from": "deck"}
    log = page.inner_text("#game-log")
    assert "placed a castle on" in log and "drew a card from the deck" in log
    assert not [e for e in console_errors if "Content Security Policy" in e], console_errors
    for context_page in pages.values():
        context_page.context.close()


def test_a_placement_without_javascript(browser, live_server):
    alice, bob = UserFactory.create(), UserFactory.create()
    game = services.game_create(
        creator=alice,
        kind="domaine",
        options={},
        players=2,
        rated=False,
        private=False,
        time_per_move=services.TIME_CONTROLS[0],
    )
    services.game_join(game_id=game.pk, user=bob)
    game = fresh(game)
    mover = game.seats.get(position=game.to_act[0]).user
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    sign_in(page, live_server, mover.username)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    # the squares are plain links: each click loads the whole page with the draft so far
    page.locator("a.dm-target").first.click()
    page.wait_for_load_state()
    assert "/domaine/draft" in page.url
    # ... scrolled to the board, not to the top of the page (where the status and players come first)
    assert page.url.endswith("#game-board")
    assert page.evaluate("document.getElementById('game-board').getBoundingClientRect().top") < 100
    page.locator("a.dm-target").first.click()
    page.wait_for_load_state()
    page.get_by_role("button", name="Confirm").click()
    page.wait_for_load_state()
    assert page.url.rstrip("/").endswith(f"/games/{game.pk}")
    assert fresh(game).last_seq == 1
    assert "placed a castle on" in page.inner_text("#game-log")
    context.close()
