"""Reads from a PostgreSQL streaming replica, for the pages that can take a little lag.

``DATABASE_REPLICA_URL`` adds a ``replica`` database alias (see
``website/settings.py``); :class:`ReplicaRouter` then sends the reads made
inside :func:`replica_reads` there, and everything else to ``default``:
every write, every read outside such a block, and so the whole move path,
the game page of a running game and anything read in order to write. A
replica lags the primary by a little, so only pages where a few seconds of
lag is harmless use it: profiles and ladders. Without the setting, or with
the alias missing, every query goes to ``default`` as before. This is Django's documented primary/replica
router (topics/db/multi-db), switched per view by a context variable
instead of per model, because the same models are read on both kinds of
page.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar

from django.conf import settings

REPLICA = "replica"

_reading_replica: ContextVar[bool] = ContextVar("herald_replica_reads", default=False)

F = TypeVar("F", bound=Callable[..., Any])


@contextmanager
def replica_reads() -> Iterator[None]:
    """Within this block, reads go to the replica (when one is configured)."""
    token = _reading_replica.set(True)
    try:
        yield
    finally:
        _reading_replica.reset(token)


def reads_from_replica(view: F) -> F:
    """Decorate a read-only view so that its queries read from the replica (when one is configured)."""

    @functools.wraps(view)
    def wrapper(request: Any, *args: Any, **kwargs: Any) -> Any:
        # The session and the signed-in user come from the primary, before any
        # replica read: a lagging replica must never sign a fresh session out.
        user = getattr(request, "user", None)
        if user is not None:
            user.is_authenticated  # noqa: B018 - evaluates the lazy user now
        with replica_reads():
            return view(request, *args, **kwargs)

    return wrapper  # type: ignore[return-value]


def read_alias() -> str:
    """The alias a read made now goes to: ``replica`` inside :func:`replica_reads` if configured, else ``default``."""
    if _reading_replica.get() and REPLICA in settings.DATABASES:
        return REPLICA
    return "default"


class ReplicaRouter:
    """Django database router: reads inside ``replica_reads`` to the replica, all else to ``default``.

    Relations between objects of the two aliases are allowed (they are the
    same database), and migrations run on ``default`` only (the replica
    follows it by streaming replication).
    """

    def db_for_read(self, model: type, **hints: Any) -> str:
        """Return the alias for a read of ``model``: see :func:`read_alias`."""
        return read_alias()

    def db_for_write(self, model: type, **hints: Any) -> str:
        """Every write goes to the primary."""
        return "default"

    def allow_relation(self, obj1: Any, obj2: Any, **hints: Any) -> bool:
        """Objects read from either alias come from the same data."""
        return True

    def allow_migrate(self, db: str, app_label: str, model_name: str | None = None, **hints: Any) -> bool:
        """Migrate the primary only."""
        return db == "default"
