"""What tournaments do when something happens in a game (``games.events``).

In the game's transaction: record a finished (or cancelled) tournament
game's result at its table. After commit: queue the tournament's advance
(the next round, or the end). Subscribed by ``TournamentsConfig.ready``;
``games`` never imports this app.
"""

from __future__ import annotations

from functools import partial

from django.db import transaction

from correspondence.emails import register_content
from games import events, live, policy
from ops.after_response import after_response
from tournaments import notify, services, tasks


def _advance_later(tournament_id: int) -> None:
    """After commit, and in a request after the answer was sent (a round may start many games), queue the advance."""
    transaction.on_commit(partial(after_response, partial(tasks.queue_advance, tournament_id)))
    # The table's result changed the standings: open pages of the tournament fetch them again.
    live.notify_on_commit(live.tournament_topic(tournament_id))


def on_game_finished(event: events.GameFinished) -> None:
    """Record the result at the game's table, if it is a tournament game; advance after commit."""
    tournament_id = services.result_record(event.game, event.seats)
    if tournament_id is not None:
        _advance_later(tournament_id)


def on_game_cancelled(event: events.GameCancelled) -> None:
    """A moderator aborted a tournament game: its table scores nothing (a moderator may adjust it)."""
    tournament_id = services.result_record(event.game)
    if tournament_id is not None:
        _advance_later(tournament_id)


def connect() -> None:
    """Subscribe the listeners above, word the tournament emails, and tell ``games`` that a table's
    game needs its result even at move 0 (``games.policy.result_required``). Idempotent."""
    policy.register_result_required(services.is_tournament_game)
    events.subscribe(events.GameFinished, on_game_finished)
    events.subscribe(events.GameCancelled, on_game_cancelled)
    register_content(notify.KIND, notify.render)
