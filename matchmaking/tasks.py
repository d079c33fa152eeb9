"""Celery tasks of matchmaking. ``tick`` runs every minute from beat (``CELERY_BEAT_SCHEDULE["matchmaking"]``)."""

from __future__ import annotations

from celery import shared_task

from matchmaking import periodic


@shared_task(acks_late=True, ignore_result=True)
def tick() -> dict[str, int]:
    """Expire seeks, lapse rematch offers, run the matcher (``matchmaking.periodic.tick``); idempotent."""
    return periodic.tick()
