"""After a change to a game commits: cache its new state, then publish ``ChangesCommitted``.

A move's fan-out (queueing its emails and the bot's turn) does not change
the mover's answer, so in a request it runs once the answer has been sent
(``ops.after_response``); the new position is cached before the answer, for
the other players' polls. Everything here runs after commit and never
raises: the change is saved, and the periodic sweep catches up on whatever
a broker outage or a crash left undone.
"""

from __future__ import annotations

import contextvars
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from functools import partial

from django.conf import settings
from django.core.cache import cache
from django.db import transaction

from games import events
from games.engine.core import Engine
from games.models import Game, Seat
from games.replay import STATE_CACHE_TIMEOUT, Snapshot, snapshot_pickle, state_key
from ops.after_response import after_response

log = logging.getLogger(__name__)

_bot_loop: contextvars.ContextVar[bool] = contextvars.ContextVar("herald_bot_loop", default=False)


def bot_loop_active() -> bool:
    """True while ``games.autoplay.game_bot_moves`` runs in this context, so no other bot task is queued."""
    return _bot_loop.get()


@contextmanager
def in_bot_loop() -> Iterator[None]:
    """Mark this context as the bots' move loop for as long as the ``with`` block runs."""
    token = _bot_loop.set(True)
    try:
        yield
    finally:
        _bot_loop.reset(token)


def on_commit_cache_and_fan_out(
    game: Game, engine: Engine, snap: Snapshot, *, since: datetime, seats: list[Seat] | None = None
) -> None:
    """After commit: cache the snapshot at ``game.last_seq`` and call :func:`after_move`.

    The pickle is taken now, so later changes to the state cannot leak in.
    ``since``: when the change began, taken before it wrote any outbox row
    (UTC). With ``seats`` (as the change left them) nobody need ask the
    database whether a bot is to move.
    """
    key = state_key(game, game.last_seq, engine.version)
    blob = snapshot_pickle(snap)
    bot_to_act = None
    if seats is not None:
        bot_to_act = game.is_active and any(s.bot_played and s.deadline is not None for s in seats)
    transaction.on_commit(partial(_cache_and_fan_out, key, blob, game.pk, game.last_seq, since, bot_to_act))


def on_commit_fan_out(
    game: Game, *, since: datetime, bot_to_act: bool | None = None, after_answer: bool = False
) -> None:
    """After commit: :func:`after_move` for a change that made no new position (a forfeit, a chat line).

    ``after_answer``: in a request, wait until its answer has been sent
    (``ops.after_response``), for changes whose page does not show the work.
    """
    fan_out = partial(after_move, game_id=game.pk, seq=game.last_seq, since=since, bot_to_act=bot_to_act)
    transaction.on_commit(partial(after_response, fan_out) if after_answer else fan_out)


def _cache_and_fan_out(key: str, blob: bytes, game_id: int, seq: int, since: datetime, bot_to_act: bool | None) -> None:
    # The new position is cached at once: the other players' polls read it next.
    cache.set(key, blob, STATE_CACHE_TIMEOUT)
    fan_out = partial(after_move, game_id=game_id, seq=seq, since=since, bot_to_act=bot_to_act)
    if (settings.CELERY_TASK_ALWAYS_EAGER and bot_to_act is not False) or bot_loop_active():
        # At once: without a broker a bot's turn runs inline and the mover's answer shows it
        # (games.views.game_move); a bot loop inside a request goes on by itself, and deferred past the
        # loop its moves' fan-outs would each queue another bot task (the bots' listener checks the loop).
        fan_out()
    else:
        # Queueing emails and the bot's turn need not delay the mover's answer (ops.after_response).
        after_response(fan_out)


def after_move(*, game_id: int, seq: int, since: datetime, bot_to_act: bool | None = None) -> None:
    """Publish :class:`games.events.ChangesCommitted` for a committed move, start, timeout or chat line.

    Its listeners queue a send task for each outbox row the change wrote
    (``correspondence``) and, if a bot seat now owes a decision, the
    ``bot_moves`` task (``games.tasks``). It never raises: a listener's
    failure (a broker outage) is logged, and the periodic sweep does the work
    later, since the change is saved.

    Args:
        game_id: the game that changed.
        seq: its ``last_seq`` after the change (0 for a start).
        since: when the change began, before it wrote any outbox row (UTC).
        bot_to_act: whether a bot-played seat owes a decision, if the caller
            knows; None asks the database.
    """
    log.debug("after_move game=%s seq=%s", game_id, seq)
    events.publish(events.ChangesCommitted(game_id=game_id, seq=seq, since=since, bot_to_act=bot_to_act))
