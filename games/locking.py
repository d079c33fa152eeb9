"""Row locks on games, in the spirit of pretix's ``lock_objects``.

Every change to a running game happens while holding its row lock, so moves,
timeouts, bots and moderators are applied one at a time and in seq order.
"""

from __future__ import annotations

from django.db import DatabaseError, connection, transaction

from games.models import Game

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
