"""Celery tasks of the API: a service call, nothing else."""

from __future__ import annotations

from celery import shared_task

from api import stream


@shared_task(acks_late=True, ignore_result=True)
def prune_stream() -> int:
    """Delete event-stream rows older than ``stream.KEEP_DAYS`` (``stream.prune``)."""

    return stream.prune()
