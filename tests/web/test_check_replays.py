"""``manage.py check_replays`` and ``manage.py golden_add``: stored games against the current code."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.cache import cache
from django.core.management import CommandError, call_command
from django.db import connection

from games import services
from games.engine.core import IllegalMove
from games.engine.golden import check_record, read_record
from games.lifecycle import game_freeze
from games.models import Game
from games.replay import ReplayBroken, state_at
from moderation import services as moderation
from tests.conftest import make_game, skip_missing_service, user_to_move
from tests.counter.engine import CounterEngine
from tests.factories import UserFactory

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("site_test")]


def play(game: Game, *adds: int) -> Game:
    for n in adds:
        services.game_submit_move(
            game_id=game.pk, user=user_to_move(game), move={"act": "add", "n": n}, expected_seq=game.last_seq
        )
        game.refresh_from_db()
    return game


def check(*args: str) -> str:
    out = StringIO()
    call_command("check_replays", *args, stdout=out, stderr=StringIO())
    return out.getvalue()


@pytest.fixture
def games(player, opponent) -> list[Game]:
    """A running game, a finished one, and an open one (which has nothing to replay)."""
    running = play(make_game(player, opponent), 1, 2)
    finished = play(make_game(opponent, player), 3, 3, 3, 1)
    services.game_create(
        creator=player,
        kind="counter",
        options={},
        players=2,
        rated=False,
        private=False,
        time_per_move=services.TIME_CONTROLS[0],
    )
    assert finished.is_finished and running.is_active
    return [running, finished]


def test_every_stored_game_replays_and_the_summary_says_so(games):
    out = check("--workers", "1", "-v", "2")
    assert "2 of 2 games replay (6 moves)" in out
    assert f"game {games[0].pk} counter v1: ok, 2 moves" in out


def test_a_rules_change_without_a_version_check_is_reported_per_game(games, monkeypatch):
    original = CounterEngine.check

    def stricter(self, state, player, move):
        if move.get("n") == 2:
            raise IllegalMove("Add 1 or 3.", "bad_number")
        original(self, state, player, move)

    monkeypatch.setattr(CounterEngine, "check", stricter)
    with pytest.raises(CommandError, match=rf"1 game\(s\) no longer replay: {games[0].pk}"):
        check("--workers", "1")
    # One game can be asked about alone; the finished one still replays.
    assert "1 of 1 games replay" in check("--workers", "1", "--game", str(games[1].pk))


def test_a_game_that_can_no_longer_be_set_up_is_reported_not_a_crash(games, monkeypatch):
    # The replay path freezes such a game (games.replay._new_game: ReplayBroken at move 0); the check
    # before a deploy must report it beside the others, not stop with a traceback on the first one.
    def broken_setup(self, options, players, seed):
        raise KeyError("target")

    monkeypatch.setattr(CounterEngine, "new_game", broken_setup)
    out = StringIO()
    with pytest.raises(CommandError, match=r"2 game\(s\) no longer replay"):
        call_command("check_replays", "--workers", "1", "-v", "2", stdout=out, stderr=StringIO())
    assert f"game {games[0].pk} counter v1:" in out.getvalue() and "KeyError" in out.getvalue()


def test_a_row_that_disagrees_with_its_log_is_reported(games):
    running, finished = games
    Game.objects.filter(pk=running.pk).update(to_act=[1 - running.to_act[0]])
    finished.seats.filter(rank=1).update(score=7)
    out = StringIO()
    with pytest.raises(CommandError, match="2 game"):
        call_command("check_replays", "--workers", "1", stdout=out, stderr=StringIO())
    assert "the rules wait on seats" in out.getvalue() and "the row holds rank 1 and score 7" in out.getvalue()


def test_a_sample_checks_that_many_games():
    assert "0 of 0 games replay" in check("--sample", "5", "--workers", "1")


def test_workers_in_parallel_give_the_same_answer(games):
    if connection.vendor != "postgresql":
        skip_missing_service("PostgreSQL (set DATABASE_URL): forked workers need a database they can all open")
    assert "2 of 2 games replay (6 moves)" in check("--workers", "2")


def test_golden_add_records_a_finished_site_game_that_replays_to_the_same_end(games, tmp_path):
    finished = games[1]
    call_command("golden_add", str(finished.pk), "--out", str(tmp_path), stdout=StringIO())
    record = read_record(tmp_path / "counter" / f"site-{finished.pk}.json")
    assert record["source"].startswith(f"site game {finished.pk}") and len(record["moves"]) == 4
    assert record["views"]["spectator"]["game_over"] is True
    assert check_record(record) == []
    json.dumps(record)  # plain JSON


def test_golden_add_refuses_a_running_game_unless_told(games, tmp_path):
    running = games[0]
    with pytest.raises(CommandError, match="would publish its seed"):
        call_command("golden_add", str(running.pk), "--out", str(tmp_path), stdout=StringIO())
    call_command("golden_add", str(running.pk), "--out", str(tmp_path), "--running", stdout=StringIO())
    assert (tmp_path / "counter" / f"site-{running.pk}.json").exists()
    with pytest.raises(CommandError, match="no game"):
        call_command("golden_add", "999999", stdout=StringIO())


def test_golden_add_never_overwrites_a_record_of_the_same_id_unless_told(games, tmp_path):
    # Game ids are per database: site-7.json from another database is another game, kept in the corpus.
    finished = games[1]
    path = tmp_path / "counter" / f"site-{finished.pk}.json"
    path.parent.mkdir(parents=True)
    path.write_text('{"kept": true}')
    with pytest.raises(CommandError, match="already exists"):
        call_command("golden_add", str(finished.pk), "--out", str(tmp_path), stdout=StringIO())
    assert path.read_text() == '{"kept": true}'
    call_command("golden_add", str(finished.pk), "--out", str(tmp_path), "--replace", stdout=StringIO())
    assert read_record(path)["source"].startswith(f"site game {finished.pk}")


def test_a_stopped_game_a_moderator_settled_is_listed_apart_and_fails_no_deploy(games, monkeypatch):
    # The running game stops replaying (a rules change without a version check), freezes, and a
    # moderator adjudicates it: it is settled for good, and the pre-deploy check must not fail on it forever.
    running = games[0]
    original = CounterEngine.check

    def stricter(self, state, player, move):
        if move.get("n") == 2:
            raise IllegalMove("Add 1 or 3.", "bad_number")
        original(self, state, player, move)

    monkeypatch.setattr(CounterEngine, "check", stricter)
    cache.clear()
    with pytest.raises(ReplayBroken) as broken:
        state_at(running)
    game_freeze(game_id=running.pk, broken=broken.value)
    moderator = UserFactory.create(username="mod", is_staff=True, is_superuser=True)  # transaction=True: no groups
    moderation.game_adjudicate(moderator=moderator, game_id=running.pk, ranks={0: 1, 1: 2}, reason="stopped")
    out = check("--workers", "1")
    assert "2 of 2 games replay or were settled by a moderator" in out
    assert f"game {running.pk} counter v1: settled by a moderator after it stopped replaying" in out
    # Settled is not a pass for a game that still runs: the others are checked as before.
    finished = games[1]
    finished.seats.filter(rank=1).update(score=7)
    with pytest.raises(CommandError, match=rf"1 game\(s\) no longer replay: {finished.pk}"):
        check("--workers", "1")
