"""Move clocks, the timeout rule, warnings, vacations and bot seats (eager Celery, time travel)."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from correspondence import services as outbox
from correspondence.models import Notification
from games import services
from games.bots import timeout_bot
from games.clocks import seat_clocks
from games.engine.registry import get_engine
from games.models import Game, Seat
from tests.tasks.conftest import new_game, play, to_move

pytestmark = pytest.mark.django_db

DAY = timedelta(days=1)


def later(delta: timedelta) -> time_machine.travel:
    """Travel ``delta`` ahead of the real now (time keeps ticking)."""
    return time_machine.travel(timezone.now() + delta)


def test_a_clock_starts_when_a_seat_owes_and_stops_when_it_moved(users):
    game = new_game(users[0], users[1])
    first = game.seats.get(position=game.to_act[0])
    assert first.deadline is not None and first.owes_move
    assert first.deadline - first.clock_started == DAY
    assert first.warn_at - first.clock_started == DAY * 0.8
    play(game)
    first.refresh_from_db()
    assert first.deadline is None and first.warn_at is None and not first.owes_move
    other = game.seats.exclude(pk=first.pk).get()
    assert other.deadline is not None and other.clock_seq == 1


def test_two_player_forfeit_on_time_ends_the_game(users, commit):
    game = new_game(users[0], users[1])
    with commit():  # one move each: before their first move a timeout aborts the game (tests/web/test_move_0.py)
        play(game)
        play(game)
    game.refresh_from_db()
    mail.outbox.clear()
    late = to_move(game)
    with later(DAY + timedelta(minutes=1)), commit():
        assert outbox.sweep()["timeouts"] == 1
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    seat = game.seats.get(user=late)
    assert seat.forfeited and seat.timed_out is not None and seat.rank == 2
    assert game.seats.exclude(user=late).get().rank == 1
    # The winner gets one email, saying why the game ended and with the result; the late player "is over".
    winner = game.seats.exclude(user=late).get().user
    to_winner = [m for m in mail.outbox if winner.email in m.to]
    assert len(to_winner) == 1 and f"{late.shown_name} ran out of time in" in to_winner[0].subject
    assert "is over. The result:" in to_winner[0].body and "(ran out of time)" in to_winner[0].body
    assert [m.to for m in mail.outbox if "is over" in m.subject] == [[late.email]]


def test_three_player_forfeit_ranks_last_and_a_bot_finishes_the_seat(users, commit, settings):
    # The bot that takes over adds 1 like the others, so the seats reach the target in turn order.
    settings.HERALD_TIMEOUT_BOT_LEVEL = "first"
    game = new_game(users[0], users[1], users[2], target=30)
    with commit():  # one move each: before their first move a timeout aborts the game
        for _ in range(3):
            play(game)
    game.refresh_from_db()
    late = to_move(game)
    with later(DAY + timedelta(minutes=1)):
        with commit():
            outbox.sweep()
        game.refresh_from_db()
        assert game.is_active
        seat = game.seats.get(user=late)
        assert seat.forfeited and seat.bot == "first" and seat.user == late  # settings.HERALD_TIMEOUT_BOT_LEVEL
        # The bot moved for the late seat; the others play on to the end.
        assert seat.position not in game.to_act
        for _ in range(60):
            game.refresh_from_db()
            if not game.is_active:
                break
            with commit():
                play(game, 1)
    game.refresh_from_db()
    assert game.is_finished
    ranks = {s.user_id: s.rank for s in game.seats.all()}
    assert ranks[late.pk] == 3
    assert sorted(ranks.values()) == [1, 2, 3]
    # Only the late seat is marked, and the page can say when it timed out.
    assert [c.timed_out is not None for c in seat_clocks(game, timezone.now())].count(True) == 1


def test_an_out_of_turn_decision_past_its_deadline_is_answered_by_the_bot(users, commit):
    game = new_game(users[0], users[1], users[2], kind="ackcounter", target=30)
    play(game, 1)  # total 1 is odd: a seat now owes an out-of-turn ack
    game.refresh_from_db()
    (acker,) = game.to_act
    with later(DAY + timedelta(minutes=1)), commit():
        assert outbox.sweep()["timeouts"] == 1
    game.refresh_from_db()
    seat = game.seats.get(position=acker)
    assert game.is_active and not seat.forfeited and seat.bot == ""
    assert game.actions.get(seq=2).seat == acker and game.actions.get(seq=2).move == {"act": "ack"}


@pytest.mark.parametrize("kind", ["dominion", "domaine", "counter"])
def test_a_late_players_answers_come_from_the_level_the_site_sets(kind):
    """``settings.HERALD_TIMEOUT_BOT_LEVEL`` (default level 3, the heuristic player), whatever the game."""
    assert timeout_bot(get_engine(kind)) == "level3"


@pytest.mark.parametrize(("kind", "bot"), [("dominion", "smart"), ("domaine", "greedy"), ("counter", "first")])
def test_without_that_level_the_bot_the_game_names_answers_else_its_first(kind, bot, settings):
    """Each game's ``GameKind.timeout_bot`` (neither is its engine's first bot); counter names none: its first."""
    settings.HERALD_TIMEOUT_BOT_LEVEL = "level9"
    assert timeout_bot(get_engine(kind)) == bot
    assert next(iter(get_engine(kind).bots)) != bot or kind == "counter"


def test_the_80_percent_warning_is_sent_once_per_move(users, commit):
    game = new_game(users[0], users[1])
    late = to_move(game)
    with later(DAY * 0.81), commit():
        outbox.sweep()
        outbox.sweep()
    warnings = [m for m in mail.outbox if "running out of time" in m.subject]
    assert [m.to for m in warnings] == [[late.email]]
    assert Notification.objects.filter(kind="time_low").count() == 1


def test_one_busy_game_does_not_keep_the_sweep_from_warning_the_others(users, commit, monkeypatch):
    """A game whose row another request holds (LockTimeout) is skipped this minute, not the whole step."""
    from games import clocks, locking

    busy, calm = new_game(users[0], users[1]), new_game(users[2], users[3])
    real_lock = locking.lock_game

    def lock_game(game_id, **kwargs):
        if game_id == busy.pk:
            raise locking.LockTimeout(f"game {game_id} is busy")
        return real_lock(game_id, **kwargs)

    monkeypatch.setattr(clocks, "lock_game", lock_game)
    with later(DAY * 0.81), commit():
        counts = outbox.sweep()
    assert counts["warnings"] == 1
    warned = [m.to for m in mail.outbox if "running out of time" in m.subject]
    assert warned == [[to_move(calm).email]]
    monkeypatch.setattr(clocks, "lock_game", real_lock)
    with later(DAY * 0.82), commit():
        assert outbox.sweep()["warnings"] == 1  # the busy one, once free


def test_a_vacation_pauses_the_clock(users, commit):
    game = new_game(users[0], users[1])
    late = to_move(game)
    before = game.seats.get(user=late).deadline
    outbox.vacation_start(user=late, days=3)
    seat = game.seats.get(user=late)
    assert seat.deadline - before >= timedelta(days=3) - timedelta(seconds=5)
    (theirs, mine) = sorted(seat_clocks(game, timezone.now()), key=lambda c: c.seat.user_id != late.pk)
    assert theirs.vacation_until is not None
    with later(DAY + timedelta(hours=1)), commit():
        assert outbox.sweep()["timeouts"] == 0
    with later(DAY * 4 + timedelta(hours=1)), commit():
        assert outbox.sweep()["timeouts"] == 1
    assert game.seats.get(user=late).forfeited


def test_coming_back_early_gives_the_unused_days_back(users):
    game = new_game(users[0], users[1])
    late = to_move(game)
    before = game.seats.get(user=late).deadline
    outbox.vacation_start(user=late, days=5)
    with later(DAY):
        outbox.vacation_end(user=late)
        after = game.seats.get(user=late).deadline
    assert abs(after - (before + DAY)) < timedelta(minutes=1)
    assert outbox.vacation_days_used(late, timezone.now().year) == 1


def test_vacation_days_are_limited_per_year(users):
    outbox.vacation_start(user=users[0], days=10)
    outbox.vacation_end(user=users[0])
    with pytest.raises(outbox.VacationError):
        outbox.vacation_start(user=users[0], days=14)


def test_a_fischer_bank_keeps_the_rest_plus_the_increment(users):
    game = new_game(users[0], users[1], clock=Game.Clock.FISCHER, time_per_move=DAY * 7, increment=DAY)
    first = to_move(game)
    with later(DAY * 3):
        play(game)
    seat = game.seats.get(user=first)
    assert abs(seat.bank - DAY * 5) < timedelta(minutes=1)
    # The bank never grows past the start.
    second = to_move(game)
    with later(DAY * 3 + timedelta(minutes=5)):
        play(game)
    assert game.seats.get(user=second).bank == DAY * 7


def test_a_bot_seat_plays_its_turns_to_the_end(users, commit):
    with commit():
        game = new_game(users[0], bots=("first",), target=20)
    for _ in range(30):
        game.refresh_from_db()
        if not game.is_active:
            break
        seat = game.seats.get(position=game.to_act[0])
        assert seat.user == users[0], "the bot moved on its own"
        with commit():
            play(game, 1)
    game.refresh_from_db()
    assert game.is_finished
    bot_moves = game.actions.filter(seat=game.seats.get(user=None).position).count()
    assert bot_moves >= 9


def test_a_lost_bot_task_is_retried_by_the_sweep(users, commit):
    game = new_game(users[0], bots=("first",))
    game.refresh_from_db()
    if game.seats.get(position=game.to_act[0]).user is not None:
        play(game)  # no commit callbacks: the bot's task is never queued
    game.refresh_from_db()
    bot = game.seats.get(user=None)
    assert bot.position in game.to_act
    with later(timedelta(minutes=3)), commit():
        outbox.sweep()
    game.refresh_from_db()
    assert bot.position not in game.to_act


def test_games_with_bots_from_the_start_are_never_rated(users):
    with pytest.raises(services.InvalidOptions):
        services.game_create(
            creator=users[0],
            kind="counter",
            options={},
            players=2,
            rated=True,
            private=False,
            time_per_move=DAY,
            bots=["first"],
        )


def test_the_timeout_sweep_query_uses_the_deadline_index(users):
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("EXPLAIN checked on PostgreSQL only")
    # On a test table of a few rows the planner may rightly prefer a scan; with
    # scans priced out, it must still answer the query from indexes alone
    # (the deadline index, or the active games' seats), never reading every row.
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
    plan = Seat.objects.filter(deadline__lte=timezone.now(), game__status="active").explain()
    assert "Seq Scan" not in plan, plan
    # And the deadline itself has its index (the sweep's filter on seats).
    assert "seat_deadline_idx" in Seat.objects.filter(deadline__lte=timezone.now()).explain()


def test_the_game_page_and_lobby_show_time_left_and_who_timed_out(users, client):
    game = new_game(users[0], users[1])
    client.force_login(users[0])
    page = client.get(reverse("games:detail", kwargs={"game_id": game.pk})).content.decode()
    assert "left" in page and 'class="clocks"' in page
    assert 'class="clocks"' in client.get(reverse("games:lobby")).content.decode()
    with later(DAY + timedelta(minutes=1)):
        outbox.sweep()
    page = client.get(reverse("games:detail", kwargs={"game_id": game.pk})).content.decode()
    assert "timed out at" in page


@pytest.mark.parametrize("away", [timedelta(0), timedelta(minutes=5)])
def test_the_page_that_ends_a_vacation_no_longer_shows_it(client, away):
    """Coming back at once, or after a while: the settings page shows no vacation any more."""
    from django.urls import reverse

    from tests.factories import UserFactory

    user = UserFactory.create()
    client.force_login(user)
    page = client.post(reverse("correspondence:vacation_start"), {"days": 2}, follow=True)
    assert "You are on vacation" in page.content.decode()
    with time_machine.travel(timezone.now() + away):
        page = client.post(reverse("correspondence:vacation_end"), follow=True)
    assert "You are on vacation" not in page.content.decode()
