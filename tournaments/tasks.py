"""Celery tasks of tournaments: ids in, a service call. Acknowledged late and idempotent.

``tick`` runs every minute from beat (``CELERY_BEAT_SCHEDULE["tournaments"]``):
it starts tournaments whose time came and advances those whose round is
complete, so a lost ``advance`` task costs a minute at most.
"""

from __future__ import annotations

from celery import shared_task

from ops import queue
from tournaments import services


@shared_task(acks_late=True, ignore_result=True)
def advance(tournament_id: int) -> str:
    """Make the next round or end the tournament if its round is complete (``services.tournament_advance``)."""
    return services.tournament_advance(tournament_id=tournament_id)


@shared_task(acks_late=True, ignore_result=True)
def tick() -> dict[str, int]:
    """Start due tournaments and advance complete rounds (``services.tick``)."""
    return services.tick()


def queue_advance(tournament_id: int) -> bool:
    """Queue :func:`advance` (after commit); a broker outage is logged and left to the tick."""
    return queue.enqueue(advance, tournament_id)
