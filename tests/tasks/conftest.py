"""Fixtures for the correspondence tests: fake engines, clean caches, mail, and a real worker.

Most tests here run Celery eagerly with the on-commit callbacks executed
(``commit`` fixture), so a move's fan-out happens as in production. Tests
marked ``worker`` start a real Celery worker thread on this machine's Redis
(database ``HERALD_TEST_WORKER_REDIS_DB``, one per test process, so
the site's cache database is untouched);
they skip without Redis, and fail instead under ``HERALD_REQUIRE_SERVICES``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import timedelta

import pytest
from django.core import mail
from pytest_django import DjangoCaptureOnCommitCallbacks, Settings

from accounts.models import User
from correspondence.services import outbox_enqueue
from games import services
from games.engine import registry
from games.models import Game
from tests.conftest import seated, skip_missing_service
from tests.factories import UserFactory


@pytest.fixture(autouse=True)
def _site(site_test: None, monkeypatch: pytest.MonkeyPatch, settings: Settings) -> None:
    """Fake engines, a clean cache, locmem mail and a known site URL for every test here."""
    monkeypatch.setitem(registry.ENGINE_MODULES, "ackcounter", "tests.tasks.fakes")
    settings.SITE_URL = "https://herald.example"
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    mail.outbox.clear()


@pytest.fixture
def commit(django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks) -> object:
    """Run on-commit callbacks (the after-move fan-out) as a real commit would."""

    def run() -> object:
        return django_capture_on_commit_callbacks(execute=True)

    return run


def new_game(
    creator: User,
    *others: User,
    kind: str = "counter",
    bots: tuple[str, ...] = (),
    time_per_move: timedelta = timedelta(days=1),
    clock: str = Game.Clock.MOVE,
    increment: timedelta = timedelta(0),
    target: int = 10,
) -> Game:
    """Create and fill a game through the services; return it fresh from the database.

    The start's emails are sent and the mail outbox emptied, so a test sees
    only what comes after.
    """
    game = services.game_create(
        creator=creator,
        kind=kind,
        options={"target": target},
        players=1 + len(others) + len(bots),
        rated=False,
        private=False,
        time_per_move=time_per_move,
        bots=bots,
        clock=clock,
        increment=increment,
    )
    for user in others:
        services.game_join(game_id=game.pk, user=user)
    outbox_enqueue(game_id=game.pk)
    mail.outbox.clear()
    return Game.objects.get(pk=game.pk)


def to_move(game: Game) -> User:
    """The user who owes the game's first open decision."""
    game.refresh_from_db()
    return seated(game.seats.get(position=game.to_act[0]))


def play(game: Game, n: int = 1) -> None:
    """Have whoever owes the decision add ``n``."""
    game.refresh_from_db()
    seat = game.seats.get(position=game.to_act[0])
    services.game_submit_move(
        game_id=game.pk, user=seated(seat), move={"act": "add", "n": n}, expected_seq=game.last_seq
    )


@pytest.fixture
def users(db: None) -> list[User]:
    """Four players."""
    return [UserFactory.create(username=f"p{i}") for i in range(4)]


def redis_url() -> str | None:
    """The Redis of this machine: ``REDIS_URL``'s host, or 127.0.0.1:6379, if it answers."""
    import redis

    from tests.settings import HERALD_TEST_WORKER_REDIS_DB

    base = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/1"
    # Each test process (xdist worker) has its own database: tests/settings.py.
    url = base.rsplit("/", 1)[0] + f"/{HERALD_TEST_WORKER_REDIS_DB}"
    try:
        redis.Redis.from_url(url, socket_connect_timeout=1).ping()
    except redis.RedisError:
        return None
    return url


def use_broker(url: str) -> None:
    """Point the site's Celery app at ``url``, dropping every pooled connection and producer."""
    from website.celery import app

    # celery 5.6 fills broker_read_url and broker_write_url in from broker_url once, when the
    # configuration is read; set them too, or publishing would go on to the first broker.
    app.conf["broker_url"] = app.conf["broker_read_url"] = app.conf["broker_write_url"] = url
    # Drop (not close) the pools: kombu keeps producer pools per connection
    # globally, and a closed one would be handed out again. Both are private, so celery-types leave them out.
    app._pool = None  # type: ignore[attr-defined]
    app.amqp._producer_pool = None  # type: ignore[attr-defined]


@pytest.fixture
def celery_worker_on_redis(transactional_db: None, settings: Settings) -> Iterator[object]:
    """A real Celery worker thread consuming from this machine's Redis (its own database), on PostgreSQL.

    The site's Celery app is pointed at that broker and made non-eager for
    the test, then restored.
    """
    from celery.contrib.testing.worker import start_worker
    from django.db import connection

    from website.celery import app

    if connection.vendor != "postgresql":
        # SQLite's shared in-memory test database locks whole tables between
        # threads (no busy timeout), so a worker thread beside the test fails.
        skip_missing_service("PostgreSQL (set DATABASE_URL) for the Celery worker tests")
    url = redis_url()
    if url is None:
        skip_missing_service("Redis on 127.0.0.1:6379 (or REDIS_URL) for the Celery worker tests")
    import redis

    redis.Redis.from_url(url).flushdb()
    saved = {k: app.conf[k] for k in ("broker_url", "task_always_eager", "result_backend")}
    # celery 5.6 reads a setting's CELERY_-prefixed Django name before the value set on app.conf.
    settings.CELERY_TASK_ALWAYS_EAGER = False
    app.conf.update(task_always_eager=False, result_backend=None)
    use_broker(url)
    try:
        with start_worker(app, pool="solo", concurrency=1, perform_ping_check=False, shutdown_timeout=10) as worker:
            yield worker
    finally:
        app.conf.update(saved)
        use_broker(saved["broker_url"])
