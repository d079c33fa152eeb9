"""The site's Redis cache: Django's, reusing one client per connection pool."""

from __future__ import annotations

import os

import pytest

from tests.conftest import skip_missing_service
from website.cache import HeraldRedisCache


@pytest.fixture
def redis_cache():
    import redis

    from tests.settings import HERALD_TEST_CACHE_REDIS_DB

    # A Redis database of its own, one per test process (tests/settings.py): the worker tests use
    # theirs, the site 1 and 2.
    base = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/1"
    url = base.rsplit("/", 1)[0] + f"/{HERALD_TEST_CACHE_REDIS_DB}"
    try:
        redis.Redis.from_url(url, socket_connect_timeout=1).ping()
    except redis.RedisError:
        skip_missing_service("Redis (set REDIS_URL)")
    cache = HeraldRedisCache(url, {})
    cache.clear()
    yield cache
    cache.clear()


def test_values_round_trip_and_every_operation_shares_one_client(redis_cache):
    redis_cache.set("a", {"n": 1}, 30)
    redis_cache.set_many({"b": [2], "c": "three"}, 30)
    assert redis_cache.get("a") == {"n": 1}
    assert redis_cache.get_many(["b", "c", "missing"]) == {"b": [2], "c": "three"}
    client = redis_cache._cache
    assert client.get_client() is client.get_client(write=True), "one pool, one client"
    redis_cache.delete("a")
    assert redis_cache.get("a") is None
