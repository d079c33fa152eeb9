"""The games' events: what each change publishes, in what order, and who listens (games/events.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.core import mail

from accounts.models import User
from correspondence import listeners as correspondence_listeners
from games import events, services, tasks
from games.models import Game
from ratings.services import rating_on_finish
from tests.conftest import make_game, user_to_move

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("site_test")]


@pytest.fixture
def published() -> Iterator[list[object]]:
    """Every event published while the test runs, in order (a listener added for the test)."""
    seen: list[object] = []
    added = []
    for event_type in events.EVENTS:
        listener = seen.append
        events.subscribe(event_type, listener)
        added.append(event_type)
    yield seen
    for event_type in added:
        events.unsubscribe(event_type, seen.append)


def kinds(seen: list[object]) -> list[str]:
    return [type(e).__name__ for e in seen]


def test_the_documented_listeners_are_subscribed():
    assert correspondence_listeners.on_decisions_owed in events.listeners(events.DecisionsOwed)
    assert correspondence_listeners.on_game_finished in events.listeners(events.GameFinished)
    assert rating_on_finish in events.listeners(events.GameFinished)
    assert correspondence_listeners.on_changes_committed in events.listeners(events.ChangesCommitted)
    assert tasks.bots_on_commit in events.listeners(events.ChangesCommitted)
    # The emails are owed before the game is rated: both in the move's transaction.
    finished = events.listeners(events.GameFinished)
    assert finished.index(correspondence_listeners.on_game_finished) < finished.index(rating_on_finish)


def test_an_unknown_event_type_cannot_be_subscribed():
    with pytest.raises(TypeError):
        events.subscribe(dict, print)


def test_a_start_a_move_and_a_win_publish_their_events_in_order(player: User, opponent: User, published):
    game = make_game(player, opponent)
    assert kinds(published) == ["DecisionsOwed", "GameStarted", "ChangesCommitted"]
    started = published[1]
    assert started.game.pk == game.pk and started.started_by_id == opponent.pk
    published.clear()

    mover = user_to_move(game)
    services.game_submit_move(game_id=game.pk, user=mover, move={"act": "add", "n": 3}, expected_seq=0)
    assert kinds(published) == ["MovesApplied", "DecisionsOwed", "ChangesCommitted"]
    applied, owed, committed = published
    assert applied.first_seq == 1 and applied.moves == [(game.to_act[0], {"act": "add", "n": 3})]
    assert [s.user_id for s in owed.seats] == [opponent.pk if mover == player else player.pk]
    assert committed.seq == 1 and committed.game_id == game.pk

    # Play to the target (10): the last move finishes the game.
    published.clear()
    game.refresh_from_db()
    while game.is_active:
        services.game_submit_move(
            game_id=game.pk, user=user_to_move(game), move={"act": "add", "n": 1}, expected_seq=game.last_seq
        )
        game.refresh_from_db()
    assert kinds(published)[-3:] == ["MovesApplied", "GameFinished", "ChangesCommitted"]
    finished = published[-2]
    assert finished.game.status == Game.Status.FINISHED and {s.rank for s in finished.seats} == {1, 2}


def test_a_listener_that_fails_inside_the_move_refuses_the_whole_move(player: User, opponent: User):
    game = make_game(player, opponent)

    def broken(event: events.MovesApplied) -> None:
        raise RuntimeError("a listener's row could not be written")

    events.subscribe(events.MovesApplied, broken)
    try:
        with pytest.raises(RuntimeError):
            services.game_submit_move(
                game_id=game.pk, user=user_to_move(game), move={"act": "add", "n": 1}, expected_seq=0
            )
    finally:
        events.unsubscribe(events.MovesApplied, broken)
    game.refresh_from_db()
    assert game.last_seq == 0 and not game.actions.exists()


def test_a_listener_that_fails_after_commit_keeps_the_move_and_the_other_listeners(player: User, opponent: User):
    game = make_game(player, opponent)
    mail.outbox.clear()

    def broken(event: events.ChangesCommitted) -> None:
        raise ConnectionError("the broker is away")

    # First, so the others run after it failed.
    others = events.listeners(events.ChangesCommitted)
    for listener in others:
        events.unsubscribe(events.ChangesCommitted, listener)
    for listener in [broken, *others]:
        events.subscribe(events.ChangesCommitted, listener)
    try:
        services.game_submit_move(game_id=game.pk, user=user_to_move(game), move={"act": "add", "n": 1}, expected_seq=0)
    finally:
        events.unsubscribe(events.ChangesCommitted, broken)
    game.refresh_from_db()
    assert game.last_seq == 1
    # correspondence's listener still ran: the next player's "your move" went out.
    assert [m.to for m in mail.outbox] == [[user_to_move(game).email]]
