"""A tournament's emails go through correspondence's outbox, in the player's language."""

from __future__ import annotations

import pytest
from django.core import mail

from correspondence import outbox
from correspondence.models import Notification, NotificationSettings
from tests.factories import UserFactory
from tests.tournaments.conftest import later, make_tournament
from tests.tournaments.helpers import play_round
from tournaments import services

pytestmark = pytest.mark.django_db(transaction=True)


def test_started_round_and_result_emails(moderator, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    t = make_tournament(moderator, name="Autumn Swiss", rounds=2)
    users = [UserFactory(language="en"), UserFactory(language="zh-hans"), UserFactory(language="en")]
    users.append(UserFactory(language="zh-hant"))
    for u in users:
        services.tournament_signup(tournament_id=t.pk, user=u)
    NotificationSettings.objects.create(user=users[2], tournament=False)
    services.tick(now=later())
    # Sent after commit (eager tasks): the start, to the two who want tournament news.
    started = [m for m in mail.outbox if "Autumn Swiss" in m.subject]
    assert sorted(m.to[0] for m in started) == sorted([users[0].email, users[1].email, users[3].email])
    english = next(m for m in started if m.to == [users[0].email])
    assert english.subject == "[Herald] Autumn Swiss has started"
    assert f"/tournaments/{t.pk}/" in english.body
    chinese = next(m for m in started if m.to == [users[1].email])
    assert chinese.subject == "[Herald] Autumn Swiss 已开始" and "停止这类邮件" in chinese.body
    traditional = next(m for m in started if m.to == [users[3].email])
    assert traditional.subject == "[Herald] Autumn Swiss 已開始" and "錦標賽 Autumn Swiss 已開始。" in traditional.body
    assert Notification.objects.get(user=users[2], kind="tournament").status == "skipped"
    mail.outbox.clear()
    play_round(t, 1)
    subjects = [m.subject for m in mail.outbox if m.to == [users[0].email]]
    assert "[Herald] Autumn Swiss: round 2" in subjects
    play_round(t, 2)
    results = [m for m in mail.outbox if m.subject == "[Herald] Autumn Swiss is over"]
    assert [m.to for m in results] == [[users[0].email]]
    assert "You finished in place" in results[0].body
    assert outbox.notification_send  # the same sender as every other email


def test_a_round_robins_start_lists_every_game(moderator, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    t = make_tournament(moderator, name="Club League", system="round_robin")
    users = [UserFactory() for _ in range(4)]
    for u in users:
        services.tournament_signup(tournament_id=t.pk, user=u)
    services.tick(now=later())
    mine = [m for m in mail.outbox if m.to == [users[0].email] and "Club League" in m.subject]
    assert len(mine) == 1 and mine[0].subject == "[Herald] Club League has started"
    assert mine[0].body.count("/games/") == 3  # all three of the player's games, which run at once
