"""The outbox's claims: one sender at a time, a dead sender's claim taken over, one Message-ID per row."""

from __future__ import annotations

import smtplib
from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.utils import timezone

from correspondence import outbox, sweep
from correspondence.models import Notification
from tests.tasks.conftest import new_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def row(users):
    game = new_game(users[0], users[1])
    mail.outbox.clear()
    return Notification.objects.create(user=users[0], game=game, kind="game_over", seq=99)


def test_a_row_another_sender_is_sending_is_not_sent_again(row):
    Notification.objects.filter(pk=row.pk).update(status="sending", claimed_at=timezone.now())
    assert outbox.notification_send(notification_id=row.pk) is False
    assert sweep.sweep()["sent"] == 0
    assert mail.outbox == []


def test_a_dead_senders_claim_is_taken_over_by_the_sweep_with_the_same_message_id(row):
    outbox.notification_send(notification_id=row.pk)
    first = mail.outbox[0].extra_headers["Message-ID"]
    # As if the sender had been killed after the mail server accepted it, before the mark.
    Notification.objects.filter(pk=row.pk).update(status="sending", claimed_at=timezone.now(), sent_at=None)
    with time_machine.travel(timezone.now() + outbox.CLAIM_TIMEOUT - timedelta(seconds=5)):
        assert sweep.sweep()["sent"] == 0
    with time_machine.travel(timezone.now() + outbox.CLAIM_TIMEOUT + timedelta(seconds=5)):
        assert sweep.sweep()["sent"] == 1
    assert [m.extra_headers["Message-ID"] for m in mail.outbox] == [first, first]
    assert first.startswith(f"<herald.notification.{row.pk}.") and first.endswith("@localhost>")
    assert Notification.objects.get(pk=row.pk).status == "sent"


def test_a_failed_send_gives_the_row_back_and_counts_the_attempt(row, monkeypatch):
    def refuse(self, *args, **kwargs):
        raise smtplib.SMTPServerDisconnected("the server hung up after DATA")

    monkeypatch.setattr("django.core.mail.backends.locmem.EmailBackend.send_messages", refuse)
    with pytest.raises(smtplib.SMTPServerDisconnected):
        outbox.notification_send(notification_id=row.pk)
    row.refresh_from_db()
    assert (row.status, row.claimed_at, row.attempts) == ("pending", None, 1)
    assert "hung up" in row.last_error


def test_a_sender_whose_claim_was_taken_over_marks_nothing(row, monkeypatch):
    """A sender slower than CLAIM_TIMEOUT: the row was claimed again meanwhile, and only the new claim marks it."""
    real = mail.backends.locmem.EmailBackend.send_messages

    def slow(self, messages):
        Notification.objects.filter(pk=row.pk).update(claimed_at=timezone.now() + timedelta(seconds=1))
        return real(self, messages)

    monkeypatch.setattr("django.core.mail.backends.locmem.EmailBackend.send_messages", slow)
    outbox.notification_send(notification_id=row.pk)
    assert Notification.objects.get(pk=row.pk).status == "sending"
