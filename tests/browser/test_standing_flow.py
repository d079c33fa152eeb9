"""Issue 16 in a real browser: Alice plays Militia, then Market, and buys without waiting for Bob,
who answers "ask me" and discards later; both pages and the log read right in every language."""

from __future__ import annotations

import os
from datetime import timedelta

import pytest

from games import services
from games.engine.dominion.standing import ASK_ALL
from games.models import Action
from tests.browser.test_dominion_flow import POLL_WAIT_MS, sign_in
from tests.factories import UserFactory
from tests.web.test_standing import KINGDOM, dealt  # noqa: F401 - the fixture

pytestmark = pytest.mark.django_db(transaction=True)
#: A folder to save screenshots in (to look at the pages), or unset.
SHOTS = os.environ.get("HERALD_SHOTS")

#: Per language: Alice's "Your turn", the log's "buys" and "discards", the status's "Waiting for".
WORDS = {
    "en": ("Your turn", "buys", "discards", "Waiting for"),
    "zh-hans": ("你的回合", "购买", "弃掉", "等待"),
    "zh-hant": ("你的回合", "購買", "棄掉", "等待"),
}


@pytest.mark.parametrize("lang", ["en", "zh-hans", "zh-hant"])
def test_alice_plays_on_and_buys_while_bob_has_not_discarded(browser, live_server, dealt, lang):  # noqa: F811
    dealt["moat"] = False
    alice = UserFactory.create(username=f"alice_{lang}", language=lang)
    bob = UserFactory.create(username=f"bob_{lang}", language=lang, standing_answers=ASK_ALL)
    game = services.game_create(
        creator=alice,
        kind="dominion",
        options={"kingdom": KINGDOM},
        players=2,
        rated=False,
        private=False,
        invited=(),
        time_per_move=timedelta(days=1),
    )
    services.game_join(game_id=game.pk, user=bob)
    your_turn, buys, discards, waiting = WORDS[lang]

    alice_page = browser.new_context().new_page()
    sign_in(alice_page, live_server, alice.username)
    alice_page.goto(f"{live_server.url}/games/{game.pk}/")
    alice_page.wait_for_selector(f"text={your_turn}")
    for card in ("Village", "Militia", "Market"):
        button = f"#game-board .hand button[value='{card}']"
        alice_page.locator(button).click()
        alice_page.wait_for_selector(button, state="detached", timeout=POLL_WAIT_MS)
    # Bob owes his answers, yet Alice is still playing her turn: Treasures, then a Gold.
    game.refresh_from_db()
    assert sorted(game.to_act) == [0, 1]
    alice_page.locator("#game-board .turn-bar button[value=play_treasures]").click()
    alice_page.wait_for_selector("#game-board .turn-bar button[value=play_treasures]", state="detached")
    assert alice_page.inner_text("#game-board .turn-bar .coins") == "9"
    alice_page.locator("#game-board .supply button[value='Gold']").click()
    # $3 left: the Gold is no longer offered once the board is redrawn.
    alice_page.wait_for_selector("#game-board .supply button[value='Gold']", state="detached")
    alice_page.locator("#game-board .turn-bar button[value=end_turn]").click()
    alice_page.wait_for_selector(f"#game-board .turn-bar >> text={your_turn}", state="detached", timeout=POLL_WAIT_MS)
    game.refresh_from_db()
    assert game.to_act == [1] and services.state_at(game).turns[0] == 1
    assert len(services.state_at(game).hands[1]) == 5  # Bob has not discarded: nobody waited for him
    assert buys in alice_page.inner_text("#game-log")
    assert waiting in alice_page.inner_text("#game-status")

    # Later Bob comes by: no Moat, so "no reaction" only; then he discards two cards.
    bob_page = browser.new_context().new_page()
    sign_in(bob_page, live_server, bob.username)
    bob_page.goto(f"{live_server.url}/games/{game.pk}/")
    bob_page.wait_for_selector("#h-decision")
    if SHOTS:
        bob_page.screenshot(path=f"{SHOTS}/bob-no-reaction-{lang}.png", full_page=True)
    assert bob_page.locator("#game-board .decision button[value=yes]").count() == 0
    bob_page.locator("#game-board .decision button[value=no]").click()
    bob_page.wait_for_selector("#game-board .decision input[type=checkbox]", timeout=POLL_WAIT_MS)
    boxes = bob_page.locator("#game-board .decision input[type=checkbox][value=Estate]")
    boxes.nth(0).check()
    boxes.nth(1).check()
    bob_page.locator("#game-board .decision button[type=submit]").click()
    bob_page.wait_for_selector("#h-decision", state="detached", timeout=POLL_WAIT_MS)
    assert discards in bob_page.inner_text("#game-log")
    bob_page.wait_for_selector(f"text={your_turn}")
    # Alice's page learns it by polling: Bob's discard is in her log too, in her language.
    alice_page.wait_for_selector(f"#game-log >> text={discards}", timeout=POLL_WAIT_MS)
    if SHOTS:
        alice_page.screenshot(path=f"{SHOTS}/alice-after-{lang}.png", full_page=True)
        alice_page.goto(f"{live_server.url}/settings/")
        alice_page.screenshot(path=f"{SHOTS}/settings-{lang}.png", full_page=True)
    game.refresh_from_db()
    assert sorted(services.state_at(game).hands[1]) == ["Copper", "Copper", "Silver"]
    assert not Action.objects.filter(game=game, standing=True).exists()
