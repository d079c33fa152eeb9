"""Celery tasks for notifications and the periodic sweep: ids in, a service call, nothing else.

Every task is acknowledged late (a worker that dies mid-task leaves it on
the queue) and idempotent (the services lock the rows they change), so a
redelivered task does no harm. The beat schedule is ``CELERY_BEAT_SCHEDULE``
in the settings.
"""

from __future__ import annotations

import smtplib

from celery import shared_task

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
    """Send outbox row ``notification_id`` if it is still pending (``services.notification_send``)."""
    from correspondence import services

    return services.notification_send(notification_id=notification_id)


@shared_task(acks_late=True, ignore_result=True)
def sweep() -> dict[str, int]:
    """Timeouts, 80% warnings, expired open games and leftover outbox rows (``services.sweep``)."""
    from correspondence import services

    return services.sweep()


@shared_task(acks_late=True, ignore_result=True)
def send_digests() -> int:
    """Send the daily your-move digests (``services.digests_send_all``)."""
    from correspondence import services

    return services.digests_send_all()
