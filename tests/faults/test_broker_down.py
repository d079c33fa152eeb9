"""The broker is unreachable: a move answers at once and is saved; its emails wait for the sweep, sent once."""

from __future__ import annotations

import time
from datetime import timedelta
from http import HTTPStatus

import time_machine
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from correspondence import sweep
from correspondence.models import Notification
from games.models import Action
from tests.conftest import make_game, user_to_move
from tests.faults.conftest import count, count_response, dead_broker_url


def test_with_the_broker_unreachable_moves_answer_quickly_and_their_emails_go_out_once_later(
    broker_at, settings, player, opponent
):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    broker_at(dead_broker_url())
    game = make_game(player, opponent)  # its start's emails cannot be queued either
    mail.outbox.clear()
    slowest = 0.0
    for _ in range(4):
        game.refresh_from_db()
        client = Client()
        client.force_login(user_to_move(game))
        url = reverse("games:move", args=[game.pk])  # the first reverse() loads every URLconf: not timed
        started = time.monotonic()
        response = client.post(url, {"move": '{"act": "add", "n": 1}', "seq": game.last_seq})
        # The test client runs the after-response fan-out (the failed publishes) before it returns.
        slowest = max(slowest, time.monotonic() - started)
        count("moves attempted")
        count_response(response.status_code)
        assert response.status_code in (HTTPStatus.OK, HTTPStatus.FOUND)
    saved = Action.objects.filter(game=game).count()
    count("moves saved", saved)
    assert saved == 4, "no move lost"
    assert slowest < 1.0, f"a move waited {slowest:.2f} s on the dead broker"
    assert mail.outbox == []
    owed = Notification.objects.filter(game=game, status="pending").count()
    assert owed >= 4  # the start's and each move's "your move"

    # The broker is still down; the sweep (run by beat once it is back, or here) sends each row once.
    with time_machine.travel(timezone.now() + sweep.OUTBOX_GRACE + timedelta(seconds=1)):
        sweep.sweep()
        sweep.sweep()
    sent = Notification.objects.filter(game=game, status="sent").count()
    assert len(mail.outbox) == sent and not Notification.objects.filter(game=game, status="pending").exists()
    ids = [m.extra_headers["Message-ID"] for m in mail.outbox]
    assert len(set(ids)) == len(ids)
    # Rows no longer relevant (an old "your move") are skipped, not sent: every row is settled.
    assert sent + Notification.objects.filter(game=game, status="skipped").count() == owed
    game.refresh_from_db()
    assert any(m.to == [user_to_move(game).email] and "Your move" in m.subject for m in mail.outbox)
    count("emails expected", sent)
    count("emails sent", len(set(ids)))
    count("email deliveries", len(ids))
