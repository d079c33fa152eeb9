"""Server push between processes: one Redis pub/sub subscription per web process, fanned out to its streams.

A change publishes a small JSON message ``{"topic": "game:12", ...}`` with
:func:`publish` (sync code: a request thread, a Celery task). Every web
process holds one :class:`Hub` per event loop: it subscribes once to the
site's channel (``settings.HERALD_LIVE_CHANNEL``) on the Redis named by
``settings.HERALD_LIVE_REDIS_URL`` and hands each message to the
:class:`Listener` objects (one per open stream) of its topic. Without Redis
(the embedded default, and the tests) :func:`publish` hands the message to
this process's hubs directly, so a single process still pushes to its own
pages.

Listeners with a ``key`` want a rendered payload rather than the message:
the hub asks the topic's renderer (:func:`register_renderer`, by the
topic's prefix) once per message for each distinct key it holds, each in a
worker thread (they overlap), and gives each listener the payload of its key. So a move
costs one render per distinct view in each process, whatever the number of
pages open. Renders of one topic never overlap; messages that arrive
meanwhile are merged into one more render.

When the Redis subscription fails, every listener gets :data:`DOWN` (its
stream ends; the page falls back to polling) and :meth:`Hub.ready` is False
(new streams are refused) until the subscription is made again. An idle
listener costs no database query and no thread: it waits on an
``asyncio.Event``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
import time
from collections import deque
from collections.abc import Callable, Hashable, Iterable
from typing import Any

import redis
from asgiref.sync import async_to_sync, sync_to_async
from django.conf import settings
from redis import asyncio as aioredis

log = logging.getLogger(__name__)

#: What a listener receives when the hub lost its Redis subscription: its stream should end.
DOWN = object()
#: Seconds between attempts to subscribe again after Redis failed.
RETRY_EVERY = 1.0
#: Seconds :func:`publish` stops trying a Redis that just failed (a move must not wait on it each time).
PUBLISH_BACKOFF = 2.0

#: topic prefix ("game") -> fn(message, {key: info}) -> {key: payload bytes or None}, run in a thread.
Renderer = Callable[[dict[str, Any], dict[Hashable, Any]], dict[Hashable, bytes | None]]
_renderers: dict[str, Renderer] = {}


def register_renderer(prefix: str, fn: Renderer) -> None:
    """Render the payloads of topics ``prefix:...`` with ``fn`` (see the module docstring).

    ``fn(message, views)`` gets the published message and, for each distinct
    key among the topic's listeners, the ``info`` of one listener holding
    it; it returns the payload (bytes, sent as is) for each key it renders,
    or None (or leaves the key out) to send nothing to that key. It runs in
    a worker thread and must close any database connection it opened.
    """
    _renderers[prefix] = fn


class Listener:
    """One open stream: the topics it hears, and what arrived for it.

    ``key`` None: it gets each message (a dict) as published. Otherwise it
    gets the payload its topic's renderer made for ``key``; ``info`` is
    handed to the renderer (say, who is looking). Only the newest items are
    kept (``backlog``): a stream that fell behind needs the latest state.
    """

    def __init__(self, topics: Iterable[str], *, key: Hashable | None = None, info: Any = None, backlog: int = 8):
        self.topics = tuple(topics)
        self.key = key
        self.info = info
        self._items: deque[Any] = deque(maxlen=backlog)
        self._ready = asyncio.Event()

    def put(self, item: Any) -> None:
        """Queue ``item`` (a message, a payload, or :data:`DOWN`); called on the hub's loop."""
        self._items.append(item)
        self._ready.set()

    async def get(self, timeout: float) -> Any:
        """The next item, or None after ``timeout`` seconds with nothing."""
        if not self._items:
            self._ready.clear()
            try:
                await asyncio.wait_for(self._ready.wait(), timeout)
            except TimeoutError:
                return None
        return self._items.popleft() if self._items else None


class Hub:
    """The fan-out of one event loop (one per web process): topics to listeners, and the subscription."""

    def __init__(self, loop: asyncio.AbstractEventLoop, redis_url: str | None, channel: str):
        self.loop = loop
        self.redis_url = redis_url
        self.channel = channel
        self.topics: dict[str, set[Listener]] = {}
        self._rendering: dict[str, list[dict[str, Any]] | None] = {}
        self._up = redis_url is None
        self._up_event = asyncio.Event()
        if self._up:
            self._up_event.set()
        self._task: asyncio.Task[None] | None = None
        if redis_url is not None:
            self._task = loop.create_task(self._subscribe_forever())

    def ready(self) -> bool:
        """True when messages published anywhere reach this hub (always, without Redis)."""
        return self._up

    async def wait_ready(self, timeout: float) -> bool:
        """:meth:`ready`, after waiting up to ``timeout`` seconds for the subscription (a new hub makes it)."""
        if not self._up:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._up_event.wait(), timeout)
        return self._up

    def add(self, listener: Listener) -> None:
        """Start handing ``listener`` the messages of its topics."""
        for topic in listener.topics:
            self.topics.setdefault(topic, set()).add(listener)

    def remove(self, listener: Listener) -> None:
        """Stop; an unknown listener is ignored."""
        for topic in listener.topics:
            held = self.topics.get(topic)
            if held is not None:
                held.discard(listener)
                if not held:
                    del self.topics[topic]

    def listeners(self) -> int:
        """How many listeners this hub holds (each counted once)."""
        return len({id(x) for held in self.topics.values() for x in held})

    def deliver(self, message: dict[str, Any]) -> None:
        """Hand ``message`` to its topic's listeners; on the hub's loop."""
        topic = message.get("topic")
        if not isinstance(topic, str):
            return
        held = self.topics.get(topic)
        if not held:
            return
        # A message that renders nothing (a chat line's "look again") goes to every listener as it is.
        plain = [x for x in held if x.key is None or not message.get("render", True)]
        for listener in plain:
            listener.put(message)
        if len(plain) < len(held):
            self._render_later(topic, message)

    def _render_later(self, topic: str, message: dict[str, Any]) -> None:
        waiting = self._rendering.get(topic, ...)
        if waiting is not ...:
            # A render of this topic runs: one more after it covers this message (and any others).
            self._rendering[topic] = [message]
            return
        self._rendering[topic] = None
        self.loop.create_task(self._render(topic, message))

    async def _render(self, topic: str, message: dict[str, Any]) -> None:
        try:
            while True:
                fn = _renderers.get(topic.split(":", 1)[0])
                views: dict[Hashable, Any] = {}
                for listener in self.topics.get(topic, ()):
                    if listener.key is not None:
                        views.setdefault(listener.key, listener.info)
                if fn is None or not views:
                    return
                # Each view in a thread of its own, each sent the moment it is drawn: a render mostly waits on
                # the database and the cache, so the views' waits overlap.
                await asyncio.gather(*(self._render_one(fn, topic, message, key, info) for key, info in views.items()))
                more = self._rendering.get(topic)
                if not more:
                    return
                # Messages that came during the render: one more render, from the latest, covers them all.
                message = more[-1]
                self._rendering[topic] = None
        finally:
            self._rendering.pop(topic, None)

    async def _render_one(self, fn: Renderer, topic: str, message: dict[str, Any], key: Hashable, info: Any) -> None:
        try:
            payloads = await sync_to_async(fn, thread_sensitive=False)(message, {key: info})
        except Exception:  # a render that fails must not end the hub: the pages' next poll repairs it
            log.exception("live render of %s failed", topic)
            return
        payload = payloads.get(key)
        if payload is not None:
            for listener in list(self.topics.get(topic, ())):
                if listener.key == key:
                    listener.put(payload)

    def _all_down(self) -> None:
        for held in list(self.topics.values()):
            for listener in held:
                listener.put(DOWN)

    async def _subscribe_forever(self) -> None:
        while True:
            client = aioredis.Redis.from_url(
                str(self.redis_url), socket_connect_timeout=2, socket_keepalive=True, health_check_interval=15
            )
            try:
                async with client.pubsub(ignore_subscribe_messages=True) as pubsub:
                    await pubsub.subscribe(self.channel)
                    self._up = True
                    self._up_event.set()
                    log.info("live hub subscribed to %s", self.channel)
                    while True:
                        item = await pubsub.get_message(timeout=10.0)
                        if item is not None and item.get("type") == "message":
                            try:
                                message = json.loads(item["data"])
                            except (TypeError, ValueError):
                                continue
                            if isinstance(message, dict):
                                self.deliver(message)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # Redis went away: the pages poll until it is back
                if self._up:
                    log.warning("live hub lost Redis (%s): streams end, pages poll", exc)
                self._up = False
                self._up_event.clear()
                self._all_down()
            finally:
                with contextlib.suppress(Exception):  # already broken
                    await client.aclose()
            await asyncio.sleep(RETRY_EVERY)


#: The hubs of this process, one per running event loop (uvicorn has one; tests may start several).
_hubs: dict[asyncio.AbstractEventLoop, Hub] = {}
_hubs_lock = threading.Lock()


def hub() -> Hub:
    """This event loop's hub, made at its first use (call from async code)."""
    loop = asyncio.get_running_loop()
    with _hubs_lock:
        found = _hubs.get(loop)
        if found is None:
            for old in [x for x in _hubs if x.is_closed()]:
                del _hubs[old]
            found = _hubs[loop] = Hub(loop, settings.HERALD_LIVE_REDIS_URL, settings.HERALD_LIVE_CHANNEL)
        return found


def local_hubs() -> list[Hub]:
    """The hubs of this process (for measurements: how many listeners each holds)."""
    with _hubs_lock:
        return list(_hubs.values())


_publisher: Any = None
_publisher_url: str | None = None
_publish_failed_at = 0.0


def publish(topic: str, **data: Any) -> None:
    """Tell every web process's listeners of ``topic`` (sync code; never raises).

    ``data`` must be JSON-serialisable and say nothing a viewer may not see
    (ids, a seq): listeners that render get only what the renderer draws for
    them. With Redis the message goes through it (every process hears it);
    without, to this process's hubs. A Redis that fails is logged (one that
    times out is left alone for :data:`PUBLISH_BACKOFF` seconds): the change
    is saved, and the pages, whose streams ended, poll.
    """
    global _publisher, _publisher_url, _publish_failed_at
    message = {"topic": topic, **data}
    url = settings.HERALD_LIVE_REDIS_URL
    if url is None:
        for found in local_hubs():
            if not found.loop.is_closed():
                found.loop.call_soon_threadsafe(found.deliver, message)
        return
    if time.monotonic() - _publish_failed_at < PUBLISH_BACKOFF:
        return
    try:
        if _publisher is None or _publisher_url != url:
            _publisher = redis.Redis.from_url(url, socket_connect_timeout=0.5, socket_timeout=1)
            _publisher_url = url
        _publisher.publish(settings.HERALD_LIVE_CHANNEL, json.dumps(message))
    except Exception as exc:  # the change is saved; the pages poll while Redis is away
        # Only a Redis that does not answer (a timeout) is left alone a while: one that refuses at once
        # costs nothing to try, and skipping a publish once it is back would leave a reconnected page behind.
        if isinstance(exc, redis.TimeoutError):
            _publish_failed_at = time.monotonic()
        log.warning("live publish of %s failed: %s", topic, exc)


def sse(event: str, data: Any) -> bytes:
    """One Server-Sent Events message: ``event: NAME`` and ``data`` as one line of JSON."""
    return f"event: {event}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n".encode()


def wait_sync(topics: Iterable[str], timeout: float) -> str:
    """From a sync view served over ASGI: wait until a message of ``topics`` arrives, or ``timeout`` seconds.

    Returns "message", "timeout", or "unavailable" (the hub cannot hear
    other processes now: Redis down). Runs on the server's event loop
    (asgiref's ``async_to_sync`` finds it from a view's thread), so the wait
    holds that thread but no database connection and makes no query. Only
    over ASGI (``settings.SERVED_OVER_ASGI``): under WSGI there is no loop
    whose hub hears the site.
    """

    async def wait() -> str:
        found = hub()
        if not await found.wait_ready(1.0):
            return "unavailable"
        listener = Listener(topics)
        found.add(listener)
        try:
            item = await listener.get(timeout)
        finally:
            found.remove(listener)
        if item is DOWN:
            return "unavailable"
        return "timeout" if item is None else "message"

    return async_to_sync(wait)()
