"""The game services: creating, joining, the move path, records, chat."""

from __future__ import annotations

import random
import threading
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.db import connection

from games import services
from games.engine.registry import get_engine
from games.models import Action, Game, Seat
from tests.conftest import dominion_available, make_game, skip_missing_service, user_to_move, user_waiting
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

KINDS = [
    "counter",
    pytest.param(
        "dominion", marks=pytest.mark.skipif(not dominion_available(), reason="Dominion engine not there yet")
    ),
]


@pytest.fixture(params=KINDS)
def any_game(request, player, opponent) -> Game:
    """A running two-player game of each kind the site has."""
    return make_game(player, opponent, kind=request.param)


def a_legal_move(game: Game) -> tuple[object, dict]:
    """Return (user, move) for a legal move in ``game`` now."""
    user = user_to_move(game)
    seat = game.seats.get(user=user).position
    moves = get_engine(game.kind).legal_moves(services.state_at(game), seat)
    return user, dict(moves[0])


def test_create_seats_creator_and_waits(player):
    game = services.game_create(
        creator=player,
        kind="counter",
        options={},
        players=3,
        rated=True,
        private=False,
        time_per_move=timedelta(hours=4),
    )
    assert game.status == Game.Status.OPEN
    assert list(game.seats.values_list("user__username", flat=True)) == ["player"]
    assert game.max_players == 3


def test_create_refuses_bad_options(player):
    with pytest.raises(services.InvalidOptions):
        services.game_create(
            creator=player,
            kind="counter",
            options={"target": 1000},
            players=2,
            rated=False,
            private=False,
            time_per_move=timedelta(days=1),
        )
    with pytest.raises(services.InvalidOptions):
        services.game_create(
            creator=player,
            kind="nope",
            options={},
            players=2,
            rated=False,
            private=False,
            time_per_move=timedelta(days=1),
        )
    with pytest.raises(services.InvalidOptions):
        services.game_create(
            creator=player,
            kind="counter",
            options={},
            players=9,
            rated=False,
            private=False,
            time_per_move=timedelta(days=1),
        )
    assert not Game.objects.exists()


def test_create_with_bot_fills_and_starts(player):
    game = services.game_create(
        creator=player,
        kind="counter",
        options={},
        players=2,
        rated=False,
        private=False,
        time_per_move=timedelta(days=1),
        bots=["first"],
    )
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert sorted(game.seats.values_list("bot", flat=True)) == ["", "first"]


def test_create_refuses_rated_bots_and_unknown_bots(player):
    for bots, rated in ((["first"], True), (["nobody"], False)):
        with pytest.raises(services.InvalidOptions):
            services.game_create(
                creator=player,
                kind="counter",
                options={},
                players=2,
                rated=rated,
                private=False,
                time_per_move=timedelta(days=1),
                bots=bots,
            )


def test_join_starts_the_game_when_full(any_game):
    assert any_game.status == Game.Status.ACTIVE
    assert any_game.started is not None
    assert sorted(any_game.seats.values_list("position", flat=True)) == [0, 1]
    assert len(any_game.to_act) == 1
    assert any_game.deadline is not None
    owes = list(any_game.seats.filter(owes_move=True).values_list("position", flat=True))
    assert owes == any_game.to_act


def test_dominion_random_kingdom_becomes_concrete(player, opponent):
    if not dominion_available():
        pytest.skip("Dominion engine not there yet")
    game = make_game(player, opponent, kind="dominion", options={"kingdom": "random"})
    assert isinstance(game.options["kingdom"], list)
    assert len(game.options["kingdom"]) == 10


def test_join_refuses_private_uninvited_and_double(player, opponent, outsider):
    game = services.game_create(
        creator=player,
        kind="counter",
        options={},
        players=3,
        rated=False,
        private=True,
        invited=[opponent],
        time_per_move=timedelta(days=1),
    )
    with pytest.raises(services.CannotJoin):
        services.game_join(game_id=game.pk, user=outsider)
    services.game_join(game_id=game.pk, user=opponent)
    with pytest.raises(services.CannotJoin):
        services.game_join(game_id=game.pk, user=opponent)


def test_leave_and_cancel(player, opponent, outsider):
    game = services.game_create(
        creator=player,
        kind="counter",
        options={},
        players=3,
        rated=False,
        private=False,
        time_per_move=timedelta(days=1),
    )
    services.game_join(game_id=game.pk, user=opponent)
    services.game_leave(game_id=game.pk, user=opponent)
    assert game.seats.count() == 1
    with pytest.raises(services.CannotJoin):
        services.game_leave(game_id=game.pk, user=player)
    with pytest.raises(services.CannotJoin):
        services.game_cancel(game_id=game.pk, user=outsider)
    services.game_cancel(game_id=game.pk, user=player)
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED
    with pytest.raises(services.GameNotActive):
        services.game_join(game_id=game.pk, user=outsider)


def test_a_legal_move_is_recorded(any_game):
    user, move = a_legal_move(any_game)
    result = services.game_submit_move(game_id=any_game.pk, user=user, move=move, expected_seq=0)
    assert result.seq == 1
    any_game.refresh_from_db()
    assert any_game.last_seq == 1
    action = Action.objects.get(game=any_game)
    assert (action.seq, action.move) == (1, move)


def test_stale_seq_writes_nothing(any_game):
    user, move = a_legal_move(any_game)
    with pytest.raises(services.StaleMove) as info:
        services.game_submit_move(game_id=any_game.pk, user=user, move=move, expected_seq=5)
    assert info.value.current_seq == 0
    assert not Action.objects.exists()


def test_wrong_user_is_not_your_move(any_game, outsider):
    _user, move = a_legal_move(any_game)
    with pytest.raises(services.NotYourMove):
        services.game_submit_move(game_id=any_game.pk, user=user_waiting(any_game), move=move, expected_seq=0)
    with pytest.raises(services.NotYourMove):
        services.game_submit_move(game_id=any_game.pk, user=outsider, move=move, expected_seq=0)
    assert not Action.objects.exists()


@pytest.mark.parametrize("move", [{"act": "no-such-act"}, {"act": "add", "n": 99}, {}, {"act": ["x"]}])
def test_illegal_move_writes_nothing(any_game, move):
    user = user_to_move(any_game)
    with pytest.raises(services.IllegalMove) as info:
        services.game_submit_move(game_id=any_game.pk, user=user, move=move, expected_seq=0)
    assert info.value.reason
    any_game.refresh_from_db()
    assert any_game.last_seq == 0
    assert not Action.objects.exists()


def test_an_engine_crash_refuses_the_move(game):
    with pytest.raises(services.IllegalMove) as info:
        services.game_submit_move(game_id=game.pk, user=user_to_move(game), move={"act": "crash"}, expected_seq=0)
    assert info.value.code == "malformed"
    assert not Action.objects.exists()


def test_double_submission_applies_once(any_game):
    user, move = a_legal_move(any_game)
    services.game_submit_move(game_id=any_game.pk, user=user, move=move, expected_seq=0)
    with pytest.raises(services.StaleMove):
        services.game_submit_move(game_id=any_game.pk, user=user, move=move, expected_seq=0)
    assert Action.objects.filter(game=any_game).count() == 1


def test_cached_state_equals_replay(any_game):
    """Incremental application (the cache) and a replay from the log agree."""
    engine = get_engine(any_game.kind)
    rng = random.Random(7)
    for _ in range(25):
        any_game.refresh_from_db()
        if not any_game.is_active:
            break
        user = user_to_move(any_game)
        seat = any_game.seats.get(user=user).position
        move = rng.choice(engine.legal_moves(services.state_at(any_game), seat))
        services.game_submit_move(game_id=any_game.pk, user=user, move=move, expected_seq=any_game.last_seq)
    any_game.refresh_from_db()
    incremental = [engine.view(services.state_at(any_game), v) for v in (None, 0, 1)]
    cache.clear()
    replayed = [engine.view(services.state_at(any_game), v) for v in (None, 0, 1)]
    assert incremental == replayed


def test_finishing_writes_ranks_and_record(game):
    while game.is_active:
        user = user_to_move(game)
        services.game_submit_move(game_id=game.pk, user=user, move={"act": "add", "n": 1}, expected_seq=game.last_seq)
        game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.finished is not None
    assert game.to_act == []
    ranks = sorted(game.seats.values_list("rank", flat=True))
    assert ranks == [1, 2]
    assert not Seat.objects.filter(game=game, owes_move=True).exists()
    record = services.game_record(game)
    assert record["seed"] == game.seed
    assert [m["seq"] for m in record["moves"]] == list(range(1, 11))
    with pytest.raises(services.GameNotActive):
        services.game_submit_move(game_id=game.pk, user=user, move={"act": "add", "n": 1}, expected_seq=game.last_seq)


def test_record_refused_while_running(game):
    with pytest.raises(services.GameNotActive):
        services.game_record(game)


def test_actions_are_append_only(game):
    user = user_to_move(game)
    services.game_submit_move(game_id=game.pk, user=user, move={"act": "add", "n": 2}, expected_seq=0)
    action = Action.objects.get(game=game)
    action.move = {"act": "add", "n": 3}
    with pytest.raises(ValueError):
        action.save()


def test_chat_post_limits(game, player, settings):
    settings.CHAT_RATE_LIMIT = 2
    with pytest.raises(services.ChatInvalid):
        services.chat_post(game_id=game.pk, user=player, text="   ")
    with pytest.raises(services.ChatInvalid):
        services.chat_post(game_id=game.pk, user=player, text="x" * 501)
    services.chat_post(game_id=game.pk, user=player, text=" hello ")
    services.chat_post(game_id=game.pk, user=player, text="again")
    with pytest.raises(services.ChatRateLimited):
        services.chat_post(game_id=game.pk, user=player, text="too fast")
    assert list(game.chat_messages.values_list("text", flat=True)) == ["hello", "again"]


@pytest.mark.django_db(transaction=True)
def test_concurrent_identical_submissions_apply_once():
    """20 threads send the same move at once: one is applied, 19 are stale."""
    if connection.vendor != "postgresql":
        skip_missing_service("PostgreSQL (set DATABASE_URL) for the concurrency test")
    game = make_game(UserFactory.create(), UserFactory.create())
    user = user_to_move(game)
    n = 20
    barrier = threading.Barrier(n)
    outcomes: list[str] = []
    lock = threading.Lock()

    def submit() -> None:
        try:
            barrier.wait()
            try:
                services.game_submit_move(game_id=game.pk, user=user, move={"act": "add", "n": 1}, expected_seq=0)
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
    seqs = list(Action.objects.filter(game=game).values_list("seq", flat=True))
    assert seqs == [1]
    game.refresh_from_db()
    assert game.last_seq == 1
