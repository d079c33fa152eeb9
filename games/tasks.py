"""Celery tasks for games, and the listener that queues the bots' turn: ids in, a service call, nothing else."""

from __future__ import annotations

import logging

from celery import shared_task
from django.conf import settings

from games import autoplay, events, grace
from games.fanout import bot_loop_active
from games.models import Game, Seat
from ops import queue

log = logging.getLogger(__name__)


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def bot_moves(game_id: int) -> int:
    """Make the moves the bot seats of game ``game_id`` owe (``games.autoplay.game_bot_moves``).

    Returns the number of moves made; queues a follow-up task if it stopped
    at its per-task limit.
    """
    made = autoplay.game_bot_moves(game_id=game_id)
    if made >= autoplay.BOT_MOVES_PER_TASK:
        queue.enqueue(bot_moves, game_id)
    return made


def bots_on_commit(event: events.ChangesCommitted) -> None:
    """Queue ``bot_moves`` when a bot-played seat owes a decision after ``event``'s change.

    Not inside the bots' own loop, which goes on by itself. Subscribed by
    ``games.apps.GamesConfig.ready``.
    """
    if bot_loop_active():
        return
    bot_to_act = event.bot_to_act
    if bot_to_act is None:
        bot_to_act = (
            Seat.objects.filter(game_id=event.game_id, game__status=Game.Status.ACTIVE, deadline__isnull=False)
            .exclude(bot="")
            .exists()
        )
    if bot_to_act:
        queue.enqueue(bot_moves, event.game_id)


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def forced_move_due(game_id: int) -> bool:
    """Make game ``game_id``'s forced move once its grace is over (``games.grace.game_forced_move``)."""
    return grace.game_forced_move(game_id=game_id)


def grace_on_commit(event: events.ChangesCommitted) -> None:
    """Queue ``forced_move_due`` for when the grace of a forced move waiting after ``event``'s change ends.

    With eager Celery (no broker) nothing is queued: the task would run at
    once, before it is due; the sweep makes the move instead. Subscribed by
    ``games.apps.GamesConfig.ready``.
    """
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return
    wait = grace.due_in(event.game_id)
    if wait is not None:
        queue.enqueue(forced_move_due, event.game_id, countdown=wait + 1)
