"""Celery tasks for notifications and the periodic sweep, and queueing the outbox: ids in, a service call.

Every task is acknowledged late (a worker that dies mid-task leaves it on
the queue) and idempotent (the services lock the rows they change), so a
redelivered task does no harm. The beat schedule is ``CELERY_BEAT_SCHEDULE``
in the settings.
"""

from __future__ import annotations

import smtplib
from datetime import datetime

from celery import shared_task
from django.conf import settings

from correspondence import outbox
from correspondence import sweep as sweeping
from correspondence.models import Notification
from ops import queue

Kind = Notification.Kind
Status = Notification.Status

#: Errors worth retrying: the mail server or the network had a bad moment.
TRANSIENT_MAIL_ERRORS = (smtplib.SMTPException, OSError, ConnectionError, TimeoutError)


@shared_task(
    acks_late=True,
    reject_on_worker_lost=True,
    ignore_result=True,
    autoretry_for=TRANSIENT_MAIL_ERRORS,
    retry_backoff=30,
    retry_backoff_max=3600,
    retry_jitter=True,
    max_retries=8,
)
def send_notification(notification_id: int) -> bool:
    """Send outbox row ``notification_id`` if it is still pending (``outbox.notification_send``).

    A row deferred because its player has the game open is queued again
    ``HERALD_PRESENCE_TTL`` seconds on (by then they have left, or are still
    there and it waits again); with eager tasks (no broker) the sweep run
    from requests tries it instead, as running it here again would loop.
    """
    sent = outbox.notification_send(notification_id=notification_id)
    deferred = Notification.objects.filter(pk=notification_id, status=Status.DEFERRED)
    if not sent and not settings.CELERY_TASK_ALWAYS_EAGER and deferred.exists():
        queue.enqueue(send_notification, notification_id, countdown=settings.HERALD_PRESENCE_TTL)
    return sent


@shared_task(acks_late=True, ignore_result=True)
def sweep() -> dict[str, int]:
    """Timeouts, 80% warnings, expired open games and leftover outbox rows (``correspondence.sweep.sweep``)."""
    return sweeping.sweep()


@shared_task(acks_late=True, ignore_result=True)
def send_digests() -> int:
    """Send the daily your-move digests (``outbox.digests_send_all``)."""
    return outbox.digests_send_all()


def outbox_enqueue(*, game_id: int | None = None, since: datetime | None = None) -> int:
    """Queue a send task for every pending row (of ``game_id``, or all). Call after commit.

    ``since`` (UTC) limits it to rows created since then: after a move only
    the rows that move wrote need a task, and older rows left pending (a
    broker outage) are the sweep's job, so a move's cost does not grow with
    the backlog. At most ``outbox.SWEEP_BATCH`` rows. Never raises for a broker
    problem: the row stays pending and the sweep sends it later. Returns the
    number of tasks queued.
    """
    rows = Notification.objects.filter(status=Status.PENDING)
    if game_id is not None:
        rows = rows.filter(game_id=game_id)
    if since is not None:
        rows = rows.filter(created__gte=since)
    found = list(rows.order_by("pk").values_list("pk", "kind")[: outbox.SWEEP_BATCH])
    # A "your move" waits a little: a player with the game open sees the move by
    # the page's poll, which keeps them present (games.presence): the email waits while they stay.
    delay = settings.HERALD_YOUR_MOVE_EMAIL_DELAY
    return sum(
        queue.enqueue(send_notification, pk, countdown=delay if kind == Kind.YOUR_MOVE else 0) for pk, kind in found
    )
