"""The checks behind ``/health/``: database, cache, broker and the Celery heartbeat.

Each check returns ``"ok"`` or a short word for what is wrong, never the
underlying error (which may name hosts or users); the error itself goes to
the log for operators.
"""

from __future__ import annotations

import logging
import secrets
from datetime import timedelta

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.utils import timezone

from ops.models import Heartbeat
from ops.tasks import HEARTBEAT_NAME
from website.celery import app

log = logging.getLogger(__name__)

OK = "ok"


def check_database() -> str:
    """Run ``SELECT 1`` on the default database."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception:
        log.exception("health: database check failed")
        return "down"
    return OK


def check_cache() -> str:
    """Write and read back a random value in the default cache.

    The site's fail-soft Redis cache never raises (it answers as an empty
    cache while Redis is away), so it is first asked for a PING that does
    raise: ``"down"`` then means pages are served without the cache.
    """
    key, value = "herald:health", secrets.token_hex(8)
    try:
        if hasattr(cache, "ping"):
            cache.ping()
        cache.set(key, value, 30)
        if cache.get(key) != value:
            # A cache that accepts writes and forgets them (e.g. DummyCache, or
            # a full Redis with a no-eviction policy) is as good as none.
            log.error("health: cache lost the value it was given")
            return "not storing"
    except Exception:
        log.exception("health: cache check failed")
        return "down"
    return OK


def check_broker() -> str:
    """Open a connection to the Celery broker; ``"in-process"`` counts as ok when tasks run eagerly."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return OK

    try:
        with app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=settings.HERALD_HEALTH_BROKER_TIMEOUT)
    except Exception:
        log.exception("health: broker check failed")
        return "down"
    return OK


def heartbeat_age() -> timedelta | None:
    """How long ago the Celery heartbeat was stamped, or None if it never was."""

    stamped = Heartbeat.objects.filter(name=HEARTBEAT_NAME).values_list("stamped", flat=True).first()
    return None if stamped is None else max(timezone.now() - stamped, timedelta(0))


def check_heartbeat() -> str:
    """The heartbeat is younger than ``HERALD_HEARTBEAT_MAX_AGE`` seconds (skipped when tasks run eagerly)."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        # No worker and no beat exist in this mode: tasks run inside requests.
        return OK
    try:
        age = heartbeat_age()
    except Exception:
        log.exception("health: heartbeat check failed")
        return "unknown"
    if age is None:
        return "never"
    if age > timedelta(seconds=settings.HERALD_HEARTBEAT_MAX_AGE):
        return "stale"
    return OK


#: Name -> check, in the order they are reported.
CHECKS = {
    "database": check_database,
    "cache": check_cache,
    "broker": check_broker,
    "heartbeat": check_heartbeat,
}


def run_checks() -> dict[str, str]:
    """Run every check; return ``{name: "ok" or what is wrong}``."""
    return {name: check() for name, check in CHECKS.items()}


def overall(checks: dict[str, str]) -> str:
    """``"ok"``; ``"degraded"`` when only the cache, broker or heartbeat fail; ``"failing"`` without the database.

    Degraded: pages are still served and moves saved (without the cache,
    more slowly; without the broker or a worker, emails and bots' moves wait
    for the sweep). Failing: nothing can be served.
    """
    if checks.get("database", OK) != OK:
        return "failing"
    return OK if all(state == OK for state in checks.values()) else "degraded"
