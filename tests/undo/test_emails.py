"""The players asked to allow an undo get an email, which is dropped once the request is no longer open."""

from __future__ import annotations

import pytest
from django.core import mail

from correspondence.models import Notification
from correspondence.outbox import notification_send
from correspondence.preferences import settings_for, unsubscribe, unsubscribe_token
from games import services
from games.engine.dominion.engine import ENGINE
from tests.conftest import make_game
from tests.factories import UserFactory
from tests.undo.helpers import DRAWERS, advance, drawer_in_hand, user_of

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _mail(settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    mail.outbox.clear()


def asked_game():
    ann, bo, cy = (
        UserFactory.create(username="ann"),
        UserFactory.create(username="bo"),
        UserFactory.create(username="cy"),
    )
    game = advance(make_game(ann, bo, cy, kind="dominion", options={"kingdom": "First Game"}), drawer_in_hand)
    p = services.state_at(game).current
    drawer = next(c for c in services.state_at(game).hands[p] if c in DRAWERS)
    services.game_submit_move(
        game_id=game.pk, user=user_of(game, p), move={"act": "play", "card": drawer}, expected_seq=game.last_seq
    )
    game.refresh_from_db()
    Notification.objects.all().delete()
    services.game_undo_ask(game_id=game.pk, user=user_of(game, p), expected_seq=game.last_seq)
    return game, p


def test_each_other_player_is_emailed_the_request():
    game, p = asked_game()
    rows = Notification.objects.filter(kind=Notification.Kind.UNDO_ASKED)
    assert sorted(r.user_id for r in rows) == sorted(user_of(game, q).pk for q in range(3) if q != p)
    for row in rows:
        assert notification_send(notification_id=row.pk)
    asker = user_of(game, p).shown_name
    assert [m.subject for m in mail.outbox] == [f"[Herald] {asker} asks to take back a move in Dominion #{game.pk}"] * 2


def test_the_email_is_dropped_once_a_move_came_first():
    game, p = asked_game()
    state = services.state_at(game)
    nxt = ENGINE.pending(state)[0].player
    services.game_submit_move(
        game_id=game.pk, user=user_of(game, nxt), move=ENGINE.legal_moves(state, nxt)[-1], expected_seq=game.last_seq
    )
    for row in Notification.objects.filter(kind=Notification.Kind.UNDO_ASKED):
        notification_send(notification_id=row.pk)
    assert mail.outbox == []


def test_the_emails_unsubscribe_link_turns_off_your_move_emails():
    user = UserFactory.create(username="dee")
    unsubscribe(token=unsubscribe_token(user, Notification.Kind.UNDO_ASKED))
    prefs = settings_for(user)
    assert not prefs.wants(Notification.Kind.UNDO_ASKED) and not prefs.wants(Notification.Kind.YOUR_MOVE)
