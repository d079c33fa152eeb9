"""The fault-injection suite's tools: a Redis of its own to kill, a loopback SMTP server that misbehaves, figures.

Every test here runs on PostgreSQL (row locks, several connections) and
skips without it, as without ``redis-server``; under
``HERALD_REQUIRE_SERVICES=1`` (CI) a skip is a failure. Nothing here touches
the shared Redis or mail servers: each test starts its own, on loopback
ports chosen when it runs (never a fixed port that another test run or a
user may hold), and kills only those.

The suite's figures (moves attempted and saved, emails expected and sent,
500s, the duplicate-email window) are collected in :data:`FIGURES` and
printed at the end of the run by :func:`pytest_terminal_summary`.
"""

from __future__ import annotations

import contextlib
import re
import shutil
import signal
import socket
import socketserver
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any

import pytest
from django.db import connection
from pytest_django import Settings

from tests.conftest import skip_missing_service
from tests.tasks.conftest import use_broker
from website.celery import app

#: The run's figures, printed at the end (see pytest_terminal_summary).
FIGURES: dict[str, float] = {
    "moves attempted": 0,
    "moves saved": 0,
    "moves refused as stale": 0,
    "emails expected": 0,
    "emails sent": 0,
    "email deliveries": 0,
    "500s": 0,
}
#: Seconds between the mail server accepting a message and its row marked sent, per measured send.
DUPLICATE_WINDOWS: list[float] = []


def count(name: str, n: float = 1) -> None:
    """Add ``n`` to the run's figure ``name`` (one of :data:`FIGURES`' keys)."""
    FIGURES[name] += n


def count_response(status: int) -> None:
    """Count one response in the figures (a 500 is the failure every test asserts against)."""
    if status >= HTTPStatus.INTERNAL_SERVER_ERROR:
        FIGURES["500s"] += 1


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Print the fault suite's figures, if any of its tests ran."""
    if not any(FIGURES.values()):
        return
    terminalreporter.section("fault-injection figures")
    for name, n in FIGURES.items():
        terminalreporter.write_line(f"{name:>24}: {n:g}")
    extra = FIGURES["email deliveries"] - FIGURES["emails sent"]
    terminalreporter.write_line(f"{'resent, same Message-ID':>24}: {extra:g} (the duplicate window, by design)")
    if DUPLICATE_WINDOWS:
        ms = sorted(w * 1000 for w in DUPLICATE_WINDOWS)
        terminalreporter.write_line(
            f"duplicate window (mail server accepted -> row marked sent), {len(ms)} sends: "
            f"median {ms[len(ms) // 2]:.1f} ms, max {ms[-1]:.1f} ms"
        )


@pytest.fixture(autouse=True)
def _on_postgresql(site_test: None, transactional_db: None) -> None:
    """Every fault test runs on PostgreSQL, with committed data other connections (threads, a worker) see."""
    if connection.vendor != "postgresql":
        skip_missing_service("PostgreSQL (set DATABASE_URL) for the fault-injection tests")


# ---------------------------------------------------------------------------
# Redis of our own


@dataclass
class RedisServer:
    """A ``redis-server`` started by a test on its own port, with no persistence."""

    port: int
    process: subprocess.Popen[bytes] | None = None

    def url(self, db: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def start(self) -> None:
        """Start it and wait until it answers PING (at most 5 s); fail if another server holds the port."""
        import redis

        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        end = time.monotonic() + 5
        while time.monotonic() < end and self.process.poll() is None:
            try:
                # The port was free when it was chosen; check that the server answering is this one.
                info: dict[str, Any] = redis.Redis(port=self.port, socket_connect_timeout=0.2).info("server")  # type: ignore[assignment]
                pid = info["process_id"]
            except redis.RedisError:
                time.sleep(0.05)
                continue
            if pid != self.process.pid:
                raise RuntimeError(f"another redis-server took port {self.port}")
            return
        raise RuntimeError(f"redis-server on port {self.port} did not start")

    def kill(self) -> None:
        """SIGKILL it (only this process, which the test started) and wait for it to go."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(5)

    def freeze(self) -> None:
        """SIGSTOP it: connections are accepted by the kernel, and nothing answers."""
        assert self.process is not None
        self.process.send_signal(signal.SIGSTOP)

    def thaw(self) -> None:
        """SIGCONT it: it answers again, with everything it held."""
        assert self.process is not None
        self.process.send_signal(signal.SIGCONT)


def _redis_server() -> Iterator[RedisServer]:
    if shutil.which("redis-server") is None:
        skip_missing_service("redis-server (apt-get install redis-server) for the fault-injection tests")
    server = RedisServer(free_port())
    server.start()
    try:
        yield server
    finally:
        if server.process is not None and server.process.poll() is None:
            server.thaw()
        server.kill()


@pytest.fixture
def cache_redis() -> Iterator[RedisServer]:
    """A Redis of the test's own for the site's cache (on a free port), killed at the end."""
    yield from _redis_server()


@pytest.fixture
def broker_redis() -> Iterator[RedisServer]:
    """A Redis of the test's own for Celery's broker (on a free port), killed at the end."""
    yield from _redis_server()


def use_cache(settings: Settings, url: str) -> None:
    """Point the site's default cache at ``url`` with the production backend and options.

    Overriding ``settings.CACHES`` makes Django drop its cache handlers, so
    ``django.core.cache.cache`` is the new one from the next call on.
    """
    settings.CACHES = {
        "default": {
            "BACKEND": "website.cache.FailSoftRedisCache",
            "LOCATION": url,
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 1.0},
        }
    }
    settings.SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"


# ---------------------------------------------------------------------------
# A loopback SMTP server that misbehaves on demand


@dataclass
class Received:
    """One message the SMTP server accepted: its Message-ID and when it said 250 (``time.monotonic``)."""

    message_id: str
    accepted_at: float
    wall_accepted_at: float
    data: bytes


@dataclass
class SmtpServer:
    """A small SMTP server on a free loopback port, in a thread.

    ``mode``: ``"ok"``; ``"hold"``: accept the message once its data has
    arrived (as a server that committed it), then wait for ``release``
    before answering 250 (a server slow to acknowledge, or one whose answer
    a killed client never reads); ``"drop"``: close the connection after
    the data, without accepting it. ``data_in`` is set when a message's data
    has arrived.
    """

    mode: str = "ok"
    received: list[Received] = field(default_factory=list)
    data_in: threading.Event = field(default_factory=threading.Event)
    release: threading.Event = field(default_factory=threading.Event)
    port: int = 0

    def handler(self) -> type[socketserver.StreamRequestHandler]:
        server = self

        class Handler(socketserver.StreamRequestHandler):
            timeout = 30

            def reply(self, line: str) -> None:
                self.wfile.write(line.encode() + b"\r\n")
                self.wfile.flush()

            def handle(self) -> None:
                # The client went away (killed, or timed out): so would a real server's peer.
                with contextlib.suppress(OSError):
                    self.session()

            def session(self) -> None:
                self.reply("220 faults.test ESMTP")
                while line := self.rfile.readline():
                    verb = line[:4].upper()
                    if verb in (b"EHLO", b"HELO"):
                        self.reply("250 faults.test")
                    elif verb == b"DATA":
                        self.reply("354 go ahead")
                        data = b""
                        while (chunk := self.rfile.readline()) not in (b".\r\n", b""):
                            data += chunk
                        server.data_in.set()
                        if server.mode == "drop":
                            return
                        found = re.search(rb"^Message-ID: *(<[^>]+>)", data, re.M | re.I)
                        mid = found.group(1).decode() if found else ""
                        server.received.append(Received(mid, time.monotonic(), time.time(), data))
                        if server.mode == "hold":
                            server.release.wait(30)
                        self.reply("250 queued")
                    elif verb == b"QUIT":
                        self.reply("221 bye")
                        return
                    else:  # MAIL, RCPT, RSET, NOOP
                        self.reply("250 ok")

        return Handler

    def message_ids(self) -> list[str]:
        return [r.message_id for r in self.received]


class _ThreadingServer(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


@pytest.fixture
def smtp_server(settings: Settings) -> Iterator[SmtpServer]:
    """A loopback SMTP server (mode ``"ok"`` until the test changes it); the site's mail goes to it."""
    smtp = SmtpServer()
    tcp = _ThreadingServer(("127.0.0.1", 0), smtp.handler())
    smtp.port = tcp.server_address[1]
    thread = threading.Thread(target=tcp.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", smtp.port
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
    settings.EMAIL_TIMEOUT = 5
    try:
        yield smtp
    finally:
        smtp.release.set()
        tcp.shutdown()
        tcp.server_close()


def wait_for(condition: Callable[[], object], timeout: float = 15.0, what: str = "the condition") -> object:
    """Poll ``condition`` every 20 ms until it is true; return it; fail after ``timeout`` seconds."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if value := condition():
            return value
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")


def free_port() -> int:
    """A loopback port nothing listens on right now, chosen by the kernel."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def dead_broker_url() -> str:
    """A Redis URL on a loopback port where nothing listens: the broker "unreachable"."""
    return f"redis://127.0.0.1:{free_port()}/0"


@pytest.fixture
def broker_at(settings: Settings) -> Iterator[Callable[[str], None]]:
    """Call it with a broker URL: the site's Celery app stops running tasks inline and publishes there.

    Restored (eager, the settings' broker) at the end.
    """
    saved = {k: app.conf[k] for k in ("broker_url", "task_always_eager")}

    def point(url: str) -> None:
        settings.CELERY_TASK_ALWAYS_EAGER = False
        app.conf.task_always_eager = False
        use_broker(url)

    try:
        yield point
    finally:
        app.conf.update(saved)
        use_broker(saved["broker_url"])
