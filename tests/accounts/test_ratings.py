"""Rating updates: openskill Plackett-Luce on finishing ranks, exactly once, recomputable."""

from __future__ import annotations

import math
from datetime import timedelta

import pytest
from django.core.management import call_command
from openskill.models import PlackettLuce

from games import services
from games.models import Game, Seat
from ratings.models import Rating, RatingChange
from ratings.services import (
    display_rating,
    inflate_sigma,
    rating_ranks,
    rating_update,
    ratings_recompute,
)
from tests.accounts.conftest import T0, finished_game
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def fresh_model() -> PlackettLuce:
    """The library's model with its default parameters (which are Herald's)."""
    return PlackettLuce()


def changes_by_user(game: Game) -> dict[int, RatingChange]:
    return {rc.user_id: rc for rc in RatingChange.objects.filter(game=game)}


def test_four_player_game_matches_openskill_directly():
    users = UserFactory.create_batch(4)
    game = finished_game(users, [2, 1, 4, 3], finished=T0)
    rating_update(game=game)

    m = fresh_model()
    expected = m.rate([[m.rating()] for _ in users], ranks=[2, 1, 4, 3])
    got = changes_by_user(game)
    for user, [exp] in zip(users, expected, strict=True):
        rc = got[user.pk]
        assert rc.mu_before == 25.0
        assert rc.sigma_before == 25.0 / 3.0
        assert rc.mu_after == pytest.approx(exp.mu, abs=1e-12)
        assert rc.sigma_after == pytest.approx(exp.sigma, abs=1e-12)
        assert rc.display_after == display_rating(exp.mu, exp.sigma)
        rating = Rating.objects.get(user=user, kind="counter")
        assert (rating.mu, rating.sigma, rating.games, rating.last_played) == (rc.mu_after, rc.sigma_after, 1, T0)
    # The winner gains, the last loses; a newcomer starts at 1500.
    assert got[users[1].pk].display_before == 1500
    assert got[users[1].pk].delta > 0 > got[users[2].pk].delta


def test_a_second_game_starts_from_the_first_and_uses_only_ranks():
    a, b, c = UserFactory.create_batch(3)
    g1 = finished_game([a, b, c], [1, 2, 3], finished=T0)
    g2 = finished_game([c, a, b], [1, 3, 2], finished=T0 + timedelta(hours=1))
    rating_update(game=g1)
    rating_update(game=g2)

    m = fresh_model()
    [[a1], [b1], [c1]] = m.rate([[m.rating()], [m.rating()], [m.rating()]], ranks=[1, 2, 3])
    # One hour idle grows sigma a little before the second game.
    before = [(r.mu, inflate_sigma(r.sigma, T0, T0 + timedelta(hours=1))) for r in (c1, a1, b1)]
    [[c2], [a2], [b2]] = m.rate([[m.create_rating(list(x))] for x in before], ranks=[1, 3, 2])
    got = changes_by_user(g2)
    assert got[c.pk].mu_after == pytest.approx(c2.mu, abs=1e-12)
    assert got[a.pk].sigma_after == pytest.approx(a2.sigma, abs=1e-12)
    assert got[b.pk].mu_before == b1.mu
    assert Rating.objects.get(user=a).games == 2


def test_scores_do_not_matter_only_ranks():
    users = UserFactory.create_batch(2)
    others = UserFactory.create_batch(2)
    close = finished_game(users, [1, 2], finished=T0)
    close.seats.filter(position=0).update(score=31)
    close.seats.filter(position=1).update(score=30)
    rout = finished_game(others, [1, 2], finished=T0)
    rout.seats.filter(position=0).update(score=60)
    rout.seats.filter(position=1).update(score=2)
    rating_update(game=close)
    rating_update(game=rout)
    assert changes_by_user(close)[users[0].pk].mu_after == changes_by_user(rout)[others[0].pk].mu_after


def test_ties_share_a_rank_and_a_result():
    users = UserFactory.create_batch(3)
    game = finished_game(users, [1, 1, 3], finished=T0)
    rating_update(game=game)
    got = changes_by_user(game)
    assert got[users[0].pk].rank == got[users[1].pk].rank == 1
    assert got[users[0].pk].mu_after == got[users[1].pk].mu_after
    m = fresh_model()
    expected = m.rate([[m.rating()] for _ in users], ranks=[1, 1, 3])
    assert got[users[2].pk].mu_after == pytest.approx(expected[2][0].mu, abs=1e-12)


def test_two_player_draw_changes_nothing_but_sigma():
    a, b = UserFactory.create_batch(2)
    game = finished_game([a, b], [1, 1], finished=T0)
    rating_update(game=game)
    got = changes_by_user(game)
    assert got[a.pk].mu_after == pytest.approx(25.0)
    assert got[a.pk].sigma_after < 25.0 / 3.0


def test_a_finisher_without_a_rank_is_refused_by_name_and_the_game_is_not_rated():
    a, b = UserFactory.create_batch(2)
    game = finished_game([a, b], [1, 2], finished=T0)
    Seat.objects.filter(game=game, position=1).update(rank=None)
    seats = list(game.seats.order_by("position"))
    with pytest.raises(ValueError, match="has no rank"):
        rating_ranks(seats)
    assert rating_update(game=game) == []


def test_forfeits_are_ranked_last_whatever_the_engine_said():
    users = UserFactory.create_batch(4)
    # Seat 0 timed out while leading; seat 3 resigned.
    game = finished_game(users, [1, 2, 2, 4], finished=T0, forfeited=(0, 3))
    seats = list(game.seats.order_by("position"))
    # Both forfeits after the two who finished; between them, their own order.
    assert rating_ranks(seats) == [3, 1, 1, 4]
    rating_update(game=game)
    got = changes_by_user(game)
    assert got[users[0].pk].rank == 3
    # openskill 6.2's Plackett-Luce gives the seat just below a tie the tied
    # seats' mu (upstream vivekjoshy/openskill.py#155, #201); so compare with
    # the last seat only, and pin the library so history stays reproducible.
    assert got[users[3].pk].mu_after < got[users[0].pk].mu_after <= got[users[1].pk].mu_after
    m = fresh_model()
    expected = m.rate([[m.rating()] for _ in users], ranks=[3, 1, 1, 4])
    assert got[users[0].pk].mu_after == pytest.approx(expected[0][0].mu, abs=1e-12)


def test_rating_twice_changes_nothing():
    users = UserFactory.create_batch(3)
    game = finished_game(users, [1, 2, 3], finished=T0)
    first = rating_update(game=game)
    snapshot = list(Rating.objects.order_by("pk").values_list("mu", "sigma", "games"))
    again = rating_update(game=game)
    assert [rc.pk for rc in again] == [rc.pk for rc in first]
    assert RatingChange.objects.count() == 3
    assert list(Rating.objects.order_by("pk").values_list("mu", "sigma", "games")) == snapshot


@pytest.mark.parametrize(
    "kwargs",
    [
        {"rated": False},
        {"bots": ("first",)},
        {"status": Game.Status.ABORTED},
    ],
    ids=["casual", "bots", "aborted"],
)
def test_casual_bot_and_aborted_games_are_not_rated(kwargs):
    users = UserFactory.create_batch(2)
    game = finished_game(users, [1, 2], finished=T0, **kwargs)
    assert rating_update(game=game) == []
    assert not Rating.objects.exists()
    assert not RatingChange.objects.exists()


def test_finishing_a_rated_game_rates_it_in_the_same_transaction():
    a, b = UserFactory.create_batch(2)
    game = services.game_create(
        creator=a,
        kind="counter",
        options={"target": 3},
        players=2,
        rated=True,
        private=False,
        time_per_move=timedelta(days=1),
    )
    services.game_join(game_id=game.pk, user=b)
    game.refresh_from_db()
    mover = game.seats.get(position=game.to_act[0]).user
    services.game_submit_move(game_id=game.pk, user=mover, move={"act": "add", "n": 3}, expected_seq=0)
    game.refresh_from_db()
    assert game.is_finished
    got = changes_by_user(game)
    assert set(got) == {a.pk, b.pk}
    assert got[mover.pk].rank == 1
    assert got[mover.pk].at == game.finished
    assert Rating.objects.get(user=mover).games == 1


def test_a_casual_game_finishing_writes_no_rating(game):
    mover = game.seats.get(position=game.to_act[0]).user
    # The conftest game is casual with target 10: play it out.
    while not game.is_finished:
        mover = game.seats.get(position=game.to_act[0]).user
        services.game_submit_move(game_id=game.pk, user=mover, move={"act": "add", "n": 1}, expected_seq=game.last_seq)
        game.refresh_from_db()
    assert not RatingChange.objects.exists()


def test_inactivity_grows_sigma_up_to_a_newcomers():
    assert inflate_sigma(2.0, T0, T0) == 2.0
    assert inflate_sigma(2.0, None, T0) == 2.0
    assert inflate_sigma(2.0, T0, T0 + timedelta(days=100)) == pytest.approx(math.sqrt(4 + 0.15**2 * 100))
    assert inflate_sigma(2.0, T0, T0 + timedelta(days=100_000)) == pytest.approx(25.0 / 3.0)
    # Never shrinks, even if sigma was above a newcomer's.
    assert inflate_sigma(9.0, T0, T0 + timedelta(days=10)) == 9.0


def test_inactivity_is_applied_before_the_next_game():
    a, b = UserFactory.create_batch(2)
    rating_update(game=finished_game([a, b], [1, 2], finished=T0))
    after_first = Rating.objects.get(user=a).sigma
    g2 = finished_game([a, b], [1, 2], finished=T0 + timedelta(days=60))
    rating_update(game=g2)
    rc = changes_by_user(g2)[a.pk]
    assert rc.sigma_before == pytest.approx(math.sqrt(after_first**2 + 0.15**2 * 60))


def play_history() -> None:
    """Several ladders, player counts, ties, forfeits, gaps and an unrated game."""
    users = UserFactory.create_batch(5)
    a, b, c, d, e = users
    plan = [
        ([a, b], [1, 2], (), 0),
        ([a, b, c], [2, 1, 3], (), 1),
        ([c, d, e, a], [1, 1, 3, 4], (), 3),
        ([b, e], [1, 2], (0,), 40),
        ([a, c, d], [1, 2, 3], (), 41),
        ([d, e, b, c], [4, 3, 2, 1], (1,), 200),
    ]
    for seats, ranks, forfeited, day in plan:
        rating_update(
            game=finished_game(seats, ranks, finished=T0 + timedelta(days=day, minutes=7), forfeited=forfeited)
        )
    rating_update(game=finished_game([a, b], [1, 2], finished=T0 + timedelta(days=2), kind="other"))
    finished_game([a, e], [1, 2], finished=T0 + timedelta(days=5), rated=False)


def test_recompute_reproduces_the_stored_values_exactly():
    play_history()
    stored_changes = list(RatingChange.objects.order_by("game_id", "user_id").values())
    stored_ratings = list(
        Rating.objects.order_by("kind", "user_id").values("kind", "user_id", "mu", "sigma", "games", "last_played")
    )

    report = ratings_recompute()
    assert report.mismatches == []
    assert report.games == 7
    assert report.changes == len(stored_changes)

    report = ratings_recompute(write=True)
    assert report.written and report.mismatches == []
    after = list(RatingChange.objects.order_by("game_id", "user_id").values())
    strip = lambda rows: [{k: v for k, v in r.items() if k != "id"} for r in rows]  # noqa: E731
    assert strip(after) == strip(stored_changes)
    assert (
        list(
            Rating.objects.order_by("kind", "user_id").values("kind", "user_id", "mu", "sigma", "games", "last_played")
        )
        == stored_ratings
    )


def test_recompute_reports_and_repairs_a_tampered_rating():
    play_history()
    Rating.objects.filter(pk=Rating.objects.first().pk).update(mu=99.0)
    report = ratings_recompute()
    assert len(report.mismatches) == 1
    ratings_recompute(write=True)
    assert ratings_recompute().mismatches == []


def test_the_management_command_checks_and_writes(capsys):
    play_history()
    call_command("recompute_ratings")
    out = capsys.readouterr().out
    assert "match" in out
    call_command("recompute_ratings", "--write")
    assert "written" in capsys.readouterr().out
    RatingChange.objects.filter(pk=RatingChange.objects.first().pk).update(display_after=1)
    with pytest.raises(SystemExit):
        call_command("recompute_ratings")


def test_forfeited_seats_without_a_rank_share_the_last_place():
    users = UserFactory.create_batch(4)
    game = finished_game(users, [1, 2, 3, 4], finished=T0, forfeited=(0, 1))
    game.seats.filter(position__in=[0, 1]).update(rank=None)
    assert rating_ranks(list(game.seats.order_by("position"))) == [3, 3, 1, 2]
    assert {rc.rank for rc in rating_update(game=game)} == {1, 2, 3}


def test_a_forfeited_seat_played_out_by_a_bot_still_counts_for_its_player():
    users = UserFactory.create_batch(3)
    game = finished_game(users, [2, 1, 3], finished=T0, forfeited=(0,))
    game.seats.filter(position=0).update(bot="first")
    changes = changes_by_user(game) or {rc.user_id: rc for rc in rating_update(game=game)}
    assert changes[users[0].pk].rank == 3
    assert changes[users[2].pk].rank == 2
