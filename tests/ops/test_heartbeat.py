"""The heartbeat task stamps the time; beat schedules it."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import time_machine
from django.conf import settings

from ops.health import heartbeat_age
from ops.models import Heartbeat
from ops.tasks import HEARTBEAT_NAME, heartbeat
from website.celery import app

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


def test_it_stamps_the_time():
    moment = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
    with time_machine.travel(moment, tick=False):
        heartbeat.delay()
    assert Heartbeat.objects.get(name=HEARTBEAT_NAME).stamped == moment
    with time_machine.travel(moment + timedelta(seconds=90), tick=False):
        heartbeat()
        assert heartbeat_age() == timedelta(0)
    assert Heartbeat.objects.count() == 1
    with time_machine.travel(moment + timedelta(seconds=150), tick=False):
        assert heartbeat_age() == timedelta(seconds=60)


def test_beat_runs_it_more_often_than_health_allows_it_to_age_and_a_dead_worker_shows_within_a_minute():
    entry = settings.CELERY_BEAT_SCHEDULE["heartbeat"]
    assert entry["task"] == "ops.tasks.heartbeat" in app.tasks
    assert entry["schedule"] * 3 <= settings.HERALD_HEARTBEAT_MAX_AGE
    # The last stamp is at most this old when a worker dies; /health/ says "stale" past it.
    assert settings.HERALD_HEARTBEAT_MAX_AGE + entry["schedule"] <= 60


def test_it_waits_on_a_queue_of_its_own_that_every_worker_takes_from():
    """A backlog of emails does not hold the heartbeat up (it would read as a dead worker)."""
    assert app.amqp.router.route({}, "ops.tasks.heartbeat")["queue"].name == "heartbeat"
    assert app.amqp.router.route({}, "correspondence.tasks.send_notification")["queue"].name == "celery"
    # A worker started without -Q consumes every queue of CELERY_TASK_QUEUES.
    assert set(app.amqp.queues) == {"celery", "heartbeat", "bots"}


def test_bots_think_on_a_queue_of_their_own_that_the_mail_workers_never_take():
    """Emails and clocks never wait behind a bot: bot moves go to "bots", which only the bot workers take."""
    assert app.amqp.router.route({}, "games.tasks.bot_moves")["queue"].name == "bots"
    config = (ROOT / "supervisord.conf").read_text()
    worker = re.search(r"\[program:worker\]\ncommand=(.*)", config)
    bots = re.search(r"\[program:botworker\]\ncommand=(.*)", config)
    assert worker and "-Q celery,heartbeat " in worker.group(1)
    assert bots and "-Q bots " in bots.group(1)
    procfile = (ROOT / "Procfile").read_text()
    assert "-Q celery,heartbeat " in procfile and "-Q bots " in procfile
