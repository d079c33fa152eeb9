"""Two new players press "Play a rated Dominion game", meet in one game, and after it press Rematch."""

from __future__ import annotations

import re

import pytest

from games import services
from games.models import Game
from matchmaking.models import RematchOffer
from tests.browser.test_flows import sign_in
from tests.conftest import past_move_0
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db(transaction=True)


def test_play_a_rated_game_then_rematch_with_the_seats_rotated(browser, live_server):
    ann, bo = UserFactory.create(username="ann"), UserFactory.create(username="bo")
    pages = {}
    for user in (ann, bo):
        page = browser.new_context().new_page()
        sign_in(page, live_server, user.username)
        pages[user.username] = page

    first = pages["ann"]
    first.get_by_role("button", name="Play a rated Dominion game").click()
    first.wait_for_selector("text=Your seek is posted")
    assert "Withdraw" in first.inner_text("#find-a-game")

    second = pages["bo"]
    second.get_by_role("button", name="Play a rated Dominion game").click()
    second.wait_for_url(re.compile(r"/games/\d+/$"))
    game = Game.objects.get()
    assert second.url.endswith(f"/games/{game.pk}/")
    assert game.rated and {s.user_id for s in game.seats.all()} == {ann.pk, bo.pk}

    # The first player's lobby lists the new game by itself (its lists redraw every few seconds).
    first.wait_for_selector(f"#lobby-lists a[href='/games/{game.pk}/']", timeout=20000)
    first.click(f"#lobby-lists a[href='/games/{game.pk}/']")
    first.wait_for_url(f"{live_server.url}/games/{game.pk}/")

    game = past_move_0(game)  # before a move of her own, a resignation would abort the game: no rematch
    services.game_resign(game_id=game.pk, user=ann)  # the game ends
    before = [s.user_id for s in game.seats.order_by("position")]

    first.reload()
    first.get_by_role("button", name="Rematch", exact=True).click()
    first.wait_for_selector("text=Rematch offered")
    second.reload()
    second.get_by_role("button", name="Accept the rematch").click()
    second.wait_for_url(re.compile(r"/games/\d+/$"))
    new = RematchOffer.objects.get(game=game).new_game
    assert second.url.endswith(f"/games/{new.pk}/") and new.pk != game.pk
    assert [s.user_id for s in new.seats.order_by("position")] == before[1:] + before[:1]
    assert new.is_active and new.rated

    first.reload()
    first.get_by_role("link", name="The rematch has started: open it.").click()
    first.wait_for_url(f"{live_server.url}/games/{new.pk}/")
