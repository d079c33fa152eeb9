"""Django's Redis cache, with one Redis client object per connection pool instead of one per call.

Django's ``RedisCacheClient.get_client`` builds a new ``redis.Redis`` for
every cache operation, and each one copies redis-py's table of some 170
response callbacks: on the load machine that was a fifth of a millisecond
per operation, and a page makes five to eight. The client objects are
thread-safe and share the pool's connections, so one per pool is enough.
Everything else (pools, serialisation, options) is Django's own.

:class:`FailSoftRedisCache` (the site's backend) adds one thing: while Redis
cannot be reached, it answers as an empty cache instead of raising, so
pages are drawn from the database (more slowly), sessions are read from
PostgreSQL (they are ``cached_db``), and moves save. It costs a page one
clock read per cache call while Redis is fine.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from datetime import timedelta
from typing import Any, TypeAlias

import redis
from django.core.cache.backends.redis import RedisCache, RedisCacheClient

log = logging.getLogger(__name__)

#: What an unreachable, timing-out or refusing Redis raises (redis-py wraps socket errors; OSError for the rest).
RedisFailure = (redis.RedisError, OSError)

#: A key and a timeout as Django's client methods accept them (the types django-stubs give them, from redis-py);
#: Django itself always passes ``str`` keys and ``int | None`` timeouts.
Key: TypeAlias = str | bytes | memoryview
Expiry: TypeAlias = int | timedelta


class ReusingRedisCacheClient(RedisCacheClient):
    """``RedisCacheClient`` that keeps the ``redis.Redis`` it makes for each connection pool."""

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        """Return the client of the pool for ``write`` (made once per pool); ``key`` is unused, as in Django."""
        # Django's private helpers of RedisCacheClient, which django-stubs leave out.
        index = self._get_connection_pool_index(write)  # type: ignore[attr-defined]
        clients = self.__dict__.setdefault("_clients", {})
        client = clients.get(index)
        if client is None:
            pool = self._get_connection_pool(write)  # type: ignore[attr-defined]
            client = clients[index] = self._client(connection_pool=pool)  # type: ignore[attr-defined]
        return client


class HeraldRedisCache(RedisCache):
    """Django's ``RedisCache`` with :class:`ReusingRedisCacheClient` (``BACKEND: website.cache.HeraldRedisCache``)."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = ReusingRedisCacheClient


#: Seconds a process leaves Redis alone after a failed operation before trying it again.
RETRY_AFTER = 5.0
#: Keys whose write or delete failed, kept to delete once Redis answers again; past this many, clear instead.
MAX_PENDING_INVALIDATIONS = 10_000

#: The client methods that write, with how to find the keys they write from their arguments.
_WRITES: dict[str, Callable[..., Iterable[Key]]] = {
    "add": lambda key, *a: [key],
    "set": lambda key, *a: [key],
    "touch": lambda key, *a: [key],
    "delete": lambda key, *a: [key],
    "incr": lambda key, *a: [key],
    "set_many": lambda data, *a: list(data),
    "delete_many": lambda keys, *a: list(keys),
}


#: What each client method answers while Redis is unreachable: what an empty cache would
#: (but ``add``, see FailSoftRedisCacheClient).
_EMPTY: dict[str, Any] = {
    "add": True,
    "set": None,
    "touch": False,
    "delete": False,
    "get_many": {},
    "has_key": False,
    "set_many": None,
    "delete_many": None,
    "clear": False,
}


class FailSoftRedisCacheClient(ReusingRedisCacheClient):
    """``ReusingRedisCacheClient`` that answers as an empty cache while Redis cannot be reached.

    Every operation that fails with a Redis or socket error is logged (once
    per outage, with the error; again when Redis is back) and answered as an
    empty cache would: ``get`` gives the default, ``get_many`` nothing,
    ``has_key`` False, ``incr`` raises ``ValueError`` (the key is missing,
    which callers already handle), writes and deletes do nothing. ``add``
    answers True, as if the key had been added: locks and first-time guards
    built on it (allauth's rate limits take such a lock, and refuse the
    request after waiting a second for it) let their caller through instead
    of waiting for a cache that is not there; so rate limits fail open here,
    and ``ops.middleware.RateLimitMiddleware`` refuses the views that must
    fail closed, by asking :attr:`degraded`. After a failure the process leaves Redis
    alone for ``RETRY_AFTER`` seconds, so a page makes one slow attempt per
    outage window instead of one per cache call.

    A write or delete that did not reach Redis may leave an old value there
    (a signed-out session, a lifted ban), which would come back with Redis.
    So the keys of failed writes are remembered in the process and deleted
    before anything else is read once Redis answers again; more than
    ``MAX_PENDING_INVALIDATIONS`` of them and the whole cache is cleared
    instead (all of it can be rebuilt from the database).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._down_until = 0.0
        self._pending: set[Key] = set()
        self._overflow = False
        self._state_lock = threading.Lock()

    @property
    def degraded(self) -> bool:
        """True while this process treats Redis as unreachable (a failure less than ``RETRY_AFTER`` s ago)."""
        return time.monotonic() < self._down_until

    def _failed(self, op: str, args: tuple[Any, ...], exc: BaseException | None) -> Any:
        """Remember what ``op`` failed to write and answer as an empty cache.

        ``exc`` is the error of an attempt that just failed: it opens (or
        renews) the outage window. A call skipped inside the window (``exc``
        None) leaves the window as it is: were each skipped call to push it
        on, a process that uses the cache more often than every
        ``RETRY_AFTER`` seconds (any busy web worker) would never try Redis
        again after an outage.
        """
        with self._state_lock:
            if op == "clear":
                self._overflow, self._pending = True, set()
            elif op in _WRITES and not self._overflow:
                self._pending.update(_WRITES[op](*args))
                if len(self._pending) > MAX_PENDING_INVALIDATIONS:
                    self._overflow, self._pending = True, set()
            first = exc is not None and self._down_until == 0.0
            if exc is not None:
                self._down_until = time.monotonic() + RETRY_AFTER
        if first:
            log.warning("cache: Redis unreachable, serving without the cache (%s)", exc, exc_info=exc)
        if op == "incr":
            raise ValueError("the cache is unreachable") from exc
        return args[1] if op == "get" else _EMPTY[op]  # get's default

    def _flush_pending(self) -> None:
        """Delete what was written while Redis was away (all of it after an overflow); raises the Redis error."""
        with self._state_lock:
            pending, overflow = self._pending, self._overflow
            self._pending, self._overflow = set(), False
        try:
            if overflow:
                super().clear()
            elif pending:
                super().delete_many(list(pending))
        except RedisFailure:
            with self._state_lock:
                self._pending |= pending
                self._overflow |= overflow
            raise
        log.warning("cache: Redis answers again (%d stale keys deleted%s)", len(pending), ", cache cleared" * overflow)

    def _call(self, op: str, *args: Any) -> Any:
        down = self._down_until
        if down:
            if time.monotonic() < down:
                return self._failed(op, args, None)
            try:
                self._flush_pending()
            except RedisFailure as exc:
                return self._failed(op, args, exc)
        try:
            result = getattr(super(), op)(*args)
        except RedisFailure as exc:
            return self._failed(op, args, exc)
        if down:
            with self._state_lock:
                self._down_until = 0.0
        return result

    def add(self, key: Key, value: Any, timeout: Expiry | None) -> bool:
        """Django's ``add``; True when Redis is unreachable (as if added: nobody else can hold it either)."""
        return self._call("add", key, value, timeout)

    def get(self, key: Key, default: Any) -> Any:
        """Django's ``get``; ``default`` when Redis is unreachable."""
        return self._call("get", key, default)

    def set(self, key: Key, value: Any, timeout: Expiry | None) -> None:
        """Django's ``set``; nothing when Redis is unreachable (the key is deleted once it is back)."""
        self._call("set", key, value, timeout)

    def touch(self, key: Key, timeout: Expiry) -> bool:
        """Django's ``touch``; False when Redis is unreachable."""
        return self._call("touch", key, timeout)

    def delete(self, key: Key) -> bool:
        """Django's ``delete``; False when Redis is unreachable (it is deleted once Redis is back)."""
        return self._call("delete", key)

    def get_many(self, keys: Iterable[Key]) -> dict[Key, Any]:
        """Django's ``get_many``; ``{}`` when Redis is unreachable."""
        return self._call("get_many", list(keys))

    def has_key(self, key: Key) -> bool:
        """Django's ``has_key``; False when Redis is unreachable."""
        return self._call("has_key", key)

    def incr(self, key: Key, delta: int) -> Any:
        """Django's ``incr``; raises ``ValueError`` (as for a missing key) when Redis is unreachable."""
        return self._call("incr", key, delta)

    def set_many(self, data: Mapping[Key, Any], timeout: Expiry) -> None:
        """Django's ``set_many``; nothing when Redis is unreachable (the keys are deleted once it is back)."""
        self._call("set_many", data, timeout)

    def delete_many(self, keys: Iterable[Key]) -> None:
        """Django's ``delete_many``; nothing when Redis is unreachable (they are deleted once it is back)."""
        self._call("delete_many", list(keys))

    def clear(self) -> bool:
        """Django's ``clear``; False when Redis is unreachable, and the cache is cleared once it is back."""
        return self._call("clear")

    def ping(self) -> None:
        """Ask Redis for PONG, past the outage window; raises the Redis error. For ``/health/``."""
        self.get_client(write=True).ping()


class FailSoftRedisCache(HeraldRedisCache):
    """:class:`HeraldRedisCache` that keeps the site up while Redis is away (``website.cache.FailSoftRedisCache``).

    See :class:`FailSoftRedisCacheClient`. Give it socket timeouts in
    ``OPTIONS`` (``socket_connect_timeout``, ``socket_timeout``, seconds) so
    that an unreachable host costs a page at most that long once per
    ``RETRY_AFTER`` seconds; the settings do.
    """

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = FailSoftRedisCacheClient

    @property
    def degraded(self) -> bool:
        """True while this process serves without the cache."""
        return self._cache.degraded  # type: ignore[attr-defined]  # BaseCache's client, private in Django

    def ping(self) -> None:
        """Check that Redis answers (raises its error otherwise), whatever the outage window says."""
        self._cache.ping()  # type: ignore[attr-defined]  # as in degraded
