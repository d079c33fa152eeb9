"""Row locks on games, in the spirit of pretix's ``lock_objects``.

Every change to a running game happens while holding its row lock, so moves,
timeouts, bots and moderators are applied one at a time and in seq order.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable
from typing import TypeVar

from django.db import DatabaseError, connection, transaction

from games.models import Game

log = logging.getLogger(__name__)
T = TypeVar("T")

#: How long to wait for another request's lock before giving up (PostgreSQL).
LOCK_TIMEOUT_MS = 5000


class LockTimeout(Exception):
    """Another request held the game for longer than ``LOCK_TIMEOUT_MS``."""


def lock_game(game_id: int) -> Game:
    """Return the Game row, locked until the surrounding transaction ends.

    Must be called inside ``transaction.atomic()``: a lock taken outside one
    would be released at once, which is a bug worth failing loudly for.

    On PostgreSQL this is ``SELECT ... FOR UPDATE`` with a lock timeout; on
    SQLite, which has no row locks, the settings open every atomic block
    with ``BEGIN IMMEDIATE`` so writers are serialised on the whole database.

    Raises:
        RuntimeError: called outside a transaction.
        Game.DoesNotExist: no such game.
        LockTimeout: the lock could not be had in time.
    """
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("lock_game() must be called inside transaction.atomic()")
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            # SET LOCAL ends with the transaction, so the setting never leaks.
            cursor.execute(f"SET LOCAL lock_timeout = {int(LOCK_TIMEOUT_MS)}")
    try:
        return Game.objects.select_for_update().get(pk=game_id)
    except DatabaseError as exc:
        if getattr(getattr(exc, "__cause__", None), "sqlstate", None) == "55P03":  # lock_not_available
            raise LockTimeout(f"game {game_id} is busy") from exc
        raise


#: PostgreSQL's SQLSTATEs for a transaction it rolled back to break a deadlock, or for a serialization failure.
RETRYABLE_SQLSTATES = frozenset({"40P01", "40001"})
#: Tries of :func:`retry_on_deadlock` (the first included) before the error is raised.
DEADLOCK_ATTEMPTS = 3


def is_retryable(exc: BaseException) -> bool:
    """True if ``exc`` is a deadlock or serialization failure: the transaction may simply be run again."""
    return getattr(getattr(exc, "__cause__", None), "sqlstate", None) in RETRYABLE_SQLSTATES


def retry_on_deadlock(fn: Callable[[], T], *, attempts: int = DEADLOCK_ATTEMPTS, atomic: bool = True) -> T:
    """Run ``fn()`` in a transaction of its own; run it again if PostgreSQL chose it as a deadlock's victim.

    For work that locks rows in an order other requests do not follow (the
    sweep, a vacation that shifts the clocks of several games, the outbox's
    send claim): PostgreSQL breaks a cycle of waits by rolling one
    transaction back (``40P01``), and a rolled-back transaction is safe to
    run again, since none of its writes or ``on_commit`` callbacks happened.
    Waits a few tens of milliseconds (jittered, growing) between tries.
    Inside an outer transaction it runs ``fn()`` once: only the outermost
    transaction can be retried. ``atomic=False`` for an idempotent service
    that opens its own transactions (and runs its own after-commit work,
    such as the bots' loop): it is called again as it is.

    Returns:
        Whatever ``fn()`` returns.

    Raises:
        Whatever ``fn()`` raises; a deadlock or serialization failure only
        after ``attempts`` tries.
    """
    if transaction.get_connection().in_atomic_block:
        return fn()
    for attempt in range(1, attempts + 1):
        try:
            if not atomic:
                return fn()
            with transaction.atomic():
                return fn()
        except DatabaseError as exc:
            if attempt == attempts or not is_retryable(exc):
                raise
            log.info(
                "transaction rolled back by PostgreSQL (%s); try %d of %d",
                getattr(exc.__cause__, "sqlstate", None),
                attempt + 1,
                attempts,
            )
            time.sleep(random.uniform(0.02, 0.05) * 2**attempt)
    raise AssertionError("unreachable")
