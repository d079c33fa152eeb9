"""Celery tasks of moderation: ids in, a service call, nothing else."""

from __future__ import annotations

from celery import shared_task

from moderation import services


@shared_task(acks_late=True, ignore_result=True)
def forfeit_banned_seats() -> int:
    """Forfeit banned players' seats in running games (``services.banned_seats_forfeit``)."""

    return services.banned_seats_forfeit()
