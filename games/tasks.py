"""Celery tasks for games: ids in, a service call, nothing else.

``enqueue`` is how the site queues any task after commit: it never raises
for a broker problem (the work is also found by the periodic sweep), so a
saved move is never answered with an error because Redis was away.
"""

from __future__ import annotations

import logging
from typing import Any

from celery import Task, shared_task

log = logging.getLogger(__name__)


def enqueue(task: Task, *args: Any, countdown: float = 0) -> bool:
    """Queue ``task(*args)`` (to run ``countdown`` seconds from now); log and return False if the broker refused it.

    With eager Celery (no broker) the task runs here and now, countdown or
    not; an exception it raises is logged, not raised, for the same reason.
    """
    try:
        if countdown > 0:
            task.apply_async(args, countdown=countdown)
        else:
            task.delay(*args)
    except Exception:  # kombu.OperationalError, redis errors, or the task itself when eager
        log.warning("could not run or queue %s%r; the sweep will pick it up", task.name, args, exc_info=True)
        return False
    return True


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def bot_moves(game_id: int) -> int:
    """Make the moves the bot seats of game ``game_id`` owe (``games.autoplay.game_bot_moves``).

    Returns the number of moves made; queues a follow-up task if it stopped
    at its per-task limit.
    """
    from games import autoplay

    made = autoplay.game_bot_moves(game_id=game_id)
    if made >= autoplay.BOT_MOVES_PER_TASK:
        enqueue(bot_moves, game_id)
    return made
