"""What statistics does when a game ends (``games.events``).

A finished game is measured by a Celery task queued after the commit that
finished it (never inside it: the replay takes milliseconds that the
finishing move need not wait for, and the queue must not hear of a game
whose finish was rolled back). A broker outage loses nothing: the beat
sweep (``stats.tasks.catch_up``) measures every finished game that has no
rows. A finished game a moderator aborts is taken out the same way.
"""

from __future__ import annotations

from functools import partial

from django.db import transaction

from games import events
from ops.after_response import after_response
from ops.queue import enqueue
from stats.tasks import forget_game, record_game


def on_game_finished(event: events.GameFinished) -> None:
    """After commit (and after the response, in a request): queue ``record_game``."""
    transaction.on_commit(partial(after_response, partial(enqueue, record_game, event.game.pk)))


def on_game_cancelled(event: events.GameCancelled) -> None:
    """After commit: queue ``forget_game`` for a finished game that a moderator aborted."""
    if event.was == "finished":
        transaction.on_commit(partial(enqueue, forget_game, event.game.pk))


def connect() -> None:
    """Subscribe to the games' events (``StatsConfig.ready``)."""
    events.subscribe(events.GameFinished, on_game_finished)
    events.subscribe(events.GameCancelled, on_game_cancelled)
