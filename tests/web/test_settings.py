"""Settings helpers, and the services the settings point at."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import ImproperlyConfigured

from tests.conftest import skip_missing_service
from website.env import email_config, envbool, envint, envlist, envstr


def test_env_helpers(monkeypatch, tmp_path):
    monkeypatch.setenv("X_BOOL", "yes")
    assert envbool("X_BOOL", False) is True
    monkeypatch.setenv("X_BOOL", "maybe")
    with pytest.raises(ImproperlyConfigured, match="X_BOOL"):
        envbool("X_BOOL", False)
    monkeypatch.setenv("X_INT", "12")
    assert envint("X_INT", 1) == 12
    monkeypatch.setenv("X_INT", "twelve")
    with pytest.raises(ImproperlyConfigured, match="X_INT"):
        envint("X_INT", 1)
    monkeypatch.setenv("X_LIST", "a, b,,c")
    assert envlist("X_LIST", []) == ["a", "b", "c"]
    secret = tmp_path / "secret"
    secret.write_text("s3cret\n")
    monkeypatch.setenv("X_STR_FILE", str(secret))
    assert envstr("X_STR") == "s3cret"
    monkeypatch.setenv("X_BOOL_FILE", str(tmp_path / "missing"))
    with pytest.raises(ImproperlyConfigured, match="X_BOOL_FILE"):
        envbool("X_BOOL", False)


def test_email_urls():
    assert email_config("console:")["EMAIL_BACKEND"].endswith("console.EmailBackend")
    smtp = email_config("smtp+tls://me%40x.org:p%20w@mail.example.org:2525")
    assert (smtp["EMAIL_HOST"], smtp["EMAIL_PORT"], smtp["EMAIL_HOST_USER"]) == ("mail.example.org", 2525, "me@x.org")
    assert smtp["EMAIL_HOST_PASSWORD"] == "p w"
    assert smtp["EMAIL_USE_TLS"] is True
    with pytest.raises(ImproperlyConfigured):
        email_config("pigeon://coop")


def test_start_up_stops_without_secret_key_when_debug_is_off():
    env = {k: v for k, v in os.environ.items() if k not in ("SECRET_KEY", "SECRET_KEY_FILE")}
    env.update(DEBUG="0", DJANGO_SETTINGS_MODULE="website.settings")
    proc = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        env=env,
        capture_output=True,
        text=True,
        cwd=settings.BASE_DIR,
        check=False,
    )
    assert proc.returncode != 0
    assert "SECRET_KEY" in proc.stderr


def test_i18n_and_time_zone_settings():
    assert [code for code, _name in settings.LANGUAGES] == ["en", "zh-hant", "zh-hans"]
    assert settings.TIME_ZONE == "UTC"
    assert settings.USE_TZ is True
    assert "django.middleware.locale.LocaleMiddleware" in settings.MIDDLEWARE


def test_redis_cache_when_configured():
    if not os.environ.get("REDIS_URL"):
        skip_missing_service("Redis (set REDIS_URL)")
    assert settings.CACHES["default"]["BACKEND"].endswith("RedisCache")
    # Cache and broker share the server but not the database (flushing the cache keeps queued tasks).
    location = settings.CACHES["default"]["LOCATION"]
    assert location != settings.CELERY_BROKER_URL
    # Under tests, on REDIS_URL's server but in a database of their own (never the configured one).
    assert location.rsplit("/", 1)[0] == os.environ["REDIS_URL"].rsplit("/", 1)[0]
    assert location != os.environ["REDIS_URL"]
    cache.set("herald:test", {"a": 1}, 10)
    assert cache.get("herald:test") == {"a": 1}


def test_clearing_the_tests_cache_leaves_the_configured_redis_database_alone():
    """A test run beside `make run` must not wipe the site's data (issue 23, item 10)."""
    import redis

    if not os.environ.get("REDIS_URL"):
        skip_missing_service("Redis (set REDIS_URL)")
    site = redis.Redis.from_url(os.environ["REDIS_URL"], socket_connect_timeout=1)
    site.set("herald:site-data-kept-by-tests", "1", ex=60)
    try:
        cache.set("herald:test", 1, 10)
        cache.clear()  # what every site test's fast_and_clean fixture does
        assert site.get("herald:site-data-kept-by-tests") == b"1"
        assert cache.get("herald:test") is None
    finally:
        site.delete("herald:site-data-kept-by-tests")


SITE_PROBE = """
import json, django
django.setup()
from django.conf import settings
from django.core.cache import cache
from website.celery import app
action, = __import__("sys").argv[1:]
if action == "write":
    cache.set("shared-name", "mine", 60)
    app.send_task("ops.tasks.heartbeat")
with app.connection_for_read() as conn:
    waiting = conn.default_channel.queue_declare("heartbeat", passive=False).message_count
    if action == "read":
        conn.default_channel.queue_purge("heartbeat")
print(json.dumps({"key": settings.HERALD_SITE_KEY, "cached": cache.get("shared-name"), "waiting": waiting}))
"""


def test_two_sites_on_one_redis_share_no_cache_and_no_task_queue(tmp_path):
    """Two checkouts' `make run` on one machine's Redis: neither reads the other's cache nor runs its tasks.

    Each site is its database (here two SQLite files); its Redis keys start with a name made from it.
    """
    if not os.environ.get("REDIS_URL"):
        skip_missing_service("Redis (set REDIS_URL)")
    # The tests' own Redis database (settings moved REDIS_URL there), never the site's data.
    shared = settings.CACHES["default"]["LOCATION"]

    def site(name: str, action: str) -> dict:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("HERALD_", "CELERY_"))}
        env.update(
            DJANGO_SETTINGS_MODULE="website.settings",
            DATABASE_URL=f"sqlite:///{tmp_path / name}.sqlite3",
            REDIS_URL=shared,
            CELERY_TASK_ALWAYS_EAGER="0",
        )
        proc = subprocess.run(
            [sys.executable, "-c", SITE_PROBE, action],
            env=env,
            capture_output=True,
            text=True,
            cwd=settings.BASE_DIR,
            check=False,
            timeout=60,
        )
        assert proc.returncode == 0, proc.stderr
        return json.loads(proc.stdout.strip().splitlines()[-1])

    try:
        first = site("first", "write")
        other = site("other", "look")
        assert first["key"] != other["key"]
        assert (first["cached"], first["waiting"]) == ("mine", 1)
        assert (other["cached"], other["waiting"]) == (None, 0)  # the first site's task is not the other's to run
        assert site("first", "read")["waiting"] == 1  # still there for the first site's own worker
    finally:
        import redis

        for url in (shared, settings.CELERY_BROKER_URL):
            redis.Redis.from_url(url).flushdb()


@pytest.mark.parametrize(
    ("one", "same"),
    [
        ({"HOST": "127.0.0.1", "PORT": 5432}, {"HOST": "localhost", "PORT": ""}),
        ({"HOST": "db.internal", "PORT": ""}, {"HOST": "DB.internal", "PORT": "5432"}),
    ],
)
def test_one_database_spelled_two_ways_is_one_site(one, same):
    """Web and workers whose DATABASE_URLs name one database differently (a default port left out, localhost for
    127.0.0.1) share one site key, or tasks would wait on a queue no worker reads."""
    from website.env import site_key

    base = {"ENGINE": "django.db.backends.postgresql", "NAME": "herald"}
    assert site_key({**base, **one}) == site_key({**base, **same})
    assert site_key({**base, **one}) != site_key({**base, **one, "NAME": "herald_staging"})
