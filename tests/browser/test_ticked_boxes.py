"""Ticked boxes are kept across redraws of a question still open, never carried to the next question.

herald.js keeps the cards a player has ticked when the poll or the push
redraws the same question (same heading, same cards). A question answered
is gone, though: the next one may look the same (a Throne-Roomed Cellar
asks twice over a hand that can come back alike), and must start with
nothing ticked, or a second Confirm discards cards the player never chose.
"""

from __future__ import annotations

import pytest

from games import services
from tests.browser.test_dominion_flow import sign_in
from tests.browser.test_standing_review_flow import bob_choosing_discards
from tests.conftest import make_game
from tests.dealing import deal_fixed
from tests.factories import UserFactory
from tests.web.test_standing import dealt  # noqa: F401 - the fixture

pytestmark = pytest.mark.django_db(transaction=True)

KINGDOM = ["Cellar", "Throne Room", "Militia", "Moat", "Village", "Market", "Smithy", "Library", "Witch", "Chapel"]
C, E = "Copper", "Estate"


def _setup(moat: bool, players: int = 2) -> dict:
    # Seat 0 draws two Estates next: Cellar's first discard of its two Estates draws them back.
    seats = [
        {"hand": ["Throne Room", "Cellar", E, E, C], "deck": [E, E, C, C, C]},
        {"hand": [C, C, C, E, E], "deck": [C] * 5},
    ][:players]
    return {"players": players, "kingdom": KINGDOM, "seed": 3, "players_state": seats, "turn": {"player": 0}}


@pytest.fixture
def cellars(monkeypatch):
    """Deal the set-up above."""
    return deal_fixed(monkeypatch, _setup, {"moat": False})


def test_the_cards_ticked_for_an_answered_question_are_not_ticked_in_the_next_one_alike(browser, live_server, cellars):
    alice = UserFactory.create(username="alice_cellars")
    bob = UserFactory.create(username="bob_cellars")
    game = make_game(alice, bob, kind="dominion", options={"kingdom": KINGDOM})
    game.refresh_from_db()
    # Throne Room with a single Action in hand plays Cellar twice at once: the first Cellar asks.
    services.game_submit_move(
        game_id=game.pk, user=alice, move={"act": "play", "card": "Throne Room"}, expected_seq=game.last_seq
    )
    page = browser.new_context().new_page()
    sign_in(page, live_server, alice.username)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    boxes = "#game-board .decision input[type=checkbox]"
    estates = page.locator(f"{boxes}[value=Estate]")
    estates.nth(0).check()
    estates.nth(1).check()
    before = page.locator("#game-live").get_attribute("hx-get")
    page.locator("#game-board .decision button[type=submit]").click()
    # The answer's redraw: the second Cellar asks over the same hand (the two Estates drawn back).
    page.wait_for_function(f"() => document.getElementById('game-live').getAttribute('hx-get') !== {before!r}")
    page.wait_for_timeout(200)  # any second redraw (the push) settled too
    game.refresh_from_db()
    assert services.state_at(game).hands[0] == [C, E, E]
    assert page.locator(boxes).count() == 3  # the second Cellar's question, the same cards
    assert [page.locator(boxes).nth(i).is_checked() for i in range(3)] == [False, False, False]


def test_the_cards_ticked_for_a_refused_answer_stay_ticked_for_the_same_question_asked_again(
    browser,
    live_server,
    dealt,  # noqa: F811
):
    """Bob must discard 2 cards and ticks one: the refusal redraws his question with its reason, his box still
    ticked (he ticks one more, not both again)."""
    dealt["moat"] = False
    _, _, bob_page = bob_choosing_discards(browser, live_server, "refused")
    boxes = "#game-board .decision input[type=checkbox]"
    bob_page.locator(f"{boxes}[value=Estate]").nth(0).check()
    bob_page.locator("#game-board .decision button[type=submit]").click()
    bob_page.wait_for_selector("#game-live .error", timeout=15_000)
    bob_page.wait_for_timeout(200)
    assert bob_page.locator(f"{boxes}[value=Estate]").nth(0).is_checked()
    assert sum(bob_page.locator(boxes).nth(i).is_checked() for i in range(bob_page.locator(boxes).count())) == 1
