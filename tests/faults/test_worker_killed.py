"""A real Celery worker process is killed with SIGKILL while the mail server holds the DATA it accepted.

The worker is a ``celery -A website worker`` process started by the test,
on a broker (a redis-server of the test's own, on a free port) and on the test's
PostgreSQL database, sending to the test's loopback SMTP server. Killed
after the server has the message, before it could mark the row sent, it
leaves a ``sending`` claim; the sweep takes it over once the claim is older
than ``CLAIM_TIMEOUT`` and sends it again, with the same Message-ID.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
import time_machine
from django.conf import settings
from django.db import connection
from django.utils import timezone

from correspondence import outbox, sweep
from correspondence.emails import message_id
from correspondence.models import Notification
from correspondence.tasks import send_notification
from tests.conftest import make_game
from tests.faults.conftest import count, wait_for

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def worker_process(broker_redis, smtp_server, broker_at):
    """Start a Celery worker process on the test's broker, database and mail server; kill it at the end."""
    db = connection.settings_dict
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "REDIS_URL": broker_redis.url(1),
        "CELERY_BROKER_URL": broker_redis.url(2),
        "CELERY_TASK_ALWAYS_EAGER": "0",
        "EMAIL_URL": f"smtp://127.0.0.1:{smtp_server.port}",
        "EMAIL_TIMEOUT": "30",
        "LOG_LEVEL": "WARNING",
        "DJANGO_SETTINGS_MODULE": "tests.settings",
        "PYTHONPATH": str(ROOT),
        # The same site as this test process (its Redis keys' prefix), though the worker's DATABASE_URL
        # names the test database.
        "HERALD_SITE_KEY": settings.HERALD_SITE_KEY,
    }
    env.pop("HERALD_REQUIRE_SERVICES", None)
    if db["PASSWORD"]:
        env["DATABASE_URL"] = env["DATABASE_URL"].replace("@", f":{db['PASSWORD']}@", 1)
    broker_at(broker_redis.url(2))
    args = [sys.executable, "-m", "celery", "-A", "website", "worker", "-P", "solo", "-c", "1"]
    args += ["--without-mingle", "--without-gossip", "--without-heartbeat", "-l", "warning"]
    process = subprocess.Popen(args, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        yield process
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGKILL)
        process.wait(10)


def test_a_worker_killed_after_the_server_accepted_leads_to_one_resend_with_the_same_message_id(
    worker_process, smtp_server, player, opponent
):
    game = make_game(player, opponent)
    Notification.objects.filter(game=game).update(status="skipped")  # only the row below is owed
    row = Notification.objects.create(user=player, game=game, kind="game_over", seq=99)
    smtp_server.mode = "hold"
    send_notification.delay(row.pk)
    wait_for(smtp_server.data_in.is_set, timeout=30, what="the worker to reach DATA")
    assert Notification.objects.get(pk=row.pk).status == "sending"

    worker_process.send_signal(signal.SIGKILL)
    worker_process.wait(10)
    smtp_server.release.set()
    assert len(smtp_server.received) == 1, "the server accepted it before the worker died"
    assert Notification.objects.get(pk=row.pk).status == "sending", "nobody marked it sent"

    # The sweep leaves a claim alone while its sender might still be alive, then takes it over.
    smtp_server.mode = "ok"
    with time_machine.travel(timezone.now() + outbox.CLAIM_TIMEOUT - timedelta(seconds=10)):
        assert sweep.sweep()["sent"] == 0
    with time_machine.travel(timezone.now() + outbox.CLAIM_TIMEOUT + timedelta(seconds=1)):
        assert sweep.sweep()["sent"] == 1
        assert sweep.sweep()["sent"] == 0
    assert smtp_server.message_ids() == [message_id("notification", row.pk)] * 2
    assert Notification.objects.get(pk=row.pk).status == "sent"
    count("emails expected")
    count("emails sent")
    count("email deliveries", 2)
