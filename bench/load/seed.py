"""Seed a PostgreSQL database with realistic Herald data for load tests.

    python bench/load/seed.py [--users 10000] [--finished 100000] [--running 5000]
                              [--active 200] [--jobs 2] [--database-url URL]

Defaults to the ``herald_load`` database on the local PostgreSQL, which it
drops and creates again (never the test or development database). It makes:

* ``--users`` users (one password hash for all, so seeding is not a hashing
  benchmark), user 1 staff ("operator");
* ``--finished`` finished Dominion games of 2-4 seats with real engine logs:
  bots (``big_money`` and ``smart``) play each game through the engine with
  ``record=False``, and every move becomes an Action row, so every page and
  replay of the site works on them;
* ``--running`` running games between the first ``--active`` users, played
  by the same bots to a random point where the player to move owes a plain
  turn (no Militia answer pending), with clocks and "your move" fields set
  as the move service sets them.

Games are simulated in ``--jobs`` processes, each writing its own batches
with PostgreSQL ``COPY`` (psycopg ``cursor.copy``). Prints the time of each
step and the row counts, and ends with ``ANALYZE``.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/herald_load"
#: The password of every seeded user.
PASSWORD = "load-test-password"
BATCH = 500
NOW = datetime.now(UTC).replace(microsecond=0)
#: Seat count distribution of seeded games.
SEATS = [2] * 7 + [3] * 2 + [4]
BOT_MIX = ["smart", "smart", "big_money"]


def parse_args(argv: list[str]) -> argparse.Namespace:
    """Read the command line."""
    ap = argparse.ArgumentParser(prog="bench/load/seed.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("--users", type=int, default=10_000)
    ap.add_argument("--finished", type=int, default=100_000)
    ap.add_argument("--running", type=int, default=5_000)
    ap.add_argument("--active", type=int, default=200, help="running games are between the first N users")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--database-url", default=os.environ.get("LOAD_DATABASE_URL", DEFAULT_URL))
    return ap.parse_args(argv)


def recreate_database(url: str) -> None:
    """Drop and create the database named by ``url``; refuse names that do not look like a load database."""
    import psycopg

    name = url.rsplit("/", 1)[1]
    if "load" not in name:
        raise SystemExit(f"refusing to drop {name!r}: the load database's name must contain 'load'")
    admin = url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def setup_django(url: str) -> None:
    """Point Django at the load database and set it up."""
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "website.settings")
    import django

    django.setup()


def make_users(n: int) -> None:
    """Create ``n`` users with one shared password hash; the first is staff."""
    from django.contrib.auth.hashers import make_password

    from accounts.models import User

    password = make_password(PASSWORD)
    users = [
        User(
            username=f"load{i:05d}",
            email=f"load{i:05d}@example.invalid",
            password=password,
            is_staff=(i == 0),
            date_joined=NOW - timedelta(days=400) + timedelta(minutes=i),
        )
        for i in range(n)
    ]
    User.objects.bulk_create(users, batch_size=2000)


# ---------------------------------------------------------------------------
# Simulation (in worker processes: no Django needed, only the engine)


def play(rng: random.Random, players: int, running: bool) -> tuple[int, list[str], Any, list[tuple[int, str]]]:
    """Play one game with bots; return (seed, kingdom, state, moves as (seat, JSON)).

    For a running game, stop at a random point where the player to move owes
    a plain turn; for a finished game, play to the end (retrying a seed in
    the rare case the turn cap ends it first).
    """
    from games.engine.dominion.bots import BOTS
    from games.engine.dominion.engine import ENGINE, PlayerView, resolve_kingdom

    while True:
        seed = rng.getrandbits(63)
        kingdom = resolve_kingdom("random", seed)
        # Set up as the site's replay will (its options' defaults, e.g. version 3's hidden reactions).
        st = ENGINE.new_game({"kingdom": kingdom}, players, seed)
        st.record = False
        bots = [BOTS[rng.choice(BOT_MIX)] for _ in range(players)]
        bot_rng = random.Random(seed)
        moves: list[tuple[int, str]] = []
        stop_at = rng.randint(20, 60 * players) if running else None
        while not st.game_over and sum(st.turns) < 400:
            if stop_at is not None and len(moves) >= stop_at and not st.open:
                return seed, kingdom, st, moves
            p = ENGINE.pending(st)[0].player  # the engine's order (version 3 lets victims answer late)
            move = bots[p](PlayerView(st, p), bot_rng)
            text = json.dumps(move, separators=(", ", ": "))
            ENGINE.apply(st, p, move)
            moves.append((p, text))
        if st.game_over and not running:
            return seed, kingdom, st, moves


def copy_text(value: str) -> str:
    """Escape a value for COPY's text format."""
    return value.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")


def seed_chunk(job: tuple[str, int, int, int, bool, int, int, int]) -> tuple[int, int]:
    """Simulate games ``first_id .. first_id+count-1`` and COPY them in; return (games, actions)."""
    url, first_id, count, chunk_seed, running, n_users, active, version = job
    import psycopg

    from games.engine.dominion.engine import result

    rng = random.Random(chunk_seed)
    games: list[tuple[Any, ...]] = []
    seats: list[tuple[Any, ...]] = []
    actions: list[str] = []
    total_actions = 0
    with psycopg.connect(url) as conn:
        conn.execute("SET synchronous_commit = off")
        # Skip the per-row foreign key triggers: the ids written here are made
        # consistent by construction, and the checks would triple COPY's time.
        conn.execute("SET session_replication_role = replica")
        for game_id in range(first_id, first_id + count):
            players = rng.choice(SEATS)
            pool = active if running else n_users
            users = rng.sample(range(1, pool + 1), players)  # user ids start at 1
            seed, kingdom, st, moves = play(rng, players, running)
            n = len(moves)
            if running:
                started = NOW - timedelta(days=rng.uniform(1, 30))
                span = (NOW - timedelta(hours=rng.uniform(0.1, 12))) - started
            else:
                finished = NOW - timedelta(days=rng.uniform(1, 365))
                span = timedelta(minutes=n * rng.uniform(2, 60))
                started = finished - span
            created = started - timedelta(hours=rng.uniform(0.1, 48))
            step = span / max(n, 1)
            tpm = timedelta(days=rng.choice([1, 2, 3, 7]))
            options = json.dumps({"kingdom": kingdom})
            if running:
                mover = st.current
                clock_started = started + step * n
                deadline = clock_started + tpm
                warn_at = clock_started + tpm * 0.8
                games.append(
                    (
                        game_id,
                        "dominion",
                        options,
                        seed,
                        version,
                        "active",
                        created,
                        started,
                        None,
                        users[0],
                        False,
                        False,
                        "move",
                        tpm,
                        timedelta(0),
                        players,
                        n,
                        json.dumps([mover]),
                        deadline,
                    )
                )
                for pos, user_id in enumerate(users):
                    owes = pos == mover
                    seats.append(
                        (
                            game_id,
                            pos,
                            user_id,
                            "",
                            created,
                            owes,
                            None,
                            None,
                            False,
                            None,
                            clock_started if owes else None,
                            n if owes else 0,
                            deadline if owes else None,
                            warn_at if owes else None,
                            None,
                            None,
                        )
                    )
            else:
                res = result(st)
                assert res is not None  # play() returns finished games played to their end
                games.append(
                    (
                        game_id,
                        "dominion",
                        options,
                        seed,
                        version,
                        "finished",
                        created,
                        started,
                        started + span,
                        users[0],
                        False,
                        False,
                        "move",
                        tpm,
                        timedelta(0),
                        players,
                        n,
                        "[]",
                        None,
                    )
                )
                for pos, user_id in enumerate(users):
                    seats.append(
                        (
                            game_id,
                            pos,
                            user_id,
                            "",
                            created,
                            False,
                            res.ranks[pos],
                            res.scores[pos],
                            False,
                            None,
                            None,
                            0,
                            None,
                            None,
                            None,
                            None,
                        )
                    )
            for seq, (seat, text) in enumerate(moves, start=1):
                actions.append(f"{game_id}\t{seq}\t{seat}\t{copy_text(text)}\t{(started + step * seq).isoformat()}\n")
            total_actions += n
            if len(games) >= BATCH:
                _flush(conn, games, seats, actions)
        _flush(conn, games, seats, actions)
    return count, total_actions


GAME_COLUMNS = (
    "id, kind, options, seed, engine_version, status, created, started, finished, creator_id, rated, private, "
    "clock, time_per_move, increment, max_players, last_seq, to_act, deadline"
)
SEAT_COLUMNS = (
    "game_id, position, user_id, bot, joined, owes_move, rank, score, forfeited, timed_out, clock_started, "
    "clock_seq, deadline, warn_at, bank, last_seen, resigned"
)


def _flush(conn, games: list, seats: list, actions: list[str]) -> None:
    """COPY the buffered rows in one transaction and empty the buffers."""
    if not games:
        return
    with conn.transaction(), conn.cursor() as cur:
        with cur.copy(f"COPY games_game ({GAME_COLUMNS}) FROM STDIN") as copy:
            for row in games:
                copy.write_row(row)
        with cur.copy(f"COPY games_seat ({SEAT_COLUMNS}) FROM STDIN") as copy:
            for row in seats:
                copy.write_row((*row, False))  # resigned: bots never resign
        with cur.copy("COPY games_action (game_id, seq, seat, move, created) FROM STDIN") as copy:
            copy.write("".join(actions))
    games.clear()
    seats.clear()
    actions.clear()


def seed_games(
    url: str, *, first_id: int, count: int, running: bool, jobs: int, seed: int, users: int, active: int
) -> tuple[int, int]:
    """Simulate and COPY ``count`` games in ``jobs`` processes; return (games, actions)."""
    from games.engine.dominion.engine import ENGINE

    per = max(200, min(2000, count // (4 * jobs) or 1))
    work = [
        (
            url,
            first_id + start,
            min(per, count - start),
            seed * 1_000_003 + start,
            running,
            users,
            active,
            ENGINE.version,
        )
        for start in range(0, count, per)
    ]
    done_games = done_actions = 0
    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        for games, actions in pool.imap_unordered(seed_chunk, work):
            done_games += games
            done_actions += actions
            print(f"  {done_games}/{count} games, {done_actions} actions", flush=True)
    return done_games, done_actions


def main(argv: list[str]) -> int:
    """Recreate the database, migrate, seed, analyse; print timings."""
    args = parse_args(argv)
    url = args.database_url
    t0 = time.perf_counter()
    recreate_database(url)
    setup_django(url)
    from django.core.management import call_command
    from django.db import connection

    call_command("migrate", verbosity=0)
    print(f"migrated in {time.perf_counter() - t0:.1f} s", flush=True)
    connection.close()  # forked workers must not share this connection
    t = time.perf_counter()
    make_users(args.users)
    connection.close()
    print(f"{args.users} users in {time.perf_counter() - t:.1f} s", flush=True)
    active = min(args.active, args.users)
    t = time.perf_counter()
    g1, a1 = seed_games(
        url,
        first_id=1,
        count=args.finished,
        running=False,
        jobs=args.jobs,
        seed=args.seed,
        users=args.users,
        active=active,
    )
    print(f"{g1} finished games, {a1} actions in {time.perf_counter() - t:.1f} s", flush=True)
    t = time.perf_counter()
    g2, a2 = seed_games(
        url,
        first_id=args.finished + 1,
        count=args.running,
        running=True,
        jobs=args.jobs,
        seed=args.seed + 1,
        users=args.users,
        active=active,
    )
    print(f"{g2} running games, {a2} actions in {time.perf_counter() - t:.1f} s", flush=True)
    t = time.perf_counter()
    with connection.cursor() as cur:
        cur.execute("SELECT setval(pg_get_serial_sequence('games_game', 'id'), (SELECT max(id) FROM games_game))")
    connection.close()
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE")
        row = conn.execute("SELECT pg_size_pretty(pg_database_size(current_database()))").fetchone()
        size = row[0] if row else "?"
    print(f"analyzed in {time.perf_counter() - t:.1f} s; database size {size}", flush=True)
    print(
        f"seeded {args.users} users, {g1} finished + {g2} running games, {a1 + a2} actions "
        f"in {time.perf_counter() - t0:.1f} s",
        flush=True,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
