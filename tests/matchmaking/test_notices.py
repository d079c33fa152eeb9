"""Matchmaking's notices in the reader's language, by email and by push: an expired seek, a rematch offer."""

from __future__ import annotations

import pytest

from correspondence import outbox
from correspondence.models import Notification, PushSubscription
from correspondence.preferences import settings_for, unsubscribe, unsubscribe_token
from correspondence.push import payload_for
from matchmaking import rematch, services
from tests.factories import UserFactory
from tests.matchmaking.conftest import finished_game

WORDS = {
    "en": {"seek_expired": ("expired", "Dominion"), "rematch": ("rematch", "bo")},
    "zh-hant": {"seek_expired": ("已過期", "皇輿爭霸"), "rematch": ("再戰", "bo")},
    "zh-hans": {"seek_expired": ("已过期", "皇舆争霸"), "rematch": ("再战", "bo")},
}


@pytest.mark.parametrize("language", list(WORDS))
def test_seek_expired_and_rematch_notices_speak_the_readers_language(db, language):
    ann, bo = UserFactory.create(username="ann", language=language), UserFactory.create(username="bo")
    seek = services.seek_create(user=ann, kind="dominion", match_now=False)
    game = finished_game(ann, bo)
    offer = rematch.rematch_accept(game_id=game.pk, user=bo)
    rows = {
        "seek_expired": Notification(
            user=ann, game=None, kind=Notification.Kind.SEEK_EXPIRED, seq=seek.pk, data={"seek": seek.pk}
        ),
        "rematch": Notification(user=ann, game=game, kind=Notification.Kind.REMATCH, seq=offer.pk, data={"by": bo.pk}),
    }
    for kind, n in rows.items():
        message = outbox.message_for(ann, outbox.content_for(n), n.kind)
        html = message.alternatives[0][0]
        for part in (message.subject, message.body, html):
            for word in WORDS[language][kind]:
                assert word in part, (kind, part)
        push = payload_for(n)
        assert WORDS[language][kind][0] in push["title"]
        assert push["tag"] == (f"game-{game.pk}" if kind == "rematch" else f"seek_expired-{seek.pk}")


def test_a_push_row_is_owed_beside_the_email_for_subscribed_players(db):
    ann, bo = UserFactory.create(), UserFactory.create()
    PushSubscription.objects.create(user=bo, endpoint="https://fcm.googleapis.com/fcm/send/x", p256dh="k", auth="a")
    game = finished_game(ann, bo)
    rematch.rematch_accept(game_id=game.pk, user=ann)
    channels = sorted(Notification.objects.filter(kind=Notification.Kind.REMATCH).values_list("channel", flat=True))
    assert channels == ["email", "push"]
    assert not Notification.objects.filter(kind=Notification.Kind.REMATCH, user=ann).exists()


def test_the_unsubscribe_link_turns_each_notice_off(db):
    ann = UserFactory.create()
    for kind in (Notification.Kind.SEEK_EXPIRED, Notification.Kind.REMATCH):
        unsubscribe(token=unsubscribe_token(ann, kind))
        ann.refresh_from_db()
        assert not settings_for(ann).wants(kind)
    assert settings_for(ann).wants(Notification.Kind.GAME_OVER)
