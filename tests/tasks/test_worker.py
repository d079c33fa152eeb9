"""The same guarantees with a real Celery worker on this machine's Redis.

Each test starts a worker thread (``celery_worker_on_redis``) that consumes
from a Redis database of its own (tests/settings.py), so moves, emails, bots and sweeps go through a real
broker. Without Redis they skip (and fail under ``HERALD_REQUIRE_SERVICES``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.utils import timezone
from kombu.exceptions import OperationalError

from correspondence import services as outbox
from correspondence import sweep as correspondence_sweep
from correspondence.models import Notification
from correspondence.tasks import send_notification, sweep
from games.models import Game
from tests.tasks.conftest import new_game, play, to_move

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("celery_worker_on_redis")]

WAIT = 15.0


def wait_for(condition: Callable[[], bool], timeout: float = WAIT) -> None:
    """Poll ``condition`` until it holds; fail after ``timeout`` seconds."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError("timed out waiting for the worker")


def start_emails_done() -> bool:
    """True once no notification is pending or being sent: the start's emails are all in ``mail.outbox``.

    "Not pending" alone is not enough: a row claimed by the worker ("sending") lands in the outbox a moment
    later, after the test has cleared it, and is then counted as the test's own email.
    """
    return not Notification.objects.filter(status__in=["pending", "sending"]).exists()


def settle(seconds: float = 0.5) -> None:
    """Give the worker a moment to do anything extra (it should not)."""
    time.sleep(seconds)


def test_a_move_leads_to_exactly_one_email_to_the_next_player(users):
    game = new_game(users[0], users[1])
    wait_for(start_emails_done)
    mail.outbox.clear()
    play(game)
    nxt = to_move(game)
    wait_for(lambda: len(mail.outbox) >= 1)
    settle()
    assert [m.to for m in mail.outbox] == [[nxt.email]]


def test_a_lost_broker_before_commit_still_delivers_exactly_one_email(users, monkeypatch):
    from website.celery import app

    game = new_game(users[0], users[1])
    wait_for(start_emails_done)
    mail.outbox.clear()

    def broker_gone(*args: object, **kwargs: object) -> None:
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    # The broker goes away before the move commits: every publish fails.
    with monkeypatch.context() as patch:
        patch.setattr(app.amqp, "send_task_message", broker_gone)
        play(game)
    settle()
    assert mail.outbox == []
    assert Notification.objects.filter(status="pending").count() == 1
    monkeypatch.setattr(correspondence_sweep, "OUTBOX_GRACE", timedelta(0))
    sweep.delay()
    sweep.delay()
    wait_for(lambda: len(mail.outbox) >= 1)
    settle()
    assert len(mail.outbox) == 1


def test_a_send_task_delivered_twice_sends_one_email(users):
    game = new_game(users[0], users[1])
    wait_for(start_emails_done)
    mail.outbox.clear()
    row = Notification.objects.create(user=users[0], game=game, kind="game_over", seq=99)
    send_notification.delay(row.pk)
    send_notification.delay(row.pk)
    wait_for(lambda: Notification.objects.get(pk=row.pk).status == "sent")
    settle()
    assert len(mail.outbox) == 1


def test_a_bot_seat_plays_its_turns_to_the_end(users):
    game = new_game(users[0], bots=("first",), target=15)
    for _ in range(20):
        wait_for(
            lambda: (
                (g := Game.objects.get(pk=game.pk)).status != "active"
                or g.seats.get(position=g.to_act[0]).user_id is not None
            )
        )
        game.refresh_from_db()
        if not game.is_active:
            break
        play(game, 1)
    game.refresh_from_db()
    assert game.is_finished
    assert game.actions.filter(seat=game.seats.get(user=None).position).count() >= 7


def test_time_travel_past_a_deadline_forfeits_and_a_bot_finishes(users):
    game = new_game(users[0], users[1], users[2], target=12)
    for _ in range(3):  # one move each: before their first move a timeout aborts the game (tests/web/test_move_0.py)
        play(game, 1)
    game.refresh_from_db()
    late = to_move(game)
    with time_machine.travel(timezone.now() + timedelta(days=1, minutes=1)):
        sweep.delay()
        wait_for(lambda: Game.objects.get(pk=game.pk).seats.get(user=late).forfeited)
        # The bot takes the late seat's turns; the others finish the game.
        for _ in range(30):
            wait_for(
                lambda: (
                    (g := Game.objects.get(pk=game.pk)).status != "active"
                    or g.seats.get(position=g.to_act[0]).bot == ""
                )
            )
            game.refresh_from_db()
            if not game.is_active:
                break
            play(game, 1)
    game.refresh_from_db()
    assert game.is_finished
    assert game.seats.get(user=late).rank == 3


def test_the_80_percent_warning_is_sent_once(users):
    game = new_game(users[0], users[1])
    late = to_move(game)
    wait_for(start_emails_done)
    mail.outbox.clear()
    with time_machine.travel(timezone.now() + timedelta(hours=20)):
        sweep.delay()
        sweep.delay()
        wait_for(lambda: Notification.objects.filter(kind="time_low", status="sent").exists())
        settle()
    assert [m.to for m in mail.outbox] == [[late.email]]


def test_vacation_pauses_the_clock(users):
    game = new_game(users[0], users[1])
    late = to_move(game)
    outbox.vacation_start(user=late, days=2)
    with time_machine.travel(timezone.now() + timedelta(days=1, hours=1)):
        sweep.delay()
        settle(1.0)
        assert not Game.objects.get(pk=game.pk).seats.get(user=late).forfeited
    with time_machine.travel(timezone.now() + timedelta(days=3, hours=1)):
        sweep.delay()
        wait_for(lambda: Game.objects.get(pk=game.pk).seats.get(user=late).forfeited)
