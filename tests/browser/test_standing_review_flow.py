"""Adversarial review of version 3 in a real browser: a victim choosing its discards while the
attacker plays on."""

from __future__ import annotations

from datetime import timedelta

import pytest

from games import services
from games.engine.dominion.standing import ASK_ALL
from tests.browser.test_dominion_flow import sign_in
from tests.factories import UserFactory
from tests.web.test_standing import KINGDOM, dealt  # noqa: F401 - the fixture

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_boxes_bob_ticked_stay_ticked_while_alice_plays_on(browser, live_server, dealt):  # noqa: F811
    """The poll redraws the live region whenever a move is made; Alice now plays on while Bob
    chooses his discards, so each of her moves cleared the boxes he had ticked."""
    dealt["moat"] = False
    alice = UserFactory.create(username="alice_boxes")
    bob = UserFactory.create(username="bob_boxes", standing_answers=ASK_ALL)
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
    box = bob_page.locator("#game-board .decision input[type=checkbox][value=Estate]").nth(0)
    box.check()
    game.refresh_from_db()
    services.game_submit_move(
        game_id=game.pk, user=alice, move={"act": "play", "card": "Market"}, expected_seq=game.last_seq
    )
    # The poll (every 5 s) sees the new move and redraws the live region.
    bob_page.wait_for_selector("#game-log >> text=Market", timeout=15_000)
    assert bob_page.locator("#game-board .decision input[type=checkbox][value=Estate]").nth(0).is_checked()
