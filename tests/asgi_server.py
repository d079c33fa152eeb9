"""A real ASGI server (uvicorn in a thread) on the test database, for the pushed streams.

pytest-django's ``live_server`` is a WSGI server, under which the stream
views refuse with 503 (the pages poll); these tests need what `make run` and
`make serve` run. Use it with a transactional database: its requests run in
threads of their own, which see only committed rows.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import uvicorn
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
from django.core.asgi import get_asgi_application


@dataclass(frozen=True)
class Site:
    """Where the server listens (``url``, as pytest-django's live server says it)."""

    url: str
    port: int


def free_port() -> int:
    """A loopback port nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def asgi_server() -> Iterator[Site]:
    """Serve the site (and its static files) over ASGI on a free loopback port until the block ends."""
    port = free_port()
    config = uvicorn.Config(
        ASGIStaticFilesHandler(get_asgi_application()),
        host="127.0.0.1",
        port=port,
        log_level="warning",
        lifespan="off",
        timeout_graceful_shutdown=1,
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    try:
        yield Site(url=f"http://127.0.0.1:{port}", port=port)
    finally:
        server.should_exit = True
        thread.join(10)
