"""Server push under the production set-up: how fast a move reaches open pages, and what open pages cost.

Starts the site as `make serve` does (gunicorn with uvicorn workers,
``website.asgi``, DEBUG off, PostgreSQL and Redis) on a loopback port chosen
now, makes a 2-player Dominion game, opens ``--pages`` game page streams
(``GET /games/<id>/live``: the two seats and anonymous spectators), and has
the two players move through the API (big_money's moves). It prints:

- the latency from each move's HTTP response to each page having the new
  position (p50, p99; a page that had it before the response counts 0);
- the web workers' CPU time per connected page per move: the CPU of the
  moves with the pages open, less that of the same number of moves with
  none, divided by pages and moves;
- then, against one web process alone: the memory (RSS) per idle stream,
  how many idle streams it held (``--idle``), and how many database
  transactions PostgreSQL counted while they sat idle (past two heartbeats).

Goals (issue 28): p50 < 100 ms and p99 < 500 ms at 200 pages; an idle stream
costs no database query and under 200 kB; one process holds 1,000.

Run: ``.venv/bin/python bench/live.py`` (in ``make bench``). Environment:
``LIVE_DATABASE_URL`` (default ``postgres://postgres@127.0.0.1:5432/herald_live``,
created and migrated if missing), ``LIVE_REDIS_URL`` (default
``redis://127.0.0.1:6379/5``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import signal
import socket
import statistics
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
DATABASE_URL = os.environ.get("LIVE_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/herald_live")
REDIS_URL = os.environ.get("LIVE_REDIS_URL", "redis://127.0.0.1:6379/5")
HEARTBEAT = 5


def free_port() -> int:
    """A loopback port nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def server_env(port: int, workers: int) -> dict[str, str]:
    """Production settings on loopback (as `make serve`), without rate limits or the End turn's grace."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "CELERY_", "HERALD_"))}
    env.update(
        DJANGO_SETTINGS_MODULE="website.settings",
        DATABASE_URL=DATABASE_URL,
        REDIS_URL=REDIS_URL,
        DEBUG="0",
        SECRET_KEY="live-bench-only-" + "s3cr3t-" * 8,
        ALLOWED_HOSTS="127.0.0.1",
        SECURE_PROXY_SSL_HEADER="1",
        EMAIL_URL="dummy:",
        RATELIMIT_ENABLE="0",
        HERALD_FORCED_MOVE_GRACE="0",
        HERALD_LIVE_HEARTBEAT=str(HEARTBEAT),
        HOST="127.0.0.1",
        PORT=str(port),
        WEB_CONCURRENCY=str(workers),
        PYTHONPATH=str(ROOT),
    )
    return env


def setup(env: dict[str, str]) -> dict[str, Any]:
    """Migrate, make alice and bob (tokens, sessions) and a Dominion game between them; return their handles."""
    os.environ.update({k: env[k] for k in ("DJANGO_SETTINGS_MODULE", "DATABASE_URL", "REDIS_URL", "SECRET_KEY")})
    os.environ["DEBUG"] = "0"
    os.environ["ALLOWED_HOSTS"] = "127.0.0.1"
    sys.path.insert(0, str(ROOT))
    name = DATABASE_URL.rsplit("/", 1)[1]
    subprocess.run(["createdb", "-h", "127.0.0.1", "-U", "postgres", name], capture_output=True, check=False)
    import django

    django.setup()
    from datetime import timedelta

    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore
    from django.core.management import call_command

    from accounts.models import User
    from api.tokens import token_create
    from games import services
    from games.models import Game

    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    users, tokens, cookies = [], {}, {}
    for name in ("live-alice", "live-bob"):
        user = User.objects.filter(username=name).first() or User.objects.create_user(name, f"{name}@example.com", "x")
        users.append(user)
        tokens[user.pk] = token_create(user=user, name="bench", scopes=("read", "play"))[1]
        store = SessionStore()
        store[SESSION_KEY] = str(user.pk)
        store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        store[HASH_SESSION_KEY] = user.get_session_auth_hash()
        store.create()
        cookies[user.pk] = f"sessionid={store.session_key}"
    game = services.game_create(
        creator=users[0],
        kind="dominion",
        options={"kingdom": "First Game"},
        players=2,
        rated=False,
        private=False,
        time_per_move=timedelta(days=1),
    )
    services.game_join(game_id=game.pk, user=users[1])
    game = Game.objects.get(pk=game.pk)
    return {"game": game.pk, "tokens": tokens, "cookies": cookies, "users": [u.pk for u in users]}


def start_server(env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    """gunicorn as the Procfile runs it, in a session of its own (stopped with its whole group)."""
    with log.open("w") as out:
        proc = subprocess.Popen(
            [str(BIN / "gunicorn"), "website.asgi:application", "-c", str(ROOT / "gunicorn.conf.py")],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=out,
            start_new_session=True,
        )
    base = f"http://127.0.0.1:{env['PORT']}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(urllib.request.Request(base + "/health/", headers=HTTPS), timeout=2)
            return proc
        except urllib.error.HTTPError:
            return proc  # it answers (its health says no worker or beat runs: none is needed here)
        except OSError:
            time.sleep(0.3)
    stop_server(proc)
    raise RuntimeError(f"the server did not start: see {log}")


def stop_server(proc: subprocess.Popen[bytes]) -> None:
    """SIGTERM the server's process group (only the one this script started), then wait."""
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(30)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        os.killpg(proc.pid, signal.SIGKILL)


HTTPS = {"X-Forwarded-Proto": "https"}


def workers_of(master: int) -> list[int]:
    """The pids whose parent is ``master`` (gunicorn's workers)."""
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == master:
                out.append(int(entry.name))
    return out


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU seconds of ``pids`` so far."""
    total = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def rss_kb(pid: int) -> int:
    """Resident memory of ``pid`` (kB)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


class Page:
    """One open stream, recording when each position arrived."""

    def __init__(self) -> None:
        self.seq = -1
        self.arrived: dict[int, float] = {}
        self.open = False

    async def run(self, port: int, path: str, cookie: str | None, ready: asyncio.Event | None = None) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=2**22)
        head = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\nX-Forwarded-Proto: https\r\n"
        if cookie:
            head += f"Cookie: {cookie}\r\n"
        writer.write((head + "\r\n").encode())
        await writer.drain()
        status = await reader.readline()
        if b" 200 " not in status:
            raise RuntimeError(f"stream refused: {status!r}")
        while (await reader.readline()) not in (b"\r\n", b""):
            pass
        self.open = True
        buffer = ""
        try:
            while True:
                size = int((await reader.readline()).strip() or b"0", 16)
                if size == 0:
                    break
                buffer += (await reader.readexactly(size + 2))[:-2].decode()
                if ready is not None and not ready.is_set():
                    ready.set()
                while "\n\n" in buffer:
                    block, buffer = buffer.split("\n\n", 1)
                    fields = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line)
                    if fields.get("event") == "live":
                        seq = json.loads(fields["data"])["seq"]
                        now = time.monotonic()
                        self.seq = max(self.seq, seq)
                        self.arrived.setdefault(seq, now)
        finally:
            self.open = False
            writer.close()


def page_position(port: int, game_id: int) -> tuple[int, str]:
    """The seq and status cursor an anonymous page of the game is drawn at (from its poll's address)."""
    request = urllib.request.Request(f"http://127.0.0.1:{port}/games/{game_id}/", headers=HTTPS)
    html = urllib.request.urlopen(request, timeout=10).read().decode()
    marker = f"/games/{game_id}/poll?seq="
    tail = html.split(marker, 1)[1]
    seq, rest = tail.split("&amp;v=", 1)
    return int(seq), rest.split('"', 1)[0]


def make_move(port: int, handles: dict[str, Any], rng: random.Random) -> tuple[float, int]:
    """One move by whoever must act (big_money), through the API; return (response time, the new seq)."""
    from games import services
    from games.engine.dominion.engine import ENGINE
    from games.models import Game

    game = Game.objects.get(pk=handles["game"])
    state = services.state_at(game)
    seat = ENGINE.pending(state)[0].player
    user_id = game.seats.get(position=seat).user_id
    move = ENGINE.bots["big_money"](ENGINE.player_view(state, seat), rng)
    body = json.dumps({"move": move, "expected_seq": game.last_seq}).encode()
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/v1/games/{game.pk}/moves",
        data=body,
        headers={**HTTPS, "Authorization": f"Bearer {handles['tokens'][user_id]}", "Content-Type": "application/json"},
    )
    urllib.request.urlopen(request, timeout=30).read()
    answered = time.monotonic()
    return answered, Game.objects.values_list("last_seq", flat=True).get(pk=game.pk)


async def play(port: int, handles: dict[str, Any], pages: list[Page], moves: int, rng: random.Random) -> list[float]:
    """``moves`` moves, each waited for on every page (5 s at most); return the latencies (ms)."""
    latencies = []
    for _ in range(moves):
        answered, seq = await asyncio.to_thread(make_move, port, handles, rng)
        deadline = time.monotonic() + 5
        while any(p.seq < seq for p in pages) and time.monotonic() < deadline:
            await asyncio.sleep(0.005)
        for page in pages:
            got = min((t for s, t in page.arrived.items() if s >= seq), default=None)
            latencies.append(5000.0 if got is None else max(0.0, (got - answered) * 1000))
        await asyncio.sleep(0.2)
    return latencies


async def moving(port: int, handles: dict[str, Any], npages: int, moves: int, pids: list[int]) -> dict[str, float]:
    """Moves with no page open, then with ``npages`` open; latency percentiles and CPU per page per move."""
    rng = random.Random(7)
    before = cpu_seconds(pids)
    await play(port, handles, [], moves, rng)
    alone = cpu_seconds(pids) - before
    seq, cursor = await asyncio.to_thread(page_position, port, handles["game"])
    path = f"/games/{handles['game']}/live?seq={seq}&v={cursor}"
    pages = [Page() for _ in range(npages)]
    cookies = [handles["cookies"][uid] for uid in handles["users"]]
    tasks = [asyncio.create_task(p.run(port, path, cookies[i] if i < 2 else None)) for i, p in enumerate(pages)]
    deadline = time.monotonic() + 30
    while not all(p.open for p in pages) and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    await asyncio.sleep(1)
    before = cpu_seconds(pids)
    latencies = await play(port, handles, pages, moves, rng)
    with_pages = cpu_seconds(pids) - before
    for task in tasks:
        task.cancel()
    latencies.sort()
    return {
        "p50": statistics.median(latencies),
        "p99": latencies[int(0.99 * (len(latencies) - 1))],
        "missed": sum(1 for x in latencies if x >= 5000),
        "cpu_ms_per_page_move": max(0.0, with_pages - alone) / (moves * npages) * 1000,
        "cpu_ms_per_move_alone": alone / moves * 1000,
        "cpu_ms_per_move_with_pages": with_pages / moves * 1000,
    }


def transactions() -> int:
    """Transactions PostgreSQL counted in the bench database so far (each query outside one is one)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute("SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = current_database()")
        return int(cursor.fetchone()[0])


async def idle(port: int, handles: dict[str, Any], count: int, pid: int) -> dict[str, float]:
    """``count`` idle anonymous streams on one process: memory each, how many held, queries while idle."""
    seq, cursor = await asyncio.to_thread(page_position, port, handles["game"])
    path = f"/games/{handles['game']}/live?seq={seq}&v={cursor}"
    warm = Page()
    warm_task = asyncio.create_task(warm.run(port, path, None))
    await asyncio.sleep(2)
    base = rss_kb(pid)
    pages = [Page() for _ in range(count)]
    tasks = []
    for i, page in enumerate(pages):
        tasks.append(asyncio.create_task(page.run(port, path, None)))
        if i % 50 == 49:
            await asyncio.sleep(0.2)
    deadline = time.monotonic() + 120
    while sum(p.open for p in pages) < count and time.monotonic() < deadline:
        await asyncio.sleep(0.2)
    # PostgreSQL counts a pooled connection's transactions when it reports (up to 10 s after, while idle):
    # let the connections' own count settle first.
    await asyncio.sleep(12)
    held_rss = rss_kb(pid)
    start = await asyncio.to_thread(transactions)
    await asyncio.sleep(2 * HEARTBEAT + 2)
    # Two are the first count's own statements (clearing the snapshot, then the count itself).
    queries = await asyncio.to_thread(transactions) - start - 2
    held = sum(p.open for p in pages)
    for task in [*tasks, warm_task]:
        task.cancel()
    return {
        "held": held,
        "kb_each": (held_rss - base) / max(held, 1),
        "idle_queries": queries,
        "rss_mb": held_rss / 1024,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=200)
    parser.add_argument("--moves", type=int, default=30)
    parser.add_argument("--idle", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=(os.cpu_count() or 1) + 1)
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, 4 * args.idle + 256)), hard))
    log = ROOT / "var" / "bench-live.log"
    log.parent.mkdir(exist_ok=True)

    port = free_port()
    env = server_env(port, args.workers)
    handles = setup(env)
    from django.db import connections

    connections.close_all()
    server = start_server(env, log)
    try:
        pids = workers_of(server.pid)
        moved = asyncio.run(moving(port, handles, args.pages, args.moves, pids))
    finally:
        stop_server(server)
    print(
        f"live push, {args.pages} pages, {args.moves} moves, {args.workers} web processes: "
        f"latency p50 {moved['p50']:.0f} ms, p99 {moved['p99']:.0f} ms (goals < 100, < 500); "
        f"pages that missed a move: {moved['missed']}"
    )
    print(
        f"  web CPU per move: {moved['cpu_ms_per_move_alone']:.1f} ms with no page open, "
        f"{moved['cpu_ms_per_move_with_pages']:.1f} ms with {args.pages}: "
        f"{moved['cpu_ms_per_page_move']:.3f} ms per connected page per move"
    )

    port = free_port()
    env = server_env(port, 1)
    server = start_server(env, log)
    try:
        [pid] = workers_of(server.pid)
        held = asyncio.run(idle(port, handles, args.idle, pid))
    finally:
        stop_server(server)
    print(
        f"  one web process held {held['held']} of {args.idle} idle streams (goal 1,000), "
        f"{held['kb_each']:.0f} kB each (goal < 200), RSS {held['rss_mb']:.0f} MB; "
        f"database transactions while they sat idle for {2 * HEARTBEAT + 2} s: {held['idle_queries']} (goal 0)"
    )


if __name__ == "__main__":
    main()
