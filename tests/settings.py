"""The tests' settings: the site's own, with the tests' "counter" game installed.

The counter game (``tests/counter``) is installed as any game is, by naming
its package in ``HERALD_GAMES`` (and so in ``INSTALLED_APPS``): one folder
and one line.

``make test`` runs the suite in parallel processes (pytest-xdist: gw0, gw1,
...). Each gets a PostgreSQL database of its own from pytest-django
(``test_<name>_gw0``, ...) and, from here, Redis databases of its own, so no
worker flushes another's cache or queue: see :data:`TEST_REDIS_DBS`.
"""

from __future__ import annotations

import os
import re

#: The Redis databases (of ``REDIS_URL``'s server) each test process uses: the cache's (the
#: Celery broker takes the next one), the real-worker tests' (tests/tasks) and the cache tests'
#: (tests/ops/test_cache.py). Row n is xdist worker ``gw<n>``; a run without xdist is row 0.
#: Redis has databases 0 to 15; 0 to 3 are left to the site (REDIS_URL ``/1`` puts its broker on 2),
#: so at most three workers (``make test`` asks for ``--maxprocesses 3``).
#: ``HERALD_TEST_REDIS_DB`` moves the first row's cache (and broker) elsewhere, as before xdist.
TEST_REDIS_DBS: list[tuple[int, int, int]] = [(12, 9, 14), (10, 8, 15), (6, 5, 4)]


def _worker_index() -> int:
    """This process's xdist worker number (``PYTEST_XDIST_WORKER=gw1`` -> 1), 0 without xdist."""
    match = re.fullmatch(r"gw(\d+)", os.environ.get("PYTEST_XDIST_WORKER", ""))
    return int(match.group(1)) if match else 0


_worker = _worker_index()
if _worker >= len(TEST_REDIS_DBS):
    raise RuntimeError(
        f"xdist worker gw{_worker}: Redis has no free databases for more than {len(TEST_REDIS_DBS)} test "
        f"processes (tests/settings.py, TEST_REDIS_DBS); run pytest with -n {len(TEST_REDIS_DBS)} or fewer"
    )
if _worker > 0:
    # Read by website.settings below: the cache on this database, the broker on the next.
    os.environ["HERALD_TEST_REDIS_DB"] = str(TEST_REDIS_DBS[_worker][0])

from website.settings import *  # noqa: E402, F403 - the site's settings, plus one game

HERALD_GAMES = [*HERALD_GAMES, "tests.counter"]  # noqa: F405
INSTALLED_APPS = [*INSTALLED_APPS, "tests.counter"]  # noqa: F405

#: The Redis database the tests that start a real Celery worker use as its broker (tests/tasks).
HERALD_TEST_WORKER_REDIS_DB = TEST_REDIS_DBS[_worker][1]
#: The Redis database the tests of the cache backend itself fill and flush (tests/ops/test_cache.py).
HERALD_TEST_CACHE_REDIS_DB = TEST_REDIS_DBS[_worker][2]

if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":  # noqa: F405
    # A test database need not outlive a crash: a commit returns without waiting for its WAL to reach the
    # disk (it is as visible to other connections as before). Transactional tests commit every move, and
    # on a busy machine each wait for the disk cost more than the move.
    DATABASES["default"].setdefault("OPTIONS", {})["options"] = "-c synchronous_commit=off"  # noqa: F405
