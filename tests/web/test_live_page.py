"""A live page equals a reloaded page (issue 28, part 4): messages are shown once and cleared by the next
update; the regions that appear as a game starts or ends (standing answers, statistics) arrive with the
update; the lobby's own lists update by themselves. The browser test (tests/browser/test_live_equals_reload.py)
compares whole regions step by step; these pin each rule on the server's answers."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.models import Game
from stats.models import GameStats
from stats.services import stats_record_game
from tests.conftest import make_game, user_to_move
from tests.stats.conftest import counter_without_stats, play_game  # noqa: F401 - a fixture

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}


@pytest.fixture(autouse=True)
def _site(site_test):
    """The counter engine and a clean cache."""


def _signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _oob(html: str, element_id: str) -> str | None:
    """The out-of-band element ``element_id`` of an htmx answer (its whole tag and content), or None."""
    found = re.search(rf'<div id="{element_id}"[^>]*hx-swap-oob="true"[^>]*>(.*?)</div>\s*(?=<div id=|$)', html, re.S)
    return found.group(0) if found else None


def _poll(client: Client, game: Game, cursor: str):
    params: dict[str, str | int] = {"seq": game.last_seq, "v": cursor}
    return client.get(reverse("games:poll", args=[game.pk]), params, headers=HX)


def test_a_message_is_shown_once_and_the_next_update_clears_it(player, opponent):
    game = services.game_create(
        creator=player,
        kind="counter",
        options={"target": 10},
        players=2,
        rated=False,
        private=False,
        time_per_move=timedelta(days=1),
    )
    bob = _signed_in(opponent)
    joined = bob.post(reverse("games:join", args=[game.pk]), follow=True)
    assert "The game has started." in joined.content.decode()
    cursor = joined.context["cursor"]
    game.refresh_from_db()
    services.game_submit_move(game_id=game.pk, user=user_to_move(game), move={"act": "add", "n": 1}, expected_seq=0)
    update = bob.get(reverse("games:poll", args=[game.pk]), {"seq": 0, "v": cursor}, headers=HX).content.decode()
    messages = _oob(update, "messages")
    assert messages is not None and "The game has started." not in messages
    assert "The game has started." not in bob.get(game.get_absolute_url()).content.decode()


def test_a_message_added_since_the_page_was_drawn_comes_once_with_the_update(player, opponent):
    """A message waiting in the session (a plain post in another tab) is shown by the next update, then gone."""
    game = make_game(player, opponent)
    alice = _signed_in(player)
    cursor = alice.get(game.get_absolute_url()).context["cursor"]
    alice.post(reverse("games:resign", args=[game.pk]), {})  # refused (box not ticked): a message, a redirect
    services.game_submit_move(game_id=game.pk, user=user_to_move(game), move={"act": "add", "n": 1}, expected_seq=0)
    first = _oob(_poll(alice, Game.objects.get(pk=game.pk), cursor).content.decode(), "messages")
    assert first is not None and "Tick the box" in first
    again = alice.get(game.get_absolute_url()).content.decode()
    assert "Tick the box" not in again


def test_the_standing_answers_arrive_with_the_update_that_starts_the_game(player, opponent):
    game = services.game_create(
        creator=player,
        kind="dominion",
        options={"kingdom": "First Game"},
        players=2,
        rated=False,
        private=False,
        time_per_move=timedelta(days=1),
    )
    alice = _signed_in(player)
    page = alice.get(game.get_absolute_url())
    html = page.content.decode()
    assert '<div id="game-standing"' in html and "Standing answers in this game" not in html
    services.game_join(game_id=game.pk, user=opponent)
    game.refresh_from_db()
    update = alice.get(
        reverse("games:poll", args=[game.pk]), {"seq": 0, "v": page.context["cursor"]}, headers=HX
    ).content.decode()
    standing = _oob(update, "game-standing")
    assert standing is not None and "Standing answers in this game" in standing
    assert "Standing answers in this game" in alice.get(game.get_absolute_url()).content.decode()
    # The next update, with the game running as the page knows it, leaves the form alone (a half-filled one too).
    cursor = alice.get(game.get_absolute_url()).context["cursor"]
    services.game_submit_move(
        game_id=game.pk, user=user_to_move(game), move={"act": "end_actions"}, expected_seq=game.last_seq
    )
    game.refresh_from_db()
    assert _oob(_poll(alice, game, cursor).content.decode(), "game-standing") is None


def test_the_statistics_arrive_with_the_update_that_ends_the_game_and_ask_again_until_measured(player, opponent):
    game = play_game([player, opponent], rated=False)
    GameStats.objects.filter(game=game).delete()  # the measuring task has not run yet
    alice = _signed_in(player)
    update = _poll(alice, game, "active.2.--.00000000.hh").content.decode()
    stats = _oob(update, "game-stats")
    assert stats is not None and 'hx-select="#game-stats"' in stats  # it asks again a moment later
    standing = _oob(update, "game-standing")
    assert standing is not None and "Standing answers" not in standing  # gone with the game
    reload = alice.get(game.get_absolute_url()).content.decode()
    assert 'hx-select="#game-stats"' in reload
    stats_record_game(game_id=game.pk)
    measured = alice.get(game.get_absolute_url(), headers=HX).content.decode()
    assert "Statistics of this game" in measured and 'hx-select="#game-stats"' not in measured


@pytest.mark.usefixtures("counter_without_stats")
def test_a_game_without_statistics_that_ended_never_asks_for_them(player, opponent):
    game = make_game(player, opponent)  # a counter game, here with no statistics part
    for _ in range(20):
        game.refresh_from_db()
        if not game.is_active:
            break
        services.game_submit_move(
            game_id=game.pk, user=user_to_move(game), move={"act": "add", "n": 1}, expected_seq=game.last_seq
        )
    assert 'hx-select="#game-stats"' not in _signed_in(player).get(game.get_absolute_url()).content.decode()


def test_the_lobby_lists_update_when_a_move_makes_it_your_move(player, opponent):
    game = make_game(player, opponent)
    waiting = game.seats.exclude(position=game.to_act[0]).get().user
    lobby = _signed_in(waiting)
    page = lobby.get(reverse("games:lobby"))
    cursor = page.context["lobby_cursor"]
    assert "No game is waiting for you." in page.content.decode()
    again = lobby.get(reverse("games:lobby"), {"v": cursor}, headers=HX)
    assert again.status_code == 204
    services.game_submit_move(game_id=game.pk, user=user_to_move(game), move={"act": "add", "n": 1}, expected_seq=0)
    update = lobby.get(reverse("games:lobby"), {"v": cursor}, headers=HX)
    html = update.content.decode()
    assert update.status_code == 200 and html.lstrip().startswith('<div id="lobby-lists"')
    assert "No game is waiting for you." not in html and f"/games/{game.pk}/" in html
    assert _oob(html, "messages") is not None


def test_the_lobby_lists_update_when_an_open_game_appears_or_is_invited(player, opponent, outsider):
    lobby = _signed_in(outsider)
    cursor = lobby.get(reverse("games:lobby")).context["lobby_cursor"]
    services.game_create(
        creator=player,
        kind="counter",
        options={"target": 10},
        players=3,
        rated=False,
        private=True,
        invited=[outsider],
        time_per_move=timedelta(days=1),
    )
    update = lobby.get(reverse("games:lobby"), {"v": cursor}, headers=HX)
    assert update.status_code == 200 and "Invitations" in update.content.decode()
