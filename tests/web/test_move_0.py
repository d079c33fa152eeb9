"""Move 0 (issue 33): a game a player leaves before making a move of their own is aborted, as on lichess.

Resigned or timed out at move 0 (``games.leaving.at_move_0``), the game has
no result, is not rated, and stays out of the statistics and of every rating
history; the page and the others' email say so. A player who has moved, a
moderator's forfeit and a tournament's table keep the forfeit rule, rated.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games import services
from games.autoplay import game_timeout
from games.leaving import at_move_0
from games.models import Game, Seat
from moderation.game_actions import seat_forfeit
from ratings.models import Rating, RatingChange
from stats.models import GameStats
from stats.services import stats_catch_up
from tests.conftest import user_to_move, user_waiting
from tests.factories import UserFactory

pytestmark = [pytest.mark.usefixtures("site_test"), pytest.mark.django_db]


@pytest.fixture
def moderator_user() -> User:
    return UserFactory.create(is_staff=True, is_superuser=True)


def rated_game(*users: User) -> Game:
    game = services.game_create(
        creator=users[0],
        kind="counter",
        options={"target": 10},
        players=len(users),
        rated=True,
        private=False,
        time_per_move=timedelta(days=1),
    )
    for user in users[1:]:
        services.game_join(game_id=game.pk, user=user)
    return Game.objects.get(pk=game.pk)


def resign(client, game: Game, user: User) -> None:
    client.force_login(user)
    client.post(reverse("games:resign", args=[game.pk]), {"confirm": "1"})


def test_resigning_before_anyone_moved_aborts_the_game_unrated_and_the_page_says_so(
    client, django_capture_on_commit_callbacks
):
    a, b = UserFactory.create_batch(2)
    game = rated_game(a, b)
    quitter = user_to_move(game)
    other = user_waiting(game)
    mail.outbox.clear()

    with django_capture_on_commit_callbacks(execute=True):
        resign(client, game, quitter)

    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED and game.cancel_reason == "move_0" and game.aborted_at_move_0
    assert not RatingChange.objects.exists() and not Rating.objects.exists()
    stats_catch_up()
    assert not GameStats.objects.exists()
    assert list(game.seats.values_list("rank", flat=True)) == [None, None]
    seat = game.seats.get(user=quitter)
    assert seat.forfeited and seat.resigned  # who left, and how, is kept
    page = client.get(game.get_absolute_url()).content.decode()
    assert "This game was aborted" in page and "is not rated" in page and "resigned at" in page
    assert "The game is over" not in page and "Resign…" not in page
    to_other = [m for m in mail.outbox if other.email in m.to]
    assert len(to_other) == 1 and "resigned" in to_other[0].subject
    assert "is aborted" in to_other[0].body and "is over" not in to_other[0].body


def test_timing_out_before_ones_first_move_aborts_the_game_though_the_other_moved():
    a, b = UserFactory.create_batch(2)
    game = rated_game(a, b)
    mover = user_to_move(game)
    services.game_submit_move(game_id=game.pk, user=mover, move={"act": "add", "n": 1}, expected_seq=0)
    game.refresh_from_db()
    late = game.seats.get(position=game.to_act[0])
    assert at_move_0(game, late) and not at_move_0(game, game.seats.get(user=mover))
    Seat.objects.filter(pk=late.pk).update(deadline=timezone.now() - timedelta(seconds=1))

    assert game_timeout(game_id=game.pk, position=late.position) == "forfeited"

    game.refresh_from_db()
    assert game.aborted_at_move_0 and not RatingChange.objects.exists()
    assert game.seats.get(pk=late.pk).timed_out is not None  # the matcher still counts the timeout


def test_a_player_who_moved_and_resigns_loses_rated_though_the_other_has_not_moved(client):
    a, b = UserFactory.create_batch(2)
    game = rated_game(a, b)
    mover = user_to_move(game)
    services.game_submit_move(game_id=game.pk, user=mover, move={"act": "add", "n": 1}, expected_seq=0)

    resign(client, game, mover)

    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.cancel_reason == ""
    assert set(RatingChange.objects.filter(game=game).values_list("user_id", flat=True)) == {a.pk, b.pk}
    assert game.seats.get(user=mover).rank == 2


def test_with_more_players_one_leaving_at_move_0_aborts_the_whole_game(client):
    a, b, c = UserFactory.create_batch(3)
    game = rated_game(a, b, c)
    mover = user_to_move(game)
    services.game_submit_move(game_id=game.pk, user=mover, move={"act": "add", "n": 1}, expected_seq=0)
    game.refresh_from_db()
    unmoved = game.seats.exclude(user=mover).exclude(position__in=game.to_act).get()

    resign(client, game, unmoved.user)

    game.refresh_from_db()
    assert game.aborted_at_move_0 and not game.seats.exclude(bot="").exists()  # no bot plays on in it


def test_a_moderators_forfeit_at_move_0_is_kept_as_a_forfeit(moderator_user):
    a, b = UserFactory.create_batch(2)
    game = rated_game(a, b)
    banned = user_to_move(game)
    seat_forfeit(moderator=moderator_user, game_id=game.pk, position=game.to_act[0], reason="")
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.seats.get(user=banned).rank == 2
