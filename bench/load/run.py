"""Herald's load run: gunicorn on PostgreSQL and Redis, driven by locust on loopback.

    python bench/load/run.py [--users 32] [--time 60] [--workers 3] [--seed-if-missing]

Steps: check that the seeded ``herald_load`` database exists (``seed.py``
makes it; ``--seed-if-missing`` runs it with its defaults); time the lobby
and "your move" queries with EXPLAIN ANALYZE; make a signed-in session for
each active seeded user; start gunicorn (``WEB_CONCURRENCY`` workers,
production settings: DEBUG off, HTTPS behind a proxy header, JSON logs to a
file) and one Celery worker on Redis databases 5 and 6; run locust headless
on 127.0.0.1 for ``--time`` seconds with ``--users`` users; print requests/s
and p50/p99 per page, and each page's ratio to the bare view; stop
everything it started. Nothing leaves the machine: the host is 127.0.0.1.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
DATABASE_URL = os.environ.get("LOAD_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/herald_load")
REDIS = os.environ.get("LOAD_REDIS_URL", "redis://127.0.0.1:6379/5")


def server_env(port: int, workers: int) -> dict[str, str]:
    """The environment of the load run's gunicorn and worker: production settings on loopback."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "CELERY_"))}
    env.update(
        DJANGO_SETTINGS_MODULE="bench.load.settings",
        DATABASE_URL=DATABASE_URL,
        REDIS_URL=REDIS,
        DEBUG="0",
        SECRET_KEY="load-run-only-" + "s3cr3t-" * 8,
        ALLOWED_HOSTS="127.0.0.1",
        SECURE_PROXY_SSL_HEADER="1",
        EMAIL_URL="dummy:",
        HOST="127.0.0.1",
        PORT=str(port),
        WEB_CONCURRENCY=str(workers),
        PYTHONPATH=str(ROOT),
    )
    return env


def setup_django(env: dict[str, str]) -> None:
    """Set up Django in this process with the server's settings (for sessions and EXPLAIN)."""
    os.environ.update(
        {
            k: env[k]
            for k in (
                "DJANGO_SETTINGS_MODULE",
                "DATABASE_URL",
                "REDIS_URL",
                "DEBUG",
                "SECRET_KEY",
                "ALLOWED_HOSTS",
                "EMAIL_URL",
            )
        }
    )
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


def database_ready() -> bool:
    """True if the load database exists and holds games."""
    import psycopg

    try:
        with psycopg.connect(DATABASE_URL, connect_timeout=3) as conn:
            row = conn.execute("SELECT EXISTS (SELECT 1 FROM games_game)").fetchone()
            return bool(row and row[0])
    except psycopg.Error:
        return False


def explain_queries(active_user_id: int = 1) -> list[tuple[str, float, bool]]:
    """EXPLAIN ANALYZE the lobby's queries for one active user; return (name, ms, uses an index)."""
    import re

    from accounts.models import User
    from games import selectors

    user = User.objects.get(pk=active_user_id)
    out = []
    queries = {
        "your move": selectors.my_move_games(user),
        "your other games": selectors.my_waiting_games(user),
        "open games": selectors.open_games(user),
        "recent results": selectors.recent_finished_games(user),
    }
    for name, qs in queries.items():
        qs = qs.prefetch_related(None)  # the list query itself; prefetches are separate small queries
        qs.explain(analyze=True)  # once to warm the cache, as a running site would have it
        plan = qs.explain(analyze=True)
        timing = re.search(r"Execution Time: ([\d.]+) ms", plan)
        if timing is None:
            raise RuntimeError(f"EXPLAIN ANALYZE gave no execution time for {name}: {plan}")
        ms = float(timing.group(1))
        out.append((name, ms, "Index" in plan))
    return out


def make_sessions(path: Path, count: int) -> int:
    """Write ``count`` signed-in sessions (users 1..count) to ``path`` as JSON; return how many."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    from accounts.models import User

    sessions = []
    for user in User.objects.filter(pk__lte=count).order_by("pk"):
        store = SessionStore()
        store[SESSION_KEY] = str(user.pk)
        store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        store[HASH_SESSION_KEY] = user.get_session_auth_hash()
        store.create()
        sessions.append({"user_id": user.pk, "session": store.session_key})
    path.write_text(json.dumps(sessions))
    return len(sessions)


def wait_for(url: str, seconds: float) -> None:
    """Wait until ``url`` answers 200, or raise."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            request = urllib.request.Request(url, headers={"X-Forwarded-Proto": "https"})
            with urllib.request.urlopen(request, timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.3)
    raise RuntimeError(f"{url} did not answer within {seconds} s")


def stop(proc: subprocess.Popen) -> None:
    """Stop a process this script started (its own process group), politely then firmly."""
    if proc.poll() is not None:
        return
    os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def report(stats_csv: Path, seconds: float) -> list[dict[str, str]]:
    """Print requests/s, p50, p99 and failures per page, and the ratio to the bare view; return the rows."""
    rows = list(csv.DictReader(stats_csv.open()))
    bare = next((r for r in rows if r["Name"] == "bare view"), None)
    bare_p50 = float(bare["50%"]) if bare else None
    print(f"\n{'page':<14}{'requests':>10}{'fail':>6}{'req/s':>9}{'p50 ms':>9}{'p99 ms':>9}{'p50/bare':>10}")
    for r in rows:
        ratio = f"{float(r['50%']) / bare_p50:.1f}x" if bare_p50 and r["Name"] != "Aggregated" else ""
        print(
            f"{r['Name']:<14}{r['Request Count']:>10}{r['Failure Count']:>6}{float(r['Requests/s']):>9.1f}"
            f"{r['50%']:>9}{r['99%']:>9}{ratio:>10}"
        )
    return rows


def server_times(lines: list[str], ramp_up: float = 10) -> None:
    """Print p50/p99 of the time spent inside Django per view, from the JSON request log.

    Twice: after the first ``ramp_up`` seconds of requests (what locust
    reports, with ``--reset-stats``), and for the whole run, ramp-up with its
    flushed cache included. The difference from locust's numbers is time
    spent waiting for a free gunicorn worker (and on the network and in the
    client).
    """
    import statistics
    from datetime import datetime

    entries = [json.loads(line[line.index("{") :]) for line in lines if '"herald.request"' in line]
    if not entries:
        return
    start = datetime.fromisoformat(entries[0]["ts"]).timestamp()
    for title, keep in (
        ("after ramp-up", lambda e: datetime.fromisoformat(e["ts"]).timestamp() >= start + ramp_up),
        ("with ramp-up", lambda e: True),
    ):
        by_view: dict[str, list[float]] = {}
        for entry in filter(keep, entries):
            by_view.setdefault(entry.get("view") or "(none)", []).append(entry["duration_ms"])
        print(f"\n{'in Django, ' + title:<28}{'requests':>10}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}")
        for view, times in sorted(by_view.items()):
            times.sort()
            p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
            print(f"{view:<28}{len(times):>10}{statistics.median(times):>9.1f}{p99:>9.1f}{times[-1]:>9.1f}")


def main(argv: list[str]) -> int:
    """Run the whole load test; see the module docstring."""
    ap = argparse.ArgumentParser(prog="bench/load/run.py")
    ap.add_argument("--users", type=int, default=32)
    ap.add_argument("--time", type=int, default=60, help="seconds of load (after a 10 s ramp-up)")
    ap.add_argument("--workers", type=int, default=3, help="gunicorn worker processes (3: see docs/scaling.md)")
    ap.add_argument("--port", type=int, default=8765)
    ap.add_argument("--seed-if-missing", action="store_true")
    args = ap.parse_args(argv)
    if not database_ready():
        if not args.seed_if_missing:
            print("The herald_load database is missing: run bench/load/seed.py (or pass --seed-if-missing).")
            return 2
        subprocess.run([sys.executable, str(ROOT / "bench/load/seed.py")], check=True)
    env = server_env(args.port, args.workers)
    setup_django(env)
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)  # hashed names, as `make serve` does
    import redis

    redis.Redis.from_url(REDIS).flushdb()  # cache: start cold, as after a deploy
    print("Lobby queries on the seeded data (EXPLAIN ANALYZE, warm):")
    for name, ms, index in explain_queries():
        print(f"  {name:<18} {ms:7.2f} ms  {'index' if index else 'NO INDEX'}")
    work = Path(tempfile.mkdtemp(prefix="herald-load-"))
    sessions = work / "sessions.json"
    count = make_sessions(sessions, 200)
    from django.db import connections

    connections.close_all()
    log = (work / "server.log").open("w")
    base = f"http://127.0.0.1:{args.port}"
    procs = []
    try:
        procs.append(
            subprocess.Popen(
                [str(BIN / "gunicorn"), "website.asgi:application", "-c", str(ROOT / "gunicorn.conf.py")],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=log,
                start_new_session=True,
            )
        )
        procs.append(
            subprocess.Popen(
                [
                    str(BIN / "celery"),
                    "-A",
                    "website",
                    "worker",
                    "--concurrency",
                    "1",
                    "--loglevel",
                    "WARNING",
                    "--without-gossip",
                    "--without-mingle",
                ],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=log,
                start_new_session=True,
            )
        )
        wait_for(f"{base}/bench/bare/", 60)
        print(
            f"\ngunicorn: {args.workers} workers on {base}; locust: {args.users} users from {count} sessions, "
            f"{args.time} s + 10 s ramp-up; logs in {work}"
        )
        started = time.monotonic()
        subprocess.run(
            [
                str(BIN / "locust"),
                "-f",
                str(ROOT / "bench/load/locustfile.py"),
                "--headless",
                "--host",
                base,
                "-u",
                str(args.users),
                "-r",
                str(max(1, args.users // 10)),
                "-t",
                f"{args.time + 10}s",
                "--csv",
                str(work / "load"),
                "--only-summary",
                # Count from when all users have started: the 10 s ramp-up runs on a flushed cache
                # and a burst of sign-ins (its requests are in the server-side "with ramp-up" line).
                "--reset-stats",
                "--stop-timeout",
                "5",
                "--loglevel",
                "WARNING",
            ],
            cwd=ROOT,
            env={**os.environ, "HERALD_LOAD_SESSIONS": str(sessions)},
            check=False,
            timeout=args.time + 120,
        )
        elapsed = time.monotonic() - started
    finally:
        for proc in procs:
            stop(proc)
        log.close()
    report(work / "load_stats.csv", elapsed)
    lines = (work / "server.log").read_text().splitlines()
    errors = [line for line in lines if '"level": "ERROR"' in line]
    server_times(lines)
    print(f"\nserver log: {len(lines)} lines, {len(errors)} errors ({work / 'server.log'})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
