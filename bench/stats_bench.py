"""Statistics benchmark on the load database: the rebuild from the logs, and the statistics pages.

    python bench/stats_bench.py [--database-url URL] [--rebuild] [--make-rated] [--workers 2] [--requests 50]

Defaults to the ``herald_load`` database that ``bench/load/seed.py`` makes
(``make bench-load``); if it does not exist the benchmark says so and stops
(``make bench`` goes on). It migrates the database (the statistics tables
are new), then:

* ``--make-rated``: the seeder writes casual games; this marks every
  finished game of people only as rated and recomputes the ratings
  (``ratings_recompute(write=True)``), so the card statistics have games
  and rating bands to count. Only on a load database (its name contains "load").
* ``--rebuild`` (or when no game has been measured yet): ``manage.py
  rebuild_stats`` with ``--workers`` processes, timed.
* Then, through Django's test client in this process (no network: the
  application's own time, with DEBUG off), ``--requests`` GETs each of
  ``/stats/dominion/``, ``/stats/dominion/Militia/``, ``/stats/domaine/``
  and a player's profile, after one warm-up request; prints the median and
  the 95th percentile. The goal for the two Dominion pages is under 50 ms.
"""

from __future__ import annotations

import argparse
import io
import logging
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/herald_load"
#: The goal for the card list and a card page, inside Django (ms).
GOAL_MS = 50.0


def parse_args(argv: list[str]) -> argparse.Namespace:
    """Read the command line."""
    ap = argparse.ArgumentParser(prog="bench/stats_bench.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("--database-url", default=os.environ.get("LOAD_DATABASE_URL", DEFAULT_URL))
    ap.add_argument("--rebuild", action="store_true", help="rebuild the statistics even if they exist")
    ap.add_argument("--make-rated", action="store_true", help="mark the seeded games rated and recompute ratings")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--requests", type=int, default=50)
    return ap.parse_args(argv)


def database_exists(url: str) -> bool:
    """True if the PostgreSQL database named by ``url`` exists (and the server answers)."""
    import psycopg

    name = url.rsplit("/", 1)[1]
    admin = url.rsplit("/", 1)[0] + "/postgres"
    try:
        with psycopg.connect(admin, autocommit=True, connect_timeout=3) as conn:
            return bool(conn.execute("select 1 from pg_database where datname = %s", [name]).fetchone())
    except psycopg.OperationalError:
        return False


def setup_django(url: str) -> None:
    """Point Django at ``url`` with production-like settings, and migrate."""
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "website.settings")
    os.environ.setdefault("DEBUG", "0")
    os.environ.setdefault("SECRET_KEY", "bench-only-secret-key-bench-only-secret-key-0123456789")
    os.environ.setdefault("ALLOWED_HOSTS", "testserver")
    os.environ.setdefault("EMAIL_URL", "locmem:")
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)


def make_rated(url: str) -> None:
    """Mark finished games of people only as rated and recompute every rating (a load database only)."""
    from django.db import connection

    from ratings.services import ratings_recompute

    if "load" not in url.rsplit("/", 1)[1]:
        raise SystemExit("--make-rated only on a load database (its name contains 'load')")
    t0 = time.perf_counter()
    with connection.cursor() as cur:
        cur.execute(
            "UPDATE games_game SET rated = true WHERE status = 'finished' AND NOT rated AND NOT EXISTS "
            "(SELECT 1 FROM games_seat s WHERE s.game_id = games_game.id AND s.user_id IS NULL)"
        )
        print(f"marked {cur.rowcount:,} games rated", flush=True)
    report = ratings_recompute(write=True)
    print(f"recomputed ratings of {report.games:,} games in {time.perf_counter() - t0:.1f} s", flush=True)


def rebuild(workers: int) -> float:
    """Run ``rebuild_stats``; return its wall time in seconds."""
    from django.core.management import call_command

    out = io.StringIO()
    t0 = time.perf_counter()
    call_command("rebuild_stats", "--workers", str(workers), stdout=out)
    elapsed = time.perf_counter() - t0
    print(out.getvalue().strip(), flush=True)
    return elapsed


def time_get(client, path: str, n: int) -> tuple[float, float]:
    """GET ``path`` once to warm up, then ``n`` times; return (median, p95) in ms."""
    response = client.get(path, secure=True)  # production settings redirect plain HTTP
    assert response.status_code == 200, (path, response.status_code)
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        response = client.get(path, secure=True)
        times.append((time.perf_counter() - t0) * 1000)
        assert response.status_code == 200
    times.sort()
    return statistics.median(times), times[max(0, int(len(times) * 0.95) - 1)]


def main(argv: list[str]) -> int:
    """Run the benchmark; 0 when done (or skipped: no load database), 1 when a page misses the goal."""
    args = parse_args(argv)
    if not database_exists(args.database_url):
        print(f"stats bench: no database at {args.database_url}; seed one with `make bench-load` (skipped)")
        return 0
    setup_django(args.database_url)
    from django.conf import settings
    from django.test import Client, override_settings

    from games.models import Game
    from stats.models import GameStats, PlayerStats

    finished = Game.objects.filter(status=Game.Status.FINISHED).count()
    print(f"database {args.database_url.rsplit('/', 1)[1]}: {finished:,} finished games", flush=True)
    if args.make_rated:
        make_rated(args.database_url)
    if args.rebuild or not GameStats.objects.exists():
        elapsed = rebuild(args.workers)
        print(f"rebuild: {elapsed:.1f} s for {finished:,} games ({1000 * elapsed / max(1, finished):.2f} ms a game)")
    busiest = (
        PlayerStats.objects.exclude(user=None).values_list("user__username", flat=True).order_by("-user_id").first()
    )
    client = Client()
    logging.disable(logging.INFO)  # the request log's line per request is not what is measured
    pages = ["/stats/dominion/", "/stats/dominion/?players=3&sort=-presence", "/stats/dominion/Militia/"]
    pages += ["/stats/domaine/"] + ([f"/players/{busiest}/"] if busiest else [])
    missed = False
    # No collectstatic here: plain static storage instead of the hashed manifest.
    plain_static = {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}
    override_settings(STORAGES={**settings.STORAGES, "staticfiles": plain_static}).enable()
    for path in pages:
        median, p95 = time_get(client, path, args.requests)
        goal = path.startswith("/stats/dominion/")
        missed |= goal and median >= GOAL_MS
        flag = (" (goal < 50 ms: " + ("met" if median < GOAL_MS else "MISSED") + ")") if goal else ""
        print(f"{path:45} median {median:6.1f} ms  p95 {p95:6.1f} ms{flag}", flush=True)
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
