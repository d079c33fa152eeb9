"""A second request to take back the same move (after a decline) is emailed and pushed like the first."""

from __future__ import annotations

import pytest
from django.core import mail

from correspondence.models import Notification
from correspondence.outbox import notification_send
from games import services
from tests.undo.helpers import user_of
from tests.undo.test_emails import asked_game

pytestmark = pytest.mark.django_db


def test_a_request_asked_again_after_a_decline_is_sent(settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    game, p = asked_game()
    first = services.game_undo_ask(game_id=game.pk, user=user_of(game, p), expected_seq=game.last_seq)
    declining = next(q for q in range(3) if q != p)
    services.game_undo_answer(game_id=game.pk, user=user_of(game, declining), request_id=first.pk, agree=False)
    for row in Notification.objects.filter(kind=Notification.Kind.UNDO_ASKED):
        notification_send(notification_id=row.pk)
    mail.outbox.clear()
    second = services.game_undo_ask(game_id=game.pk, user=user_of(game, p), expected_seq=game.last_seq)
    assert second.pk != first.pk
    for row in Notification.objects.filter(kind=Notification.Kind.UNDO_ASKED, status=Notification.Status.PENDING):
        notification_send(notification_id=row.pk)
    assert len(mail.outbox) == 2, "each other player hears of the new request"
