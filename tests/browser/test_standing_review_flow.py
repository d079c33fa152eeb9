"""Adversarial review of version 3 in a real browser: a victim choosing its discards while the
attacker plays on."""

from __future__ import annotations

import pytest

from games import services
from games.engine.dominion.standing import ASK_ALL
from tests.browser.test_dominion_flow import sign_in
from tests.conftest import make_game
from tests.factories import UserFactory
from tests.web.test_standing import KINGDOM, dealt  # noqa: F401 - the fixture

pytestmark = pytest.mark.django_db(transaction=True)


def bob_choosing_discards(browser, live_server, tag):
    """Alice has played Militia; Bob (who answers every attack himself) has his page open on his discards.

    Returns (game, alice, bob's page)."""
    alice = UserFactory.create(username=f"alice_{tag}")
    bob = UserFactory.create(username=f"bob_{tag}", standing_answers=ASK_ALL)
    game = make_game(alice, bob, kind="dominion", options={"kingdom": KINGDOM})
    for card in ("Village", "Militia"):
        game.refresh_from_db()
        services.game_submit_move(
            game_id=game.pk, user=alice, move={"act": "play", "card": card}, expected_seq=game.last_seq
        )
    game.refresh_from_db()
    services.game_submit_move(game_id=game.pk, user=bob, move={"act": "no"}, expected_seq=game.last_seq)

    bob_page = browser.new_context().new_page()
    sign_in(bob_page, live_server, bob.username)
    bob_page.goto(f"{live_server.url}/games/{game.pk}/")
    return game, alice, bob_page


def test_the_boxes_bob_ticked_stay_ticked_while_alice_plays_on(browser, live_server, dealt):  # noqa: F811
    """The poll redraws the live region whenever a move is made; Alice now plays on while Bob
    chooses his discards, so each of her moves cleared the boxes he had ticked."""
    dealt["moat"] = False
    game, alice, bob_page = bob_choosing_discards(browser, live_server, "boxes")
    box = bob_page.locator("#game-board .decision input[type=checkbox][value=Estate]").nth(0)
    box.check()
    game.refresh_from_db()
    services.game_submit_move(
        game_id=game.pk, user=alice, move={"act": "play", "card": "Market"}, expected_seq=game.last_seq
    )
    # The poll (every 5 s) sees the new move and redraws the live region.
    bob_page.wait_for_selector("#game-log >> text=Market", timeout=15_000)
    assert bob_page.locator("#game-board .decision input[type=checkbox][value=Estate]").nth(0).is_checked()


def test_the_boxes_stay_ticked_when_the_poll_and_the_push_redraw_the_board_back_to_back(
    browser,
    live_server,
    dealt,  # noqa: F811
):
    """The poll's redraw (which settles 20 ms later) and the push's redraw of the same move arrive one right
    after the other, as they do under load: the second must not find the first's boxes not yet ticked again
    and forget them (a flaky run of the test above)."""
    dealt["moat"] = False
    _, _, bob_page = bob_choosing_discards(browser, live_server, "backtoback")
    boxes = "#game-board .decision input[type=checkbox][value=Estate]"
    bob_page.locator(boxes).nth(0).check()
    bob_page.evaluate("""() => {
        const redraw = (settleDelay) => {
            const live = document.getElementById("game-live");
            const html = live.outerHTML;  // as the server draws it: no box ticked
            htmx.trigger(live, "htmx:beforeSwap", {target: live, elt: live, shouldSwap: true});
            htmx.swap(live, html, {swapStyle: "outerHTML", settleDelay: settleDelay});
        };
        redraw(20);  // the poll's answer (htmx settles it 20 ms later)...
        redraw(0);   // ...and the push of the same move, before that
    }""")
    bob_page.wait_for_timeout(200)  # both settled
    assert bob_page.locator(boxes).nth(0).is_checked()
    assert bob_page.locator(boxes).nth(1).is_checked() is False
