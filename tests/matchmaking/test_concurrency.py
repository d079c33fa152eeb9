"""Two matchers at once (PostgreSQL, real threads): no seek is seated twice, no player sits at two new tables."""

from __future__ import annotations

import threading
from collections import Counter

import pytest
from django.db import connection

from games.models import Game, Seat
from matchmaking import services
from matchmaking.models import Seek
from tests.conftest import skip_missing_service
from tests.factories import UserFactory


@pytest.mark.django_db(transaction=True)
def test_concurrent_matchers_seat_each_seek_once():
    if connection.vendor != "postgresql":
        skip_missing_service("PostgreSQL (set DATABASE_URL) for the matcher's concurrency test")
    users = [UserFactory.create() for _ in range(12)]
    for u in users:
        for size in (2, 3):  # two seeks each: the matcher may seat a player once per run
            services.seek_create(user=u, kind="domaine", players_min=size, players_max=size, match_now=False)
    n = 4
    barrier = threading.Barrier(n)
    made: list[int] = []
    errors: list[str] = []
    lock = threading.Lock()

    def run() -> None:
        try:
            barrier.wait()
            games = services.matcher_run()
            with lock:
                made.extend(games)
        except Exception as exc:  # report, don't hide
            with lock:
                errors.append(repr(exc))
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert errors == []
    assert made and len(made) == len(set(made)) == Game.objects.count()
    matched = Seek.objects.filter(status=Seek.Status.MATCHED)
    # Every game is exactly the seeks that name it, and each seek names one game.
    for game in Game.objects.all():
        seats = sorted(Seat.objects.filter(game=game).values_list("user_id", flat=True))
        assert seats == sorted(matched.filter(game=game).values_list("user_id", flat=True))
    # One run seats a player once; a later run may seat their other seek (a correspondence player plays several).
    per_user = Counter(Seat.objects.values_list("user_id", flat=True))
    assert max(per_user.values()) <= 2
    assert Seek.objects.filter(status=Seek.Status.OPEN).count() + matched.count() == 24


@pytest.mark.django_db(transaction=True)
def test_concurrent_matchers_never_seat_a_player_at_two_tables():
    if connection.vendor != "postgresql":
        skip_missing_service("PostgreSQL (set DATABASE_URL) for the matcher's concurrency test")
    users = [UserFactory.create() for _ in range(12)]
    for u in users:
        services.seek_create(user=u, kind="dominion", match_now=False)
    n = 4
    barrier = threading.Barrier(n)
    errors: list[str] = []

    def run() -> None:
        try:
            barrier.wait()
            services.matcher_run()
        except Exception as exc:  # report, don't hide
            errors.append(repr(exc))
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert errors == []
    seated = Counter(Seat.objects.values_list("user_id", flat=True))
    assert sorted(seated) == sorted(u.pk for u in users)
    assert set(seated.values()) == {1}
    assert Game.objects.count() == 6
