"""The heartbeat task that ``/health/`` and the staff page read.

Beat queues it every ``HERALD_HEARTBEAT_EVERY`` seconds (``CELERY_BEAT_SCHEDULE``)
on the ``heartbeat`` queue (``CELERY_TASK_ROUTES``), which the workers of mail
and clocks take besides ``celery`` (the bots' workers take only ``bots``); a
worker runs it and stamps the time, so a fresh stamp means beat, the broker,
a mail-and-clocks worker and the database all work.
"""

from __future__ import annotations

from celery import shared_task
from django.utils import timezone

from ops.models import Heartbeat

#: The Heartbeat row this task stamps.
HEARTBEAT_NAME = "celery"


@shared_task(ignore_result=True, expires=120)
def heartbeat() -> str:
    """Stamp the current time (UTC) on the ``celery`` heartbeat; return it in ISO 8601."""

    now = timezone.now()
    Heartbeat.objects.update_or_create(name=HEARTBEAT_NAME, defaults={"stamped": now})
    return now.isoformat()
