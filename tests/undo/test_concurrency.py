"""Undo under the game's row lock: the same undo sent many times at once is applied once (PostgreSQL)."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from games import services
from games.engine import undo as rules
from tests.conftest import make_game, skip_missing_service
from tests.factories import UserFactory
from tests.undo.helpers import advance, turn_start, user_of


@pytest.mark.django_db(transaction=True)
def test_concurrent_identical_undos_apply_once():
    if connection.vendor != "postgresql":
        skip_missing_service("PostgreSQL (set DATABASE_URL) for the concurrency test")
    game = advance(
        make_game(UserFactory.create(), UserFactory.create(), kind="dominion", options={"kingdom": "First Game"}),
        turn_start,
    )
    p = services.state_at(game).current
    user = user_of(game, p)
    services.game_submit_move(game_id=game.pk, user=user, move={"act": "end_actions"}, expected_seq=game.last_seq)
    game.refresh_from_db()
    seq = game.last_seq
    n = 12
    barrier = threading.Barrier(n)
    outcomes: list[str] = []
    lock = threading.Lock()

    def submit() -> None:
        try:
            barrier.wait()
            try:
                services.game_undo(game_id=game.pk, user=user, expected_seq=seq)
                outcome = "applied"
            except services.StaleMove:
                outcome = "stale"
            except Exception as exc:  # report, don't hide, anything else
                outcome = repr(exc)
            with lock:
                outcomes.append(outcome)
        finally:
            connection.close()

    threads = [threading.Thread(target=submit) for _ in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert sorted(outcomes) == ["applied"] + ["stale"] * (n - 1)
    game.refresh_from_db()
    assert game.last_seq == seq + 1
    assert [m for m in game.actions.values_list("move", flat=True) if rules.is_undo(m)] == [rules.undo_entry(seq - 1)]
