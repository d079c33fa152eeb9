"""A mail server that hangs, or hangs up after DATA: moves never wait for it, and each email goes out once.

The sends here run in threads of the test process against a loopback SMTP
server of the test's own (``smtp_server``); with the old send, which held
its outbox row, the game's and the user's rows locked through the SMTP
conversation, the player to move got a 409 after the 5 s lock timeout.
"""

from __future__ import annotations

import smtplib
import threading
import time
from datetime import timedelta
from http import HTTPStatus

import pytest
import time_machine
from django.db import connections
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from correspondence import outbox, sweep
from correspondence.emails import message_id
from correspondence.models import Notification
from games import services
from games.models import Action
from tests.conftest import make_game, user_to_move
from tests.faults.conftest import DUPLICATE_WINDOWS, count, count_response, dead_broker_url, wait_for


def send_in_thread(pk: int) -> tuple[threading.Thread, list[object]]:
    """Start ``notification_send(pk)`` in a thread; the list gets its result or exception."""
    result: list[object] = []

    def run() -> None:
        try:
            result.append(outbox.notification_send(notification_id=pk))
        except Exception as exc:
            result.append(exc)
        finally:
            connections.close_all()

    thread = threading.Thread(target=run)
    thread.start()
    return thread, result


@pytest.fixture
def owed(broker_at, player, opponent):
    """A running game whose second player is owed a "your move" (no task queued: the broker is away)."""
    broker_at(dead_broker_url())
    game = make_game(player, opponent)
    first = user_to_move(game)
    services.game_submit_move(game_id=game.pk, user=first, move={"act": "add", "n": 1}, expected_seq=0)
    game.refresh_from_db()
    row = Notification.objects.get(game=game, kind="your_move", user=user_to_move(game), status="pending")
    return game, row


def test_a_move_while_a_send_waits_on_a_hung_mail_server_applies_in_under_a_second(smtp_server, owed):
    game, row = owed
    smtp_server.mode = "hold"
    thread, result = send_in_thread(row.pk)
    wait_for(smtp_server.data_in.is_set, what="the send to reach DATA")

    client = Client()
    client.force_login(row.user)
    started = time.monotonic()
    response = client.post(reverse("games:move", args=[game.pk]), {"move": '{"act": "add", "n": 1}', "seq": 1})
    took = time.monotonic() - started
    count("moves attempted")
    count_response(response.status_code)
    assert response.status_code in (HTTPStatus.OK, HTTPStatus.FOUND)
    assert Action.objects.filter(game=game).count() == 2
    count("moves saved")
    assert took < 1.0, f"the move waited {took:.2f} s for the mail server"

    smtp_server.release.set()
    thread.join(10)
    assert result == [True]
    assert smtp_server.message_ids() == [message_id("notification", row.pk)]
    assert Notification.objects.get(pk=row.pk).status == "sent"
    count("emails expected")
    count("emails sent")
    count("email deliveries")


def test_a_mail_server_that_hangs_up_after_data_gets_the_email_once_from_the_sweep(smtp_server, owed):
    game, row = owed
    smtp_server.mode = "drop"
    with pytest.raises(smtplib.SMTPServerDisconnected):
        outbox.notification_send(notification_id=row.pk)
    row.refresh_from_db()
    assert (row.status, row.attempts) == ("pending", 1)
    assert smtp_server.received == []

    smtp_server.mode = "ok"
    with time_machine.travel(timezone.now() + sweep.OUTBOX_GRACE + timedelta(seconds=1)):
        assert sweep.sweep()["sent"] >= 1  # with the start's rows, also left pending
        assert sweep.sweep()["sent"] == 0
    ids = smtp_server.message_ids()
    assert ids.count(message_id("notification", row.pk)) == 1 and len(set(ids)) == len(ids)
    assert Notification.objects.get(pk=row.pk).status == "sent"
    count("emails expected", Notification.objects.filter(game=game, status="sent").count())
    count("emails sent", len(set(ids)))
    count("email deliveries", len(ids))


def test_a_mail_server_that_never_answers_after_data_costs_email_timeout_and_a_resend_keeps_the_message_id(
    smtp_server, owed, settings
):
    """The client gives up after EMAIL_TIMEOUT; the server had the message: the retry is a duplicate, with the
    same Message-ID (the other form of the duplicate window, docs/scaling.md)."""
    game, row = owed
    settings.EMAIL_TIMEOUT = 1
    smtp_server.mode = "hold"
    started = time.monotonic()
    with pytest.raises((TimeoutError, smtplib.SMTPServerDisconnected)):
        outbox.notification_send(notification_id=row.pk)
    assert time.monotonic() - started < 3
    assert Notification.objects.get(pk=row.pk).status == "pending"

    smtp_server.mode = "ok"
    smtp_server.release.set()
    assert outbox.notification_send(notification_id=row.pk) is True
    ids = smtp_server.message_ids()
    assert ids == [message_id("notification", row.pk)] * 2
    count("emails expected")
    count("emails sent", len(set(ids)))
    count("email deliveries", len(ids))


def test_the_duplicate_window_from_acceptance_to_the_sent_mark_is_measured(smtp_server, player, opponent, broker_at):
    """A sender killed in this window leaves an email the server accepted on a row not yet marked sent."""
    broker_at(dead_broker_url())
    game = make_game(player, opponent)
    rows = [Notification.objects.create(user=player, game=game, kind="game_over", seq=100 + i) for i in range(20)]
    marked = {}
    for n in rows:
        assert outbox.notification_send(notification_id=n.pk)
        marked[n.pk] = time.monotonic()  # the sent mark is committed (autocommit) when it returns
    by_id = {r.message_id: r for r in smtp_server.received}
    windows = [marked[pk] - by_id[message_id("notification", pk)].accepted_at for pk in marked]
    DUPLICATE_WINDOWS.extend(windows)
    assert all(0 <= w < 0.5 for w in windows), windows
    count("emails expected", len(rows))
    count("emails sent", len(by_id))
    count("email deliveries", len(smtp_server.received))
