"""Django's Redis cache, with one Redis client object per connection pool instead of one per call.

Django's ``RedisCacheClient.get_client`` builds a new ``redis.Redis`` for
every cache operation, and each one copies redis-py's table of some 170
response callbacks: on the load machine that was a fifth of a millisecond
per operation, and a page makes five to eight. The client objects are
thread-safe and share the pool's connections, so one per pool is enough.
Everything else (pools, serialisation, options) is Django's own.
"""

from __future__ import annotations

from typing import Any

from django.core.cache.backends.redis import RedisCache, RedisCacheClient


class ReusingRedisCacheClient(RedisCacheClient):
    """``RedisCacheClient`` that keeps the ``redis.Redis`` it makes for each connection pool."""

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        """Return the client of the pool for ``write`` (made once per pool); ``key`` is unused, as in Django."""
        index = self._get_connection_pool_index(write)
        clients = self.__dict__.setdefault("_clients", {})
        client = clients.get(index)
        if client is None:
            client = clients[index] = self._client(connection_pool=self._get_connection_pool(write))
        return client


class HeraldRedisCache(RedisCache):
    """Django's ``RedisCache`` with :class:`ReusingRedisCacheClient` (``BACKEND: website.cache.HeraldRedisCache``)."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = ReusingRedisCacheClient
