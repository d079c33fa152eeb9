"""A live page equals a reloaded page (issue 28, part 4), in a real browser.

Alice and Bob, each in their own browser context, play a scripted Dominion game: Alice creates it
on the page ("Game created."), Bob joins from his, they play a few turns by clicking, and the rest is
played through the services until the game ends. At every step each player's open game page (and
Bob's open lobby), once it has caught up by itself, must show in every region what a fresh load of
the same page shows: the status, board, seats, log, chat, messages, the standing answers that appear
as the game starts and the statistics that appear as it ends.
"""

from __future__ import annotations

import random
import re

import pytest

from games import services
from games.engine.dominion.engine import ENGINE
from games.models import Game
from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

POLL_WAIT_MS = 15_000  # the pages poll every 5 s
GAME_REGIONS = [
    "messages",
    "game-status",
    "game-board",
    "game-seats",
    "game-log",
    "chat-messages",
    "game-standing",
    "game-stats",
]
LOBBY_REGIONS = ["messages", "lobby-lists"]

# Each region's visible text, whitespace folded; <time> elements (relative clock texts, which tick
# on their own) and <noscript> (not shown with JavaScript; parsed as text on a load, as elements
# in a swap) are left out.
REGIONS_JS = """(ids) => Object.fromEntries(ids.map((id) => {
  const el = document.getElementById(id);
  if (!el) return [id, null];
  const copy = el.cloneNode(true);
  copy.querySelectorAll("time, script, noscript").forEach((n) => n.remove());
  return [id, copy.textContent.replace(/\\s+/g, " ").trim()];
}))"""


def sign_in(page, live_server, username: str) -> None:
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=login]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("main form button[type=submit]")
    page.wait_for_url(f"{live_server.url}/")


def regions(page, ids: list[str]) -> dict[str, str | None]:
    return page.evaluate(REGIONS_JS, ids)


def same_as_reload(page, ids: list[str]) -> None:
    """The live ``page``'s regions equal those of the same address loaded afresh in the same browser."""
    live = regions(page, ids)
    fresh = page.context.new_page()
    fresh.goto(page.url)
    reloaded = regions(fresh, ids)
    fresh.close()
    for region in ids:
        assert live[region] == reloaded[region], (page.url, region, live[region], reloaded[region])


def lobby_same_as_reload(lobby) -> None:
    """The live lobby comes to equal a fresh load by itself, within the poll wait.

    The lobby has no move number to wait for (as ``caught_up`` has for a game page), and its text before an
    update may already hold what the test waits for: it is compared until the two agree or time runs out.
    """
    for _ in range(POLL_WAIT_MS // 500):
        live = regions(lobby, LOBBY_REGIONS)
        fresh = lobby.context.new_page()
        fresh.goto(lobby.url)
        reloaded = regions(fresh, LOBBY_REGIONS)
        fresh.close()
        if live == reloaded:
            return
        lobby.wait_for_timeout(500)
    same_as_reload(lobby, LOBBY_REGIONS)


def caught_up(page, game: Game) -> None:
    """Wait until the live game page shows ``game`` as it is now (its poll carries the position)."""
    game.refresh_from_db()
    if game.is_active:
        page.wait_for_function(
            "(s) => (document.querySelector('#game-live')?.getAttribute('hx-get') || '').includes('seq=' + s + '&')",
            arg=game.last_seq,
            timeout=POLL_WAIT_MS,
        )
    else:
        page.wait_for_selector("#game-status >> text=The game is over.", timeout=POLL_WAIT_MS)


def test_each_step_of_a_game_shows_on_the_live_pages_as_a_reload_would(browser, live_server, settings):
    settings.HERALD_FORCED_MOVE_GRACE = 0
    alice_user = UserFactory.create(username="alice_live")
    bob_user = UserFactory.create(username="bob_live")
    alice = browser.new_context().new_page()
    bob = browser.new_context().new_page()
    sign_in(alice, live_server, alice_user.username)
    sign_in(bob, live_server, bob_user.username)

    # Alice creates the game on the page: "Game created." is shown once.
    alice.goto(f"{live_server.url}/games/new/?kind=dominion")
    alice.click("main form button[type=submit]")
    alice.wait_for_url(re.compile(r".*/games/\d+/$"))
    assert "Game created." in alice.inner_text("#messages")
    game = Game.objects.get(pk=int(re.search(r"/games/(\d+)/", alice.url).group(1)))
    # A reload would not show the message again (shown once); everything else is the same.
    same_as_reload(alice, [r for r in GAME_REGIONS if r != "messages"])

    # Bob watches his lobby in a second tab, and joins from the game page: the game starts.
    lobby = bob.context.new_page()
    lobby.goto(f"{live_server.url}/")
    bob.goto(f"{live_server.url}/games/{game.pk}/")
    bob.get_by_role("button", name="Join this game").click()
    bob.wait_for_selector("#game-board .supply")
    alice.wait_for_selector("#game-board .supply", timeout=POLL_WAIT_MS)
    assert "Game created." not in alice.inner_text("#messages")  # cleared by the update, as by a reload
    assert "Standing answers in this game" in alice.inner_text("#game-standing")  # arrived with the start
    pages = {alice_user.pk: alice, bob_user.pk: bob}
    caught_up(alice, game)
    same_as_reload(alice, GAME_REGIONS)
    assert "The game has started." in bob.inner_text("#messages")  # Bob's page was just drawn, with its message
    same_as_reload(bob, [r for r in GAME_REGIONS if r != "messages"])

    # A few turns by clicking; after each move both pages catch up by themselves and equal a reload.
    bob.fill("#chat-text", "good luck")
    bob.click("#game-chat button[type=submit]")
    for each in pages.values():  # the chat line reaches both pages by itself, apart from the moves
        each.wait_for_selector("#chat-messages >> text=good luck", timeout=POLL_WAIT_MS)
    for _turn in range(4):
        game.refresh_from_db()
        mover = game.seats.get(position=services.state_at(game).current).user
        page = pages[mover.pk]
        page.wait_for_selector("text=Play all Treasures", timeout=POLL_WAIT_MS)
        page.get_by_role("button", name="Play all Treasures").click()
        page.wait_for_selector("text=Play all Treasures", state="detached")
        for each in pages.values():
            caught_up(each, game)
            same_as_reload(each, GAME_REGIONS)
        page.get_by_role("button", name="End turn").click()
        page.wait_for_selector("#game-status >> text=Your move.", state="detached")
        for each in pages.values():
            caught_up(each, game)
            same_as_reload(each, GAME_REGIONS)
        # Bob's lobby follows whose move it is.
        game.refresh_from_db()
        bobs_move = game.seats.get(user=bob_user).position in game.to_act
        lobby.wait_for_function(
            "(mine) => document.querySelector('#lobby-lists').textContent"
            " .includes('No game is waiting for you.') !== mine",
            arg=bobs_move,
            timeout=POLL_WAIT_MS,
        )
        lobby_same_as_reload(lobby)

    # The rest is played through the services; the pages end the game by themselves, statistics included.
    rng = random.Random(1)
    users = {s.position: s.user for s in game.seats.select_related("user")}
    for _ in range(5000):
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            break
        state = services.state_at(game)
        seat = ENGINE.pending(state)[0].player
        move = ENGINE.bots["big_money"](ENGINE.player_view(state, seat), rng)
        services.game_submit_move(game_id=game.pk, user=users[seat], move=move, expected_seq=game.last_seq)
    assert game.status == Game.Status.FINISHED
    for page in pages.values():
        caught_up(page, game)
        page.wait_for_selector("#game-stats >> text=Statistics of this game", timeout=POLL_WAIT_MS)
        assert "Standing answers in this game" not in page.inner_text("main")
        same_as_reload(page, GAME_REGIONS)
    lobby.wait_for_function(
        "() => document.querySelector('#lobby-lists').textContent.includes('No game is waiting for you.')",
        timeout=POLL_WAIT_MS,
    )
    lobby_same_as_reload(lobby)
