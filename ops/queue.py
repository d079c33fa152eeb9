"""Queueing Celery tasks so that a broker outage never fails the request that queued them.

``enqueue`` is how the site queues any task after commit: it never raises
for a broker problem, because the database says what is owed and the
periodic sweep finds the work later, so a saved move is never answered with
an error because Redis was away.
"""

from __future__ import annotations

import logging
from typing import Any

from celery import Task

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
