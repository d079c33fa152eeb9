"""A whole Dominion game in a real browser: sign up, create, join, a Militia attack answered, the end."""

from __future__ import annotations

import random
import re

import pytest
from django.core import mail

from accounts.models import User
from games import services
from games.engine.dominion.engine import ENGINE
from games.models import Game
from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

KINGDOM = [
    "Cellar",
    "Chapel",
    "Village",
    "Woodcutter",
    "Workshop",
    "Militia",
    "Smithy",
    "Remodel",
    "Market",
    "Laboratory",
]
POLL_WAIT_MS = 15_000  # the page polls every 5 s


def sign_up_and_verify(page, live_server, username: str) -> None:
    """Sign up, open the link of the verification email, confirm it, sign in."""
    page.goto(f"{live_server.url}/accounts/signup/")
    page.fill("input[name=email]", f"{username}@example.com")
    page.fill("input[name=username]", username)
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.click("main form button[type=submit]")
    page.wait_for_load_state()
    message = next(m for m in mail.outbox if f"{username}@example.com" in m.to)
    found = re.search(r"https?://\S+/accounts/confirm-email/\S+/", str(message.body))
    assert found is not None, message.body
    link = found.group(0)
    page.goto(re.sub(r"^https?://[^/]+", live_server.url, link))
    page.click("main form button[type=submit]")
    page.wait_for_load_state()
    if "/accounts/login/" in page.url:
        page.fill("input[name=login]", username)
        page.fill("input[name=password]", PASSWORD)
        page.click("main form button[type=submit]")
        page.wait_for_url(f"{live_server.url}/")


def sign_in(page, live_server, username: str) -> None:
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=login]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("main form button[type=submit]")
    page.wait_for_url(f"{live_server.url}/")


def play_a_turn_by_clicking(page, hand: list[str], coins_in_hand: int, has_militia: bool) -> bool:
    """Play the turn in the page; return True if Militia was played (the caller handles the attack)."""
    page.wait_for_selector("text=Your turn", timeout=POLL_WAIT_MS)
    if "Militia" in hand:
        page.locator("#game-board .hand button[value=Militia]").click()
        return True
    treasures = page.get_by_role("button", name="Play all Treasures")
    if treasures.count():
        treasures.click()
        # The answer replaces the board (and its position number); wait for it before the next click.
        page.wait_for_selector("text=Play all Treasures", state="detached")
    want = "Militia" if coins_in_hand >= 4 and not has_militia else "Silver" if coins_in_hand >= 3 else None
    if want:
        page.locator(f"#game-board .supply button[value='{want}']").click()
        # That was the one Buy: the site ends the turn by itself (nothing is left to decide).
        page.wait_for_selector("text=Your turn", state="detached", timeout=POLL_WAIT_MS)
        return False
    page.get_by_role("button", name="End turn").click()
    return False


def test_sign_up_create_join_militia_and_play_to_the_end(browser, live_server):
    # A new user signs up and verifies the address from the email they were sent.
    alice_page = browser.new_context().new_page()
    sign_up_and_verify(alice_page, live_server, "newcomer")

    # She creates a Dominion game with a picked kingdom.
    alice_page.goto(f"{live_server.url}/games/new/")
    alice_page.check("input[name=kingdom][value=pick]")
    alice_page.click("text=Cards (when picking 10)")
    for card in KINGDOM:
        alice_page.check(f"input[name=cards][value='{card}']")
    alice_page.click("main form button[type=submit]")
    alice_page.wait_for_url(re.compile(r".*/games/\d+/$"))
    game_id = int(re.search(r"/games/(\d+)/", alice_page.url).group(1))

    # Both answer Militia themselves ("ask me"; the default standing answer would discard for them).
    User.objects.filter(username="newcomer").update(standing_answers={"militia": "ask"})
    # Bob joins from the game page; the game starts and both pages know it without a reload.
    bob = UserFactory.create(username="bob_browser", standing_answers={"militia": "ask"})
    bob_page = browser.new_context().new_page()
    sign_in(bob_page, live_server, bob.username)
    bob_page.goto(f"{live_server.url}/games/{game_id}/")
    bob_page.get_by_role("button", name="Join this game").click()
    alice_page.wait_for_selector("#game-board .supply", timeout=POLL_WAIT_MS)

    game = Game.objects.get(pk=game_id)
    pages = {s.position: (s.user, alice_page if s.user.username == "newcomer" else bob_page) for s in game.seats.all()}

    militia_played = False
    for _turn in range(16):
        game.refresh_from_db()
        state = services.state_at(game)
        seat = state.current
        user, page = pages[seat]
        hand = list(state.hands[seat])
        coins = sum({"Copper": 1, "Silver": 2, "Gold": 3}.get(c, 0) for c in hand)
        owns = "Militia" in state.owned(seat)
        if play_a_turn_by_clicking(page, hand, coins, owns):
            militia_played = True
            victim = 1 - seat
            victim_page = pages[victim][1]
            # The victim's page shows the discard decision by itself (polling), and they answer it.
            victim_page.wait_for_selector("#h-decision", timeout=POLL_WAIT_MS)
            assert "discard 2 cards" in victim_page.inner_text("#h-decision")
            boxes = victim_page.locator("#game-board .decision input[type=checkbox]")
            boxes.nth(0).check()
            boxes.nth(1).check()
            victim_page.get_by_role("button", name="Confirm").click()
            victim_page.wait_for_selector("#h-decision", state="detached")
            # The attacker's page learns that the victim answered, again without a reload (it did
            # not have to wait for it: since Dominion version 3 the attacker plays on meanwhile).
            page.wait_for_selector("#game-log >> text=discards", timeout=POLL_WAIT_MS)
            page.wait_for_selector("text=Play all Treasures", timeout=POLL_WAIT_MS)
            assert page.inner_text("#game-board .turn-bar .coins") == "2"
            page.get_by_role("button", name="Play all Treasures").click()
            # Each click answers with a fresh board (and a new position number): wait for it.
            page.wait_for_selector("text=Play all Treasures", state="detached")
            page.get_by_role("button", name="End turn").click()
            page.wait_for_selector("text=Your turn", state="detached", timeout=POLL_WAIT_MS)
            break
        # Wait until the move is stored before reading the next turn.
        page.wait_for_selector("text=Your turn", state="detached", timeout=POLL_WAIT_MS)
    assert militia_played, "no Militia was drawn in 16 turns"

    # The rest of the game is played through the move service by bots, as the issue allows.
    rng = random.Random(1)
    for _ in range(5000):
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            break
        state = services.state_at(game)
        seat = ENGINE.pending(state)[0].player
        move = ENGINE.bots["big_money"](ENGINE.player_view(state, seat), rng)
        services.game_submit_move(game_id=game.pk, user=pages[seat][0], move=move, expected_seq=game.last_seq)
    assert game.status == Game.Status.FINISHED

    # Both pages show the final scores by themselves, and the replay opens.
    for _user, page in pages.values():
        page.wait_for_selector("#h-final", timeout=POLL_WAIT_MS)
        assert "VP in" in page.inner_text("#game-board .final")
    alice_page.click("text=Replay this game")
    alice_page.wait_for_selector(".replay-nav")
    alice_page.click("a[rel=prev]")
    alice_page.wait_for_selector("text=by")
    assert "Move" in alice_page.inner_text("main")
