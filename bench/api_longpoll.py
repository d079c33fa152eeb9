"""How many idle event-stream clients a gunicorn web process holds, and what they cost everyone else.

Starts the site under gunicorn (SQLite in a temporary directory, one
worker process) once with sync workers and once with threads, opens
``CLIENTS`` long polls (``GET /api/v1/events?wait=WAIT``) on which nothing
happens, and meanwhile times one ordinary API request. Prints, per
configuration, how many polls were being held at once and how long the
ordinary request waited. Run: ``.venv/bin/python bench/api_longpoll.py``
(docs/api.md has the numbers).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PORT = int(os.environ.get("BENCH_PORT", "8103"))
CLIENTS = 8
WAIT = 10

SETUP = """
from accounts.models import User
from api.tokens import token_create
u = User.objects.create_user("poller", "poller@example.com", "x")
print(token_create(user=u, name="bench", scopes=["read"])[1])
"""


def _get(path: str, token: str) -> float:
    started = time.monotonic()
    request = urllib.request.Request(f"http://127.0.0.1:{PORT}{path}", headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=120) as response:
        json.loads(response.read())
    return time.monotonic() - started


def run(threads: int, env: dict[str, str], token: str) -> None:
    """Serve with one worker of ``threads`` threads and measure."""
    server = subprocess.Popen(
        [str(ROOT / ".venv/bin/gunicorn"), "website.wsgi", "-c", "gunicorn.conf.py"],
        cwd=ROOT,
        # The sync worker class on purpose: this measures what WSGI workers hold (make serve runs ASGI workers).
        env={**env, "WEB_CONCURRENCY": "1", "WEB_THREADS": str(threads), "PORT": str(PORT), "WEB_WORKER_CLASS": "sync"},
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(100):
            try:
                _get("/api/v1/me", token)
                break
            except OSError:
                time.sleep(0.2)
        cursor = json.loads(
            urllib.request.urlopen(
                urllib.request.Request(
                    f"http://127.0.0.1:{PORT}/api/v1/events", headers={"Authorization": f"Bearer {token}"}
                )
            ).read()
        )["cursor"]
        durations: list[float] = []
        polls = [
            threading.Thread(target=lambda: durations.append(_get(f"/api/v1/events?after={cursor}&wait={WAIT}", token)))
            for _ in range(CLIENTS)
        ]
        started = time.monotonic()
        for t in polls:
            t.start()
        time.sleep(1)
        other = _get("/api/v1/me", token)
        for t in polls:
            t.join()
        total = time.monotonic() - started
        held = round(CLIENTS * WAIT / total, 1)
        print(
            f"threads={threads}: {CLIENTS} polls of {WAIT}s took {total:.1f}s in all "
            f"(about {held} held at once); an ordinary request meanwhile took {other:.2f}s"
        )
    finally:
        server.terminate()
        server.wait()


def main() -> None:
    """Set up a throwaway database, then measure sync workers and threaded ones."""
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp}/bench.sqlite3", "DEBUG": "1", "RATELIMIT_ENABLE": "0"}
        env.pop("REDIS_URL", None)
        manage = [sys.executable, "manage.py"]
        subprocess.run([*manage, "migrate", "-v0"], cwd=ROOT, env=env, check=True)
        token = (
            subprocess.run(
                [*manage, "shell", "-c", SETUP], cwd=ROOT, env=env, check=True, capture_output=True, text=True
            )
            .stdout.strip()
            .splitlines()[-1]
        )
        for threads in (1, 4, 16):
            run(threads, env, token)


if __name__ == "__main__":
    main()
