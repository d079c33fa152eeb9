"""A tournament's emails go through correspondence's outbox, in the player's language."""

from __future__ import annotations

import pytest
from django.core import mail

from correspondence.models import Notification, NotificationSettings
from tests.factories import UserFactory
from tests.tournaments.conftest import later, make_tournament
from tests.tournaments.helpers import play_round
from tournaments import services
from tournaments.models import Table, TableSeat

pytestmark = pytest.mark.django_db(transaction=True)


def test_started_round_and_result_emails(moderator, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    t = make_tournament(moderator, name="Autumn Swiss", rounds=2)
    users = [
        UserFactory.create(language="en"),
        UserFactory.create(language="zh-hans"),
        UserFactory.create(language="en"),
    ]
    users.append(UserFactory.create(language="zh-hant"))
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
    assert "Your place: " in results[0].body and " of 4. Your points: " in results[0].body


def test_a_round_robins_start_lists_every_game(moderator, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    t = make_tournament(moderator, name="Club League", system="round_robin")
    users = [UserFactory.create() for _ in range(4)]
    for u in users:
        services.tournament_signup(tournament_id=t.pk, user=u)
    services.tick(now=later())
    mine = [m for m in mail.outbox if m.to == [users[0].email] and "Club League" in m.subject]
    assert len(mine) == 1 and mine[0].subject == "[Herald] Club League has started"
    assert mine[0].body.count("/games/") == 3  # all three of the player's games, which run at once


def _mail_to(user, needle: str = "") -> list:
    return [m for m in mail.outbox if m.to == [user.email] and needle in m.subject]


def test_a_swiss_bye_is_told_that_it_has_a_bye_and_what_it_scores(moderator, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    t = make_tournament(moderator, name="Odd Swiss", rounds=2)
    users = [UserFactory.create(language="en") for _ in range(3)]
    for u in users:
        services.tournament_signup(tournament_id=t.pk, user=u)
    services.tick(now=later())
    bye = Table.objects.get(round__tournament=t, round__number=1, game__isnull=True).seats.get().entry.user
    mine = _mail_to(bye, "Odd Swiss")
    assert len(mine) == 1
    assert "You have a bye this round: it scores 1 point" in mine[0].body
    assert "/games/" not in mine[0].body  # the bye has no game, and is not sent someone else's
    mail.outbox.clear()
    play_round(t, 1)
    bye2 = Table.objects.get(round__tournament=t, round__number=2, game__isnull=True).seats.get().entry.user
    mine = _mail_to(bye2, "Odd Swiss: round 2")
    assert len(mine) == 1 and "You have a bye this round: it scores 1 point" in mine[0].body


def test_a_bye_email_is_translated(moderator, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    t = make_tournament(moderator, name="Odd Swiss", rounds=2)
    users = [UserFactory.create(language="zh-hant") for _ in range(3)]
    for u in users:
        services.tournament_signup(tournament_id=t.pk, user=u)
    services.tick(now=later())
    bye = Table.objects.get(round__tournament=t, round__number=1, game__isnull=True).seats.get().entry.user
    (email,) = _mail_to(bye, "Odd Swiss")
    assert "你本輪輪空：計 1 分" in email.body


@pytest.mark.parametrize(("system", "n", "per_table"), [("round_robin", 4, 2), ("swiss", 4, 2), ("multi_table", 6, 3)])
def test_a_tournament_player_gets_one_email_a_round_not_a_game_started_per_game(
    moderator, settings, system, n, per_table
):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    t = make_tournament(moderator, name="One Notice", system=system, players_per_table=per_table, rounds=2)
    users = [UserFactory.create() for _ in range(n)]
    for u in users:
        services.tournament_signup(tournament_id=t.pk, user=u)
    services.tick(now=later())
    for u in users:
        mine = [m for m in mail.outbox if m.to == [u.email]]
        assert [m.subject for m in mine] == ["[Herald] One Notice has started"], system
        games = TableSeat.objects.filter(entry__user=u, table__game__isnull=False).values_list("table__game", flat=True)
        for game_id in games:  # the tournament email carries the links to the player's games
            assert f"/games/{game_id}/" in mine[0].body
    assert not Notification.objects.filter(kind="game_started").exclude(status="skipped").exists()
    if system != "round_robin":
        mail.outbox.clear()
        play_round(t, 1)
        for u in users:
            started = [m for m in mail.outbox if m.to == [u.email] and "has started" in m.subject]
            assert started == []


def test_a_player_who_turned_tournament_emails_off_still_hears_of_their_games(moderator, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    t = make_tournament(moderator, name="Quiet Cup", rounds=1)
    users = [UserFactory.create() for _ in range(2)]
    for u in users:
        services.tournament_signup(tournament_id=t.pk, user=u)
    NotificationSettings.objects.create(user=users[0], tournament=False)
    services.tick(now=later())
    mine = [m for m in mail.outbox if m.to == [users[0].email]]
    assert len(mine) == 1 and "Quiet Cup" not in mine[0].subject and "/games/" in mine[0].body


def test_a_round_robins_start_tells_each_player_which_round_they_sit_out(moderator, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    t = make_tournament(moderator, name="Three League", system="round_robin")
    users = [UserFactory.create() for _ in range(3)]
    for u in users:
        services.tournament_signup(tournament_id=t.pk, user=u)
    services.tick(now=later())
    for u in users:
        (email,) = _mail_to(u, "Three League")
        bye = Table.objects.get(round__tournament=t, game__isnull=True, seats__entry__user=u).round.number
        assert f"You have a bye in round {bye}: you sit it out, and it scores no points." in email.body
        assert email.body.count("/games/") == 2
