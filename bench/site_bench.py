"""Site benchmark on PostgreSQL: the game page and the move POST of a long game.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/herald_bench python bench/site_bench.py

Measures, through Django's test client in this process (no network, so the
numbers are the application's own cost):

* a plain Django view rendering a small template (the baseline);
* the game page (GET) of a 4-player Dominion game with a 1,500-move log;
* the move POST at move 1,500 and at move 10, each through the whole move
  service (row lock, cached state, engine, append, denormalised fields).

Prints requests per second for each, their ratio to the baseline, and the
ratio of the move cost at 1,500 to the cost at 10 (goal: at most 1.2, since
the cached state means a move never replays the log). Defaults to the
``herald_bench`` database on the local PostgreSQL, which it creates.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/herald_bench")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "website.settings")
os.environ.setdefault("DEBUG", "0")
os.environ.setdefault("SECRET_KEY", "bench-only-secret-key-bench-only-secret-key-0123456789")
os.environ.setdefault("ALLOWED_HOSTS", "testserver")
# Redis as cache and broker, as in production; no worker consumes the queue,
# so the measured move includes queueing its emails and bot tasks, not sending
# them (a worker's job). A database of its own, flushed before and after.
os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/7")
os.environ.setdefault("EMAIL_URL", "locmem:")


def flush_redis() -> None:
    """Empty the benchmark's Redis database (cache entries and queued tasks)."""
    import redis

    redis.Redis.from_url(os.environ["REDIS_URL"]).flushdb()


def ensure_database() -> None:
    """Create the benchmark database on PostgreSQL if it does not exist."""
    url = os.environ["DATABASE_URL"]
    if not url.startswith("postgres"):
        return
    import psycopg

    name = url.rsplit("/", 1)[1]
    admin = url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        if not conn.execute("select 1 from pg_database where datname = %s", [name]).fetchone():
            conn.execute(f'create database "{name}"')


def plain_urlconf() -> str:
    """The site's URLs plus ``/bench/plain/``: a view rendering a small template."""
    from django.http import HttpResponse
    from django.template import engines
    from django.urls import include, path

    template = engines["django"].from_string("<!doctype html><title>{{ t }}</title><p>Hello {{ name }}</p>")

    def plain(request):
        return HttpResponse(template.render({"t": "plain", "name": "world"}, request))

    module = types.ModuleType("bench_urls")
    module.__dict__["urlpatterns"] = [path("bench/plain/", plain), path("", include("website.urls"))]
    sys.modules["bench_urls"] = module
    return "bench_urls"


#: A kingdom without gainers or Curses, so the patient bots' game lasts past 1,500 moves.
LONG_KINGDOM = [
    "Cellar",
    "Chapel",
    "Moat",
    "Village",
    "Woodcutter",
    "Smithy",
    "Festival",
    "Laboratory",
    "Market",
    "Library",
]


def make_game(users, moves: int, seed: int):
    """A 4-player Dominion game whose log holds ``moves`` moves, made through the move service.

    The game's own seed is secret and random, so a game that ends too soon is
    replaced by a new one. A long game left running by an earlier run is
    reused (building one takes minutes; measuring moves it on by a few dozen).
    """
    from games.models import Game

    if moves >= 1000:
        old = (
            Game.objects.filter(
                kind="dominion",
                status=Game.Status.ACTIVE,
                last_seq__gte=moves,
                last_seq__lt=moves + 400,
                options__kingdom=LONG_KINGDOM,
            )
            .order_by("-pk")
            .first()
        )
        if old is not None:
            return old, {s.position: s.user for s in old.seats.all()}
    for attempt in range(20):
        try:
            return _make_game(users, moves, seed + attempt)
        except RuntimeError:
            continue
    raise RuntimeError("no game reached the wanted length")


def _make_game(users, moves: int, seed: int):
    from games import services
    from games.engine.dominion.engine import ENGINE
    from games.models import Game

    game = services.game_create(
        creator=users[0],
        kind="dominion",
        options={"kingdom": LONG_KINGDOM},
        players=4,
        rated=False,
        private=False,
        time_per_move=__import__("datetime").timedelta(days=7),
    )
    for u in users[1:]:
        services.game_join(game_id=game.pk, user=u)
    game = Game.objects.get(pk=game.pk)
    by_seat = {s.position: s.user for s in game.seats.all() if s.user is not None}
    sys.path.insert(0, str(ROOT / "bench"))
    from dominion_bench import patient

    rng = random.Random(seed)
    while game.last_seq < moves:
        state = services.state_at(game)
        if ENGINE.is_over(state):
            raise RuntimeError("the game ended before the wanted length; try another seed")
        seat = ENGINE.pending(state)[0].player
        move = patient(ENGINE.player_view(state, seat), rng)
        game = services.game_submit_move(
            game_id=game.pk, user=by_seat[seat], move=move, expected_seq=game.last_seq
        ).game
    return game, by_seat


def rate(fn, n: int) -> tuple[float, float]:
    """Call ``fn`` n times; return (requests per second, median ms)."""
    times = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return n / sum(times), statistics.median(times) * 1000


def move_cost(client_for, game, by_seat, n: int, seed: int) -> tuple[float, float]:
    """Post ``n`` legal moves (chosen by a bot for whoever must act); return (moves/s, median ms)."""
    from games import services
    from games.engine.dominion.engine import ENGINE
    from games.models import Game

    sys.path.insert(0, str(ROOT / "bench"))
    from dominion_bench import patient

    rng = random.Random(seed)
    times = []
    import json

    for _ in range(n):
        game = Game.objects.get(pk=game.pk)
        state = services.state_at(game)
        seat = ENGINE.pending(state)[0].player
        move = patient(ENGINE.player_view(state, seat), rng)
        client = client_for[by_seat[seat].pk]
        t = time.perf_counter()
        response = client.post(
            f"/games/{game.pk}/move",
            {"move": json.dumps(move), "seq": game.last_seq},
            HTTP_HX_REQUEST="true",
            secure=True,
        )  # production settings redirect HTTP
        times.append(time.perf_counter() - t)
        assert response.status_code == 200, (response.status_code, response.content[:300])
    return n / sum(times), statistics.median(times) * 1000


def main() -> int:
    ensure_database()
    flush_redis()
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.test import Client
    from django.test.utils import override_settings

    call_command("migrate", verbosity=0, interactive=False)
    from accounts.models import User

    stamp = int(time.time())
    users = [User.objects.create_user(f"bench{stamp}_{i}", f"b{stamp}_{i}@example.com", "x") for i in range(4)]
    print(f"database: {settings.DATABASES['default']['ENGINE']}, cache: {settings.CACHES['default']['BACKEND']}")
    long_game, long_seats = make_game(users, 1500, seed=7)
    short_game, short_seats = make_game(users, 10, seed=8)
    clients = {}
    for u in {*users, *long_seats.values(), *short_seats.values()}:
        c = Client()
        c.force_login(u)
        clients[u.pk] = c
    # No collectstatic here: plain static storage instead of the hashed manifest.
    plain_static = {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}
    storages = {**settings.STORAGES, "staticfiles": plain_static}
    with override_settings(ROOT_URLCONF=plain_urlconf(), STORAGES=storages):
        viewer = clients[long_seats[0].pk]
        viewer.get(f"/games/{long_game.pk}/", secure=True)  # warm the cache, as a page already open would
        plain_rps, plain_ms = rate(lambda: viewer.get("/bench/plain/", secure=True), 300)
        page_rps, page_ms = rate(lambda: viewer.get(f"/games/{long_game.pk}/", secure=True), 100)
        long_rps, long_ms = move_cost(clients, long_game, long_seats, 60, seed=1)
        short_rps, short_ms = move_cost(clients, short_game, short_seats, 60, seed=2)
    print(f"plain view:                 {plain_rps:8.1f} req/s  (median {plain_ms:.2f} ms)")
    print(
        f"game page, 1,500-move game: {page_rps:8.1f} req/s  (median {page_ms:.2f} ms)"
        f"  ratio to plain {page_rps / plain_rps:.3f}"
    )
    print(
        f"move POST at move ~1,500:   {long_rps:8.1f} req/s  (median {long_ms:.2f} ms)"
        f"  ratio to plain {long_rps / plain_rps:.3f}"
    )
    print(f"move POST at move ~10:      {short_rps:8.1f} req/s  (median {short_ms:.2f} ms)")
    print(f"move cost at 1,500 / at 10 (median): {long_ms / short_ms:.2f} (goal <= 1.2)")
    flush_redis()
    return 0


if __name__ == "__main__":
    sys.exit(main())
