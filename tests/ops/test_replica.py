"""Read-heavy pages read from a replica when one is configured; moves and running games never do."""

from __future__ import annotations

from contextlib import contextmanager

import pytest
from django.db import connection
from django.urls import reverse

from games import services
from tests.conftest import make_game, user_to_move
from website import db as replica

pytestmark = pytest.mark.usefixtures("site_test")


@contextmanager
def flagged_queries():
    """Record, for each SQL statement, whether it ran inside ``replica_reads``."""
    seen: list[tuple[bool, str]] = []

    def wrapper(execute, sql, params, many, context):
        seen.append((replica._reading_replica.get(), sql))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(wrapper):
        yield seen


def test_reads_go_to_the_replica_only_inside_replica_reads_and_only_when_configured(monkeypatch):
    from django.conf import settings

    router = replica.ReplicaRouter()
    with monkeypatch.context() as mp:
        # The router only asks whether the alias is configured; no connection is opened here.
        mp.setitem(settings.DATABASES, "replica", settings.DATABASES["default"])
        assert router.db_for_read(object) == "default"
        with replica.replica_reads():
            assert router.db_for_read(object) == "replica"
            assert router.db_for_write(object) == "default"
        assert router.db_for_read(object) == "default"
    with replica.replica_reads():
        assert router.db_for_read(object) == "default"  # no DATABASE_REPLICA_URL: the primary
    assert router.allow_migrate("default", "games") and not router.allow_migrate("replica", "games")


def test_profile_and_ladder_read_from_the_replica(client, player, opponent):
    make_game(player, opponent)
    client.force_login(player)
    client.get(reverse("games:lobby"))  # session and user rows exist before the pages we watch
    for path in (reverse("accounts:profile", args=[opponent.username]), reverse("ratings:ladder", args=["dominion"])):
        with flagged_queries() as seen:
            assert client.get(path).status_code == 200
        reads = [sql for flagged, sql in seen if flagged]
        assert reads, path
        assert all(sql.lstrip().upper().startswith(("SELECT", "WITH")) for sql in reads), path


def test_the_move_path_and_a_running_game_read_the_primary(client, player, opponent):
    game = make_game(player, opponent)
    client.force_login(user_to_move(game))
    with flagged_queries() as seen:
        client.get(reverse("games:detail", args=[game.pk]))
        response = client.post(reverse("games:move", args=[game.pk]), {"move": '{"act": "add", "n": 1}', "seq": 0})
    assert response.status_code == 302
    assert seen and not any(flagged for flagged, _sql in seen)
    game.refresh_from_db()
    assert services.state_at(game) is not None and game.last_seq == 1
