"""Moderators' actions on games: abort (ratings reversed), adjudicate, forfeit, extend, pause, full log."""

from __future__ import annotations

from datetime import timedelta
from http import HTTPStatus

import pytest
from django.urls import reverse
from django.utils import timezone

from games import services as game_services
from games.models import Game
from moderation import services
from moderation.models import ModerationAction, Notice
from ratings.models import Rating, RatingChange
from ratings.services import rating_update, ratings_recompute
from tests.accounts.conftest import T0, finished_game
from tests.conftest import make_game
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

Kind = ModerationAction.Kind


def rated(users, ranks, at):
    game = finished_game(users, ranks, finished=at)
    rating_update(game=game)
    return game


def snapshot(users, kind="counter"):
    return {
        r.user_id: (r.mu, r.sigma, r.games, r.last_played) for r in Rating.objects.filter(user__in=users, kind=kind)
    }


def post_action(client, game, **data):
    return client.post(reverse("admin:games_game_moderate", args=[game.pk]), {"reason": "because", **data})


def test_aborting_the_latest_rated_game_restores_the_ratings(mod_client, moderator):
    a, b = UserFactory.create_batch(2)
    rated([a, b], [1, 2], T0)
    before = snapshot([a, b])
    game = rated([a, b], [2, 1], T0 + timedelta(days=1))
    assert snapshot([a, b]) != before

    response = post_action(mod_client, game, action="abort", confirm="1")

    assert response.status_code == HTTPStatus.FOUND
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED
    assert snapshot([a, b]) == before
    assert RatingChange.objects.filter(game=game, reversed__isnull=False).count() == 2  # kept, marked
    action = ModerationAction.objects.get()
    assert (action.action, action.moderator, action.game) == (Kind.GAME_ABORT, moderator, game)
    assert sorted(action.data["ratings_reversed"]) == sorted([a.pk, b.pk])
    assert ratings_recompute().mismatches == []
    assert Notice.objects.filter(user=a).exists()


def test_aborting_a_first_rated_game_removes_the_newcomers_ratings(moderator):
    a, b = UserFactory.create_batch(2)
    game = rated([a, b], [1, 2], T0)
    services.game_abort(moderator=moderator, game_id=game.pk, reason="collusion")
    assert not Rating.objects.filter(user__in=[a, b]).exists()
    assert ratings_recompute().mismatches == []


def test_aborting_an_older_game_replays_the_later_ones(moderator):
    a, b, c = UserFactory.create_batch(3)
    old = rated([a, b], [1, 2], T0)
    rated([b, c], [1, 2], T0 + timedelta(days=1))
    rated([a, c], [2, 1], T0 + timedelta(days=2))

    services.game_abort(moderator=moderator, game_id=old.pk, reason="cheating")

    report = ratings_recompute()
    assert report.mismatches == []
    assert report.games == 2
    assert Rating.objects.get(user=a).games == 1


def test_refunding_a_game_to_the_other_players_keeps_the_offenders_change(mod_client, moderator):
    cheat, victim = UserFactory.create_batch(2)
    before = snapshot([victim])
    game = rated([cheat, victim], [1, 2], T0)
    cheat_rating = snapshot([cheat])

    post_action(mod_client, game, action="refund", position=1)  # seat numbers from 1: the first seat

    assert snapshot([victim]) == before
    assert snapshot([cheat]) == cheat_rating
    assert ModerationAction.objects.get().action == Kind.RATING_REFUND
    assert ratings_recompute().mismatches == []
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED


def test_aborting_a_running_game_stops_its_clocks(mod_client, game):
    post_action(mod_client, game, action="abort", confirm="1")
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED
    assert game.deadline is None and not game.seats.filter(deadline__isnull=False).exists()
    assert ModerationAction.objects.filter(action=Kind.GAME_ABORT).count() == 1


def test_adjudicating_sets_the_ranks_and_rates_a_rated_game(mod_client, player, opponent, game):
    Game.objects.filter(pk=game.pk).update(rated=True)
    post_action(mod_client, game, action="adjudicate", ranks="2,1")
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert [s.rank for s in game.seats.order_by("position")] == [2, 1]
    assert RatingChange.objects.filter(game=game).count() == 2
    assert ModerationAction.objects.get().action == Kind.GAME_ADJUDICATE


def test_adjudicating_with_ranks_for_the_wrong_seats_is_refused(mod_client, game):
    response = post_action(mod_client, game, action="adjudicate", ranks="1")
    assert response.status_code == HTTPStatus.OK
    assert "Give every seat a rank" in response.content.decode()
    assert not ModerationAction.objects.exists()


def test_forfeiting_a_seat_of_a_two_player_game_ends_it(mod_client, game):
    post_action(mod_client, game, action="forfeit", position=1)  # seat numbers from 1: the first seat
    game.refresh_from_db()
    seat = game.seats.get(position=0)
    assert seat.forfeited and game.status == Game.Status.FINISHED
    assert game.seats.get(position=1).rank == 1
    action = ModerationAction.objects.get()
    assert (action.action, action.user_id) == (Kind.SEAT_FORFEIT, seat.user_id)


def test_forfeiting_a_seat_of_three_hands_it_to_a_bot(moderator, player, opponent, outsider):
    game = make_game(player, opponent, outsider)
    services.seat_forfeit(moderator=moderator, game_id=game.pk, position=1, reason="x")
    game.refresh_from_db()
    seat = game.seats.get(position=1)
    assert game.is_active and seat.forfeited and seat.bot


def test_a_seat_a_moderator_forfeited_is_called_that_in_the_emails_and_on_the_page(
    mod_client, moderator, player, opponent, outsider, client, django_capture_on_commit_callbacks
):
    """Not "ran out of time": the others are told a moderator forfeited the seat, when it happens and
    in the result, and the page's clocks say so too."""
    from django.core import mail

    game = make_game(player, opponent, outsider)
    late = game.seats.get(position=1).user
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.seat_forfeit(moderator=moderator, game_id=game.pk, position=1, reason="abuse")
    told = [m for m in mail.outbox if late.email not in m.to]
    assert told and all(f"A moderator forfeited {late.shown_name}'s seat" in m.subject for m in told), told
    client.force_login(player)
    page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert "forfeited by a moderator at" in page and "timed out at" not in page
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.seat_forfeit(moderator=moderator, game_id=game.pk, position=2, reason="abuse")
    over = [m.body for m in mail.outbox if "is over" in m.subject]
    assert over and all("(forfeited by a moderator)" in body and "ran out of time" not in body for body in over)


def test_extending_a_deadline_moves_it_back(mod_client, game):
    seat = game.seats.get(position=game.to_act[0])
    post_action(mod_client, game, action="extend", hours=24, position=seat.position + 1)  # seat numbers from 1
    old = seat.deadline
    seat.refresh_from_db()
    assert seat.deadline == old + timedelta(hours=24)
    game.refresh_from_db()
    assert game.deadline == seat.deadline
    assert ModerationAction.objects.get().action == Kind.DEADLINE_EXTEND


def test_an_open_game_page_shows_a_moderators_extension_and_pause_without_a_move(moderator, client, game):
    """The page's poll must notice a deadline that moved with no move made, or its clocks stay wrong."""
    mover = game.seats.get(position=game.to_act[0])
    client.force_login(mover.user)
    hx = {"HTTP_HX_REQUEST": "true"}
    poll = reverse("games:poll", args=[game.pk])
    for change in (
        lambda: services.deadline_extend(moderator=moderator, game_id=game.pk, by=timedelta(days=9), reason="x"),
        lambda: services.clocks_pause(
            moderator=moderator, game_id=game.pk, until=timezone.now() + timedelta(days=40), reason="x"
        ),
    ):
        cursor = client.get(reverse("games:detail", args=[game.pk])).context["cursor"]
        assert client.get(poll, {"seq": game.last_seq, "v": cursor}, **hx).status_code == HTTPStatus.NO_CONTENT
        change()
        mover.refresh_from_db()
        answer = client.get(poll, {"seq": game.last_seq, "v": cursor}, **hx)
        assert answer.status_code == HTTPStatus.OK
        assert mover.deadline.isoformat() in answer.content.decode()


def test_pausing_the_clocks_pushes_deadlines_past_the_pause(mod_client, game):
    seat = game.seats.get(position=game.to_act[0])
    left = seat.deadline - timezone.now()
    until = timezone.now() + timedelta(days=3)
    post_action(mod_client, game, action="pause", until=until.strftime("%Y-%m-%d %H:%M:%S"))
    seat.refresh_from_db()
    assert abs((seat.deadline - until) - left) < timedelta(seconds=5)
    assert ModerationAction.objects.get().action == Kind.CLOCKS_PAUSE


def test_the_full_log_shows_every_hidden_secret_and_is_logged(mod_client, moderator, game, player):
    game_services.game_submit_move(
        game_id=game.pk, user=game.seats.get(position=game.to_act[0]).user, move={"act": "add", "n": 1}, expected_seq=0
    )
    response = mod_client.get(reverse("admin:games_game_full_log", args=[game.pk]))
    assert response.status_code == HTTPStatus.OK
    html = response.content.decode()
    assert html.count("SECRET-") >= 2  # both seats' secrets, hidden from each other while the game runs
    assert '"add"' in html or "&quot;add&quot;" in html
    action = ModerationAction.objects.get()
    assert (action.action, action.moderator, action.game_id) == (Kind.LOG_VIEW, moderator, game.pk)


def test_a_moderator_cannot_open_the_hidden_log_of_a_running_game_they_play_in(moderator, player):
    game = make_game(moderator, player)
    with pytest.raises(services.ModerationError):
        services.game_full_log(moderator=moderator, game_id=game.pk)
    assert not ModerationAction.objects.exists()


def test_one_post_without_the_confirmation_does_not_abort_the_game(mod_client, game):
    """Abort cannot be undone: the form's first post asks again, and only the confirmed post aborts (no JavaScript)."""
    url = reverse("admin:games_game_moderate", args=[game.pk])
    first = mod_client.post(url, {"action": "abort", "reason": "collusion"})
    assert first.status_code == HTTPStatus.OK
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert not ModerationAction.objects.filter(action=Kind.GAME_ABORT).exists()
    page = first.content.decode()
    assert f"Abort game #{game.pk}?" in page and "collusion" in page
    # The confirmation carries the reason on, and a way back that changes nothing.
    assert 'name="confirm" value="1"' in page and 'value="collusion"' in page and url in page
    # A confirmation box that was not ticked is no confirmation either.
    assert mod_client.post(url, {"action": "abort", "reason": "collusion", "confirm": ""}).status_code == HTTPStatus.OK
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE

    confirmed = mod_client.post(url, {"action": "abort", "reason": "collusion", "confirm": "1"})
    assert confirmed.status_code == HTTPStatus.FOUND
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED
    assert ModerationAction.objects.get(action=Kind.GAME_ABORT).reason == "collusion"


def test_the_other_game_actions_need_no_second_post(mod_client, game):
    extend = post_action(mod_client, game, action="extend", hours=5, position=1)
    assert extend.status_code == HTTPStatus.FOUND
    assert ModerationAction.objects.filter(action=Kind.DEADLINE_EXTEND).count() == 1


@pytest.mark.parametrize(("language", "text"), [("zh-hant", "將被中止"), ("zh-hans", "将被中止")])
def test_the_abort_confirmation_is_in_the_moderators_language(mod_client, game, language, text):
    mod_client.cookies["django_language"] = language
    page = mod_client.post(reverse("admin:games_game_moderate", args=[game.pk]), {"action": "abort", "reason": "x"})
    assert text in page.content.decode()
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
