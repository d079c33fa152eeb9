"""Celery tasks for statistics: ids in, a service call, nothing else."""

from __future__ import annotations

from celery import shared_task

from stats import services


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def record_game(game_id: int) -> bool:
    """Measure a finished game (``stats.services.stats_record_game``); idempotent."""
    return services.stats_record_game(game_id=game_id)


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def forget_game(game_id: int) -> bool:
    """Take an aborted game out of the statistics (``stats.services.stats_forget_game``); idempotent."""
    return services.stats_forget_game(game_id=game_id)


@shared_task(acks_late=True, ignore_result=True)
def catch_up() -> int:
    """Beat: measure finished games that a lost task left out (``stats.services.stats_catch_up``)."""
    return services.stats_catch_up()
