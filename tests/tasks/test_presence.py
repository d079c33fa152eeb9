"""Presence (issue 28, part 5): each seat shows whether its player has the game open now, else when they
were last seen; the "your move" email and push wait while the player has the game open, and go out once
they leave without moving."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from correspondence import services as outbox
from correspondence.models import Notification, PushSubscription
from correspondence.sweep import sweep
from correspondence.tasks import send_notification
from games.models import Game, Seat
from games.presence import is_present, presence_of, presence_touch
from tests.tasks.conftest import new_game, play, to_move

pytestmark = pytest.mark.django_db


def _signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _poll(client: Client, game: Game, cursor: str | None = None):
    game.refresh_from_db()
    params: dict[str, Any] = {"seq": game.last_seq}
    if cursor is not None:
        params["v"] = cursor
    return client.get(reverse("games:poll", args=[game.pk]), params, headers={"HX-Request": "true"})


def _seat_cell(html: str, name: str) -> str:
    """The text of the seats table's cell naming ``name``."""
    start = html.index('id="game-seats"')
    row = html[start:].split(f">{name}</a>", 1)[1]
    return row.split("</td>", 1)[0]


def test_a_seat_shows_here_now_while_its_player_has_the_game_open_then_when_last_seen(users):
    game = new_game(users[0], users[1])
    watcher = _signed_in(users[0])
    assert "presence" not in _seat_cell(watcher.get(game.get_absolute_url()).content.decode(), "p1")  # never seen
    _signed_in(users[1]).get(game.get_absolute_url())
    assert "here now" in _seat_cell(watcher.get(game.get_absolute_url()).content.decode(), "p1")
    with time_machine.travel(timezone.now() + timedelta(seconds=30)):
        cell = _seat_cell(watcher.get(game.get_absolute_url()).content.decode(), "p1")
        assert "here now" not in cell and "last seen a moment ago" in cell
    with time_machine.travel(timezone.now() + timedelta(minutes=5, seconds=10)):
        cell = _seat_cell(watcher.get(game.get_absolute_url()).content.decode(), "p1")
        assert "last seen 5\xa0minutes ago" in cell


def test_the_others_poll_brings_presence_as_it_comes_and_goes(users):
    """Presence is part of the poll's cursor: an arrival (or a departure) alone redraws the seats."""
    game = new_game(users[0], users[1])
    watcher = _signed_in(users[0])
    cursor = watcher.get(game.get_absolute_url()).context["cursor"]
    assert _poll(watcher, game, cursor).status_code == 204
    _signed_in(users[1]).get(game.get_absolute_url())
    arrived = _poll(watcher, game, cursor)
    assert arrived.status_code == 200 and "here now" in _seat_cell(arrived.content.decode(), "p1")
    cursor = arrived.context["cursor"]
    assert _poll(watcher, game, cursor).status_code == 204
    with time_machine.travel(timezone.now() + timedelta(seconds=30)):
        left = _poll(watcher, game, cursor)
        assert left.status_code == 200 and "here now" not in _seat_cell(left.content.decode(), "p1")


def test_spectators_and_anonymous_viewers_leave_no_presence(users):
    game = new_game(users[0], users[1])
    _signed_in(users[2]).get(game.get_absolute_url())
    Client().get(game.get_absolute_url())
    game = Game.objects.prefetch_related("seats").get(pk=game.pk)
    assert set(presence_of(game)) == {users[0].pk, users[1].pk}
    assert not is_present(game.pk, users[2].pk)
    assert not any(p.here for p in presence_of(game).values())


def test_last_seen_is_written_once_a_minute_at_most_while_the_player_stays(users, django_assert_num_queries):
    game = new_game(users[0], users[1])
    presence_touch(game, users[1])
    first = Seat.objects.get(game=game, user=users[1]).last_seen
    assert first is not None
    with django_assert_num_queries(0):
        presence_touch(game, users[1])  # a poll five seconds on: the cache only
    with time_machine.travel(timezone.now() + timedelta(seconds=61)):
        presence_touch(game, users[1])
    assert Seat.objects.get(game=game, user=users[1]).last_seen > first


def _your_move_row(game: Game, user, channel: str = "email") -> Notification:
    game.refresh_from_db()
    return Notification.objects.get(user=user, game=game, kind="your_move", seq=game.last_seq, channel=channel)


def test_the_your_move_email_waits_while_the_player_has_the_game_open_and_goes_once_they_leave(users, commit):
    game = new_game(users[0], users[1])
    nxt_seat = game.seats.get(position=1 - game.to_act[0])
    nxt = nxt_seat.user
    page = _signed_in(nxt)
    page.get(game.get_absolute_url())  # the next player is watching
    with commit():
        play(game)
    row = _your_move_row(game, nxt)
    assert row.status == "deferred" and mail.outbox == []
    start = timezone.now()
    for seconds in (10, 20, 30):  # still there, polling: still waiting
        with time_machine.travel(start + timedelta(seconds=seconds)):
            _poll(page, game)
            sweep()
    row.refresh_from_db()
    assert row.status == "deferred" and mail.outbox == []
    with time_machine.travel(start + timedelta(seconds=60)):  # the tab was closed at 30 s
        sweep()
    row.refresh_from_db()
    assert row.status == "sent" and [m.to for m in mail.outbox] == [[nxt.email]]


def test_no_email_when_the_player_moves_while_the_page_is_open(users, commit):
    game = new_game(users[0], users[1])
    nxt = game.seats.get(position=1 - game.to_act[0]).user
    _signed_in(nxt).get(game.get_absolute_url())
    with commit():
        play(game)
    row = _your_move_row(game, nxt)
    assert row.status == "deferred"
    with commit():
        play(game)  # they moved, on the page
    with time_machine.travel(timezone.now() + timedelta(minutes=2)):
        sweep()
    row.refresh_from_db()
    assert row.status == "skipped" and nxt.email not in [m.to[0] for m in mail.outbox]


def test_the_push_waits_too(users, commit, monkeypatch):
    game = new_game(users[0], users[1])
    nxt = game.seats.get(position=1 - game.to_act[0]).user
    PushSubscription.objects.create(user=nxt, endpoint="https://fcm.googleapis.com/fcm/send/x", p256dh="k", auth="a")
    pushed = []
    monkeypatch.setattr("correspondence.outbox.push_send", lambda n: pushed.append(n.pk) or True)
    _signed_in(nxt).get(game.get_absolute_url())
    with commit():
        play(game)
    row = _your_move_row(game, nxt, channel="push")
    assert row.status == "deferred" and pushed == []
    with time_machine.travel(timezone.now() + timedelta(minutes=1)):
        sweep()
    row.refresh_from_db()
    assert row.status == "sent" and pushed == [row.pk]


def test_a_deferred_row_is_queued_again_a_presence_ttl_later_when_there_is_a_broker(
    users, commit, monkeypatch, settings
):
    game = new_game(users[0], users[1])
    waiting = game.seats.get(position=1 - game.to_act[0]).user
    _signed_in(waiting).get(game.get_absolute_url())
    with commit():
        play(game)
    assert to_move(game) == waiting
    row = _your_move_row(game, waiting)
    assert row.status == "deferred"
    settings.CELERY_TASK_ALWAYS_EAGER = False
    queued = []
    monkeypatch.setattr(send_notification, "apply_async", lambda args, countdown: queued.append((args[0], countdown)))
    send_notification(row.pk)
    assert queued == [(row.pk, settings.HERALD_PRESENCE_TTL)]
    outbox.notification_send(notification_id=row.pk)
    row.refresh_from_db()
    assert row.status == "deferred"
