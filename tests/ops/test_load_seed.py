"""The load-test seeder makes a database the site can serve: its rows match the schema and its games replay.

``bench/load/seed.py`` writes rows with COPY, column by column, so a new
model field it does not know breaks it only when someone next seeds (this
test exists because a ``Seat.resigned`` column did exactly that). It runs
the seeder small against a throwaway PostgreSQL database, then replays every
seeded game through the site's own code and opens one running game as its
player to move.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.django_db

CHECK = textwrap.dedent(
    """
    import os, sys
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "website.settings")
    import django
    django.setup()
    from django.test import Client
    from games.replay import replay
    from games.engine.registry import get_engine
    from games.models import Game

    problems = []
    finished = running = 0
    for game in Game.objects.prefetch_related("seats").order_by("pk"):
        engine = get_engine(game.kind)
        state = replay(game, engine).state
        seats = sorted(game.seats.all(), key=lambda s: s.position)
        if game.status == "finished":
            finished += 1
            result = engine.result(state)
            if result is None or [s.rank for s in seats] != list(result.ranks):
                problems.append(f"game {game.pk}: stored ranks differ from the replay")
        else:
            running += 1
            waiting = sorted({d.player for d in engine.pending(state)})
            if engine.is_over(state) or waiting != sorted(game.to_act):
                problems.append(f"game {game.pk}: to_act {game.to_act} but the replay waits on {waiting}")
            if [s.position for s in seats if s.owes_move] != waiting:
                problems.append(f"game {game.pk}: owes_move does not match the replay")
    game = Game.objects.filter(status="active").order_by("pk").first()
    mover = next(s.user for s in game.seats.all() if s.owes_move)
    client = Client(HTTP_X_FORWARDED_PROTO="https")
    client.force_login(mover)
    page = client.get(f"/games/{game.pk}/", secure=True)
    if page.status_code != 200 or b'name="seq"' not in page.content:
        problems.append(f"game {game.pk}: its player to move got {page.status_code} without a move form")
    print(finished, running)
    print("\\n".join(problems))
    sys.exit(1 if problems else 0)
    """
)


@pytest.fixture
def load_url():
    """A PostgreSQL URL for a throwaway database with "load" in its name, dropped afterwards."""
    if connection.vendor != "postgresql":
        pytest.skip("the seeder writes with PostgreSQL COPY")
    s = connection.settings_dict
    name = f"herald_load_check_{os.getpid()}"
    auth = s["USER"] + (f":{s['PASSWORD']}" if s["PASSWORD"] else "")
    url = f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{name}"
    yield url
    import psycopg

    with psycopg.connect(url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_seeded_games_replay_to_their_stored_positions_and_results(load_url):
    env = {**os.environ, "DATABASE_URL": load_url, "RATELIMIT_ENABLE": "0", "ALLOWED_HOSTS": "testserver"}
    env.pop("DATABASE_REPLICA_URL", None)
    seed = subprocess.run(
        [sys.executable, "bench/load/seed.py", "--users", "12", "--finished", "6", "--running", "4", "--active", "6",
         "--jobs", "1", "--database-url", load_url],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert seed.returncode == 0, seed.stderr[-3000:]
    assert "6 finished + 4 running games" in seed.stdout
    check = subprocess.run(
        [sys.executable, "-c", CHECK], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    assert check.returncode == 0, check.stdout + check.stderr[-3000:]
    assert check.stdout.split("\n")[0] == "6 4"
