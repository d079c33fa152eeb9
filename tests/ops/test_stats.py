"""/ops/stats/: staff only, with the numbers operators ask for."""

from __future__ import annotations

from datetime import timedelta
from http import HTTPStatus

import pytest
from django.utils import timezone

from correspondence.models import Notification
from games.models import Action, Seat
from ops.models import Heartbeat
from ops.tasks import HEARTBEAT_NAME
from tests.conftest import make_game

pytestmark = pytest.mark.django_db


def test_anonymous_visitors_are_sent_to_sign_in(client):
    response = client.get("/ops/stats/")
    assert response.status_code == HTTPStatus.FOUND
    assert "/accounts/login/" in response["Location"]


def test_players_are_refused(client, player):
    client.force_login(player)
    assert client.get("/ops/stats/").status_code == HTTPStatus.FORBIDDEN


def test_staff_see_the_numbers(client, staff, player, opponent):
    now = timezone.now()
    running = make_game(player, opponent)
    make_game(opponent, player)  # a second running game
    Action.objects.create(game=running, seq=1, seat=0, move={"act": "x"}, created=now - timedelta(minutes=5))
    Action.objects.create(game=running, seq=2, seat=1, move={"act": "x"}, created=now - timedelta(hours=5))
    Action.objects.create(game=running, seq=3, seat=0, move={"act": "x"}, created=now - timedelta(days=3))
    Seat.objects.filter(game=running, position=running.to_act[0]).update(deadline=now - timedelta(minutes=3))
    Notification.objects.all().delete()
    for user, seq, age in [(player, 7, timedelta(minutes=10)), (opponent, 8, timedelta(minutes=2))]:
        Notification.objects.create(user=user, game=running, kind="your_move", seq=seq, created=now - age)
    Heartbeat.objects.create(name=HEARTBEAT_NAME, stamped=now - timedelta(seconds=20))
    client.force_login(staff)
    response = client.get("/ops/stats/")
    assert response.status_code == HTTPStatus.OK
    stats = response.context["stats"]
    assert stats.games_running == 2
    assert (stats.moves_last_hour, stats.moves_last_day) == (1, 2)
    assert stats.unsent_notifications == 2
    assert timedelta(minutes=10) <= stats.oldest_unsent_age < timedelta(minutes=11)
    assert stats.overdue_decisions == 1
    assert timedelta(seconds=20) <= stats.heartbeat_age < timedelta(seconds=30)
    assert b"Overdue decisions" in response.content


def test_it_refuses_posts(client, staff):
    client.force_login(staff)
    assert client.post("/ops/stats/").status_code == HTTPStatus.METHOD_NOT_ALLOWED
