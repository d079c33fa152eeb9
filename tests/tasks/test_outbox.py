"""The outbox: which emails a move, a start and an end owe, and that each is sent once."""

from __future__ import annotations

from datetime import timedelta
from http import HTTPStatus

import pytest
import time_machine
from django.core import mail
from django.urls import reverse
from django.utils import timezone
from kombu.exceptions import OperationalError

from correspondence import services as outbox
from correspondence.models import Notification, NotificationSettings
from correspondence.tasks import send_notification
from games import services
from games.models import Game
from moderation.user_actions import user_ban
from tests.factories import UserFactory
from tests.tasks.conftest import new_game, play, to_move

pytestmark = pytest.mark.django_db


def test_a_move_sends_exactly_one_email_to_the_next_player(users, commit):
    game = new_game(users[0], users[1])
    mail.outbox.clear()
    mover = to_move(game)
    with commit():
        play(game)
    nxt = to_move(game)
    assert nxt != mover
    assert [m.to for m in mail.outbox] == [[nxt.email]]
    message = mail.outbox[0]
    assert "Your move" in message.subject
    assert f"https://herald.example/games/{game.pk}/" in message.body
    assert message.extra_headers["List-Unsubscribe"].startswith("<https://herald.example/unsubscribe/")
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    html, mime = message.alternatives[0]
    assert mime == "text/html" and f"/games/{game.pk}/" in html


def test_a_game_against_bots_starts_without_telling_its_creator_by_email(users, commit):
    """Creating it started it, on the page the creator is looking at: a "has started" email is noise."""
    with commit():
        services.game_create(
            creator=users[0],
            kind="counter",
            options={},
            players=2,
            rated=False,
            private=False,
            time_per_move=timedelta(days=1),
            bots=["first"],
        )
    assert not [m for m in mail.outbox if "has started" in m.subject]


def test_the_start_tells_everyone_and_the_end_gives_the_result(users, commit):
    with commit():
        game = services.game_create(
            creator=users[0],
            kind="counter",
            options={},
            players=2,
            rated=False,
            private=False,
            time_per_move=timedelta(days=1),
        )
        services.game_join(game_id=game.pk, user=users[1])
    started = [m for m in mail.outbox if "has started" in m.subject]
    # The player whose join started it is looking at it: only the creator is told.
    assert [m.to[0] for m in started] == [users[0].email]
    # The first player's "your move" is covered by the start email.
    assert not [m for m in mail.outbox if "Your move" in m.subject]
    mail.outbox.clear()
    with commit():
        play(game, 3)
        play(game, 3)
        play(game, 3)
        play(game, 1)
    game.refresh_from_db()
    assert game.is_finished
    over = [m for m in mail.outbox if "is over" in m.subject]
    assert len(over) == 2
    assert "1." in over[0].body and "2." in over[0].body


def test_a_task_run_twice_sends_one_email(users):
    game = new_game(users[0], users[1])
    play(game)  # no commit callbacks: the row stays pending
    (row,) = Notification.objects.filter(kind=Notification.Kind.YOUR_MOVE, status="pending")
    mail.outbox.clear()
    send_notification.apply(args=[row.pk])
    send_notification.apply(args=[row.pk])
    assert len(mail.outbox) == 1
    row.refresh_from_db()
    assert row.status == "sent" and row.sent_at is not None and row.attempts == 1


def test_an_email_lost_with_the_broker_is_sent_once_by_the_sweep(users, commit, monkeypatch):
    game = new_game(users[0], users[1])
    mail.outbox.clear()

    def broker_down(*args, **kwargs):
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(send_notification, "delay", broker_down)
    with commit():
        play(game)  # committed; queuing fails, the move still stands
    assert mail.outbox == []
    monkeypatch.undo()
    with time_machine.travel(timezone.now() + timedelta(minutes=2)):
        outbox.sweep()
        outbox.sweep()
    assert len(mail.outbox) == 1


def test_the_event_key_refuses_a_second_row(users):
    game = new_game(users[0], users[1])
    seat = game.seats.get(user=users[0])
    outbox.notify_your_move(game=game, seats=[seat])
    outbox.notify_your_move(game=game, seats=[seat])
    assert Notification.objects.filter(user=users[0], kind="your_move", seq=seat.clock_seq).count() == 1


def test_the_your_move_email_goes_to_a_player_who_opened_the_game_and_left_without_moving(users, client):
    """Issue 28: the email waits while the player has the game open (games.presence), and goes out
    once they leave without moving (it used to be dropped for good: the move was then forgotten)."""
    game = new_game(users[0], users[1])
    play(game)
    nxt = to_move(game)
    client.force_login(nxt)
    assert client.get(reverse("games:detail", kwargs={"game_id": game.pk})).status_code == HTTPStatus.OK
    mail.outbox.clear()
    with time_machine.travel(timezone.now() + timedelta(minutes=2)):
        outbox.sweep()
    assert [m.to for m in mail.outbox] == [[nxt.email]]
    assert Notification.objects.get(user=nxt, kind="your_move", seq=1).status == "sent"


def test_no_your_move_email_for_a_move_already_made(users):
    game = new_game(users[0], users[1])
    play(game)
    nxt = to_move(game)
    play(game)
    mail.outbox.clear()
    with time_machine.travel(timezone.now() + timedelta(minutes=2)):
        outbox.sweep()
    assert nxt.email not in [m.to[0] for m in mail.outbox]


def test_emails_follow_the_users_language(users, commit):
    game = new_game(users[0], users[1])
    nxt = game.seats.exclude(position=game.to_act[0]).get().user
    nxt.language = "zh-hans"
    nxt.save()
    with commit():
        play(game)
    (message,) = mail.outbox[-1:]
    assert message.to == [nxt.email]


def test_a_digest_user_gets_one_email_a_day_listing_the_games(users, commit):
    NotificationSettings.objects.create(user=users[1], your_move="digest")
    games = [new_game(users[0], users[1]) for _ in range(2)]
    mail.outbox.clear()
    with commit():
        for game in games:
            while to_move(game) != users[1] or game.last_seq == 0:
                play(game)
    assert [m for m in mail.outbox if m.to == [users[1].email]] == []
    mail.outbox.clear()
    assert outbox.digests_send_all() == 1
    (digest,) = mail.outbox
    assert all(f"/games/{g.pk}/" in digest.body for g in games)
    assert outbox.digests_send_all() == 0


def test_a_digest_held_for_a_player_banned_since_is_not_sent(users, commit):
    """A ban stops every email about the player's games (outbox.SUSPENDED), the daily digest too."""
    NotificationSettings.objects.create(user=users[1], your_move="digest")
    game = new_game(users[0], users[1])
    with commit():
        while to_move(game) != users[1] or game.last_seq == 0:
            play(game)
    held = Notification.objects.filter(user=users[1], status=Notification.Status.DIGEST)
    assert held.exists()
    user_ban(moderator=UserFactory.create(is_staff=True, is_superuser=True), user=users[1], reason="")
    mail.outbox.clear()

    assert outbox.digests_send_all() == 0

    assert [m for m in mail.outbox if m.to == [users[1].email]] == []
    assert not held.exists()  # skipped, not held for a later digest


def test_never_means_never(users, commit):
    NotificationSettings.objects.create(user=users[1], your_move="never")
    game = new_game(users[0], users[1])
    mail.outbox.clear()
    with commit():
        if to_move(game) == users[0]:
            play(game)
    assert mail.outbox == []


def test_unsubscribe_works_without_login(users, client):
    token = outbox.unsubscribe_token(users[1], "your_move")
    path = reverse("correspondence:unsubscribe", kwargs={"token": token})
    assert client.get(path).status_code == HTTPStatus.OK
    assert client.post(path).status_code == HTTPStatus.OK
    assert outbox.settings_for(users[1]).your_move == "never"


def test_unsubscribe_one_click_post_from_a_mail_client(users, client):
    token = outbox.unsubscribe_token(users[1], "game_over")
    path = reverse("correspondence:unsubscribe", kwargs={"token": token})
    client.post(path, {"List-Unsubscribe": "One-Click"})
    assert outbox.settings_for(users[1]).game_over is False
    assert outbox.settings_for(users[1]).your_move == "immediate"


def test_unsubscribe_rejects_a_tampered_signature(users, client):
    token = outbox.unsubscribe_token(users[1], "your_move")
    forged = outbox.unsubscribe_token(users[0], "your_move").split(":")[0] + ":" + token.split(":", 1)[1]
    for bad in (token[:-2] + ("AA" if not token.endswith("AA") else "BB"), forged):
        path = reverse("correspondence:unsubscribe", kwargs={"token": bad})
        assert client.post(path).status_code == HTTPStatus.BAD_REQUEST
    assert outbox.settings_for(users[1]).your_move == "immediate"
    assert outbox.settings_for(users[0]).your_move == "immediate"


def test_open_games_nobody_fills_are_cancelled_after_14_days(users, commit):
    game = services.game_create(
        creator=users[0],
        kind="counter",
        options={},
        players=2,
        rated=False,
        private=False,
        time_per_move=timedelta(days=1),
    )
    with time_machine.travel(timezone.now() + timedelta(days=13)):
        with commit():
            outbox.sweep()
        game.refresh_from_db()
        assert game.is_open
    with time_machine.travel(timezone.now() + timedelta(days=14, minutes=1)), commit():
        outbox.sweep()
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED
    assert [m.to for m in mail.outbox] == [[users[0].email]]
    assert "cancelled" in mail.outbox[0].subject


def test_settings_page_saves_choices(users, client):
    client.force_login(users[0])
    path = reverse("correspondence:settings")
    assert client.get(path).status_code == HTTPStatus.OK
    response = client.post(path, {"your_move": "digest", "game_over": "on"})
    assert response.status_code == HTTPStatus.FOUND
    prefs = outbox.settings_for(users[0])
    assert prefs.your_move == "digest" and prefs.game_over and not prefs.game_started


def test_chat_emails_only_for_those_who_asked_and_are_away(users, commit):
    NotificationSettings.objects.create(user=users[1], chat=True)
    game = new_game(users[0], users[1], users[2])
    with commit():
        services.chat_post(game_id=game.pk, user=users[0], text="your move, friend")
        services.chat_post(game_id=game.pk, user=users[0], text="still there?")
    assert [m.to for m in mail.outbox] == [[users[1].email]]  # one per hour, and users[2] did not ask
    assert "your move, friend" in mail.outbox[0].body


def test_no_email_but_verification_to_an_unverified_address(users, commit):
    """Issue 5's rule: only a verified address receives game emails."""
    from allauth.account.models import EmailAddress

    game = new_game(users[0], users[1])
    EmailAddress.objects.filter(user__in=users[:2]).update(verified=False)
    mail.outbox.clear()
    with commit():
        play(game)
    game.refresh_from_db()
    nxt = to_move(game)
    assert mail.outbox == []
    row = Notification.objects.get(user=nxt, game=game, kind="your_move", seq=game.last_seq)
    assert row.sent_at is None and "verified" in row.last_error


def test_no_chat_email_from_someone_the_reader_blocked(users, commit):
    """The page hides a blocked user's chat from the blocker; the email must too."""
    from accounts.models import Block

    NotificationSettings.objects.create(user=users[1], chat=True)
    Block.objects.create(blocker=users[1], blocked=users[0])
    game = new_game(users[0], users[1])
    mail.outbox.clear()
    with commit():
        services.chat_post(game_id=game.pk, user=users[0], text="hello")
    assert mail.outbox == []


def test_a_chat_email_is_withdrawn_when_the_message_is_hidden_before_sending(users, monkeypatch):
    """A row queued while the broker was down is not sent once a moderator hid the message."""
    from moderation.models import HiddenMessage

    NotificationSettings.objects.create(user=users[1], chat=True)
    game = new_game(users[0], users[1])
    monkeypatch.setattr(send_notification, "delay", lambda *a, **k: None)  # nothing sent yet
    message = services.chat_post(game_id=game.pk, user=users[0], text="rude words")
    row = Notification.objects.get(user=users[1], kind="chat", seq=message.pk)
    HiddenMessage.objects.create(message=message)
    mail.outbox.clear()
    assert outbox.notification_send(notification_id=row.pk) is False
    assert mail.outbox == []


def test_a_backlog_left_by_a_broker_outage_does_not_slow_the_next_move(users, commit, monkeypatch):
    """After a broker outage the backlog is the sweep's: the next move queues only its own "your move"."""
    game = new_game(users[0], users[1])

    def broker_down(*args, **kwargs):
        raise OperationalError("down")

    monkeypatch.setattr(send_notification, "delay", broker_down)
    with commit():
        for _ in range(6):
            play(game, 1)
    old = set(Notification.objects.filter(game=game, status="pending").values_list("pk", flat=True))
    assert len(old) >= 6
    queued = []
    monkeypatch.setattr(send_notification, "delay", lambda pk: queued.append(pk))
    with commit():
        play(game, 1)
    game.refresh_from_db()
    mine = Notification.objects.get(game=game, kind="your_move", seq=game.last_seq)
    assert queued == [mine.pk]
    assert not old & set(queued)


@pytest.mark.parametrize("page_open", [True, False])
def test_the_your_move_email_waits_while_the_player_watches_the_move_arrive(
    users, commit, monkeypatch, settings, client, page_open
):
    """The email waits half a minute; a game page left open polls in that time, which keeps the
    player present (games.presence): the row is deferred rather than sent (tests/tasks/test_presence.py
    follows it until they leave)."""
    settings.HERALD_YOUR_MOVE_EMAIL_DELAY = 30
    game = new_game(users[0], users[1])
    later = []
    monkeypatch.setattr(send_notification, "apply_async", lambda args, countdown: later.append((args[0], countdown)))
    mail.outbox.clear()
    with commit():
        play(game)
    nxt = to_move(game)
    row = Notification.objects.get(user=nxt, game=game, kind="your_move", seq=game.last_seq)
    assert later == [(row.pk, 30)] and mail.outbox == []
    if page_open:
        client.force_login(nxt)
        client.get(reverse("games:poll", args=[game.pk]), {"seq": game.last_seq - 1})
    outbox.notification_send(notification_id=row.pk)  # the task, half a minute on
    row.refresh_from_db()
    assert (mail.outbox == []) is page_open
    assert row.status == ("deferred" if page_open else "sent")
