"""What correspondence does when something happens in a game (``games.events``).

In the transaction (rows only, no I/O): owe the emails the event calls for
as outbox rows. After commit: queue the rows the change wrote. Subscribed
by ``CorrespondenceConfig.ready``, which also tells ``games`` who is on
vacation (``games.policy``).
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.signals import user_logged_out
from django.db.models.signals import post_save

from correspondence import outbox, push
from correspondence.sweep import sweep_on_request
from correspondence.tasks import outbox_enqueue
from correspondence.vacations import vacation_ends
from games import events, policy
from ops import numbers as ops_numbers


def on_game_started(event: events.GameStarted) -> None:
    """Owe "game started" to everyone seated but whoever started it.

    A game whose start is announced by another notice (a tournament's
    round email, ``event.announced_by``) still gets the rows, marked so
    that they are sent only to players who turned that notice off.
    """
    outbox.notify_game_started(game=event.game, except_user_id=event.started_by_id, covered_by=event.announced_by)


def on_decisions_owed(event: events.DecisionsOwed) -> None:
    """Owe "your move" to each person whose clock just started."""
    outbox.notify_your_move(game=event.game, seats=event.seats)


def on_clock_running_low(event: events.ClockRunningLow) -> None:
    """Owe "you are running out of time"."""
    outbox.notify_time_low(game=event.game, seat=event.seat)


def on_seat_forfeited(event: events.SeatForfeited) -> None:
    """Owe the other players "X ran out of time" (or resigned, or was forfeited)."""
    outbox.notify_timed_out(game=event.game, seat=event.seat, game_over=event.game_over, aborted=event.aborted)


def on_game_finished(event: events.GameFinished) -> None:
    """Owe every seated person "game over" with the result."""
    outbox.notify_game_over(game=event.game)


def on_game_cancelled(event: events.GameCancelled) -> None:
    """Owe the creator of an open game that expired a note that it was cancelled.

    A creator who cancels knows it; a moderator's abort is told by moderation itself.
    """
    if event.why == "expired":
        outbox.notify_cancelled(game=event.game)


def on_chat_posted(event: events.ChatPosted) -> None:
    """Owe chat emails to the players who asked for them and are away."""
    outbox.notify_chat(message=event.message)


def on_undo_asked(event: events.UndoAsked) -> None:
    """Owe each player who must answer a request to take moves back an "allow it?" email."""
    outbox.notify_undo_asked(game=event.game, request_id=event.request_id, seat=event.seat, voters=event.voters)


def on_players_invited(event: events.PlayersInvited) -> None:
    """Owe each invited player an "invited" notice (email, and push where they turned it on)."""
    outbox.notify_invited(game=event.game, user_ids=event.user_ids, by_id=event.by_id)


def on_changes_committed(event: events.ChangesCommitted) -> None:
    """After commit: queue a send task for each outbox row the change wrote."""
    outbox_enqueue(game_id=event.game_id, since=event.since)


def connect() -> None:
    """Subscribe every listener above, register the vacation source and the sweep from page requests,
    forget a browser's push subscription when its session signs out (``push.on_signed_out``), and every
    push subscription of an account deactivated or deleted (``push.on_user_saved``). Idempotent."""
    user_logged_out.connect(push.on_signed_out, dispatch_uid="correspondence-push-signed-out")
    post_save.connect(push.on_user_saved, sender=settings.AUTH_USER_MODEL, dispatch_uid="correspondence-push-closed")
    events.subscribe(events.GameStarted, on_game_started)
    events.subscribe(events.DecisionsOwed, on_decisions_owed)
    events.subscribe(events.ClockRunningLow, on_clock_running_low)
    events.subscribe(events.SeatForfeited, on_seat_forfeited)
    events.subscribe(events.GameFinished, on_game_finished)
    events.subscribe(events.GameCancelled, on_game_cancelled)
    events.subscribe(events.ChatPosted, on_chat_posted)
    events.subscribe(events.UndoAsked, on_undo_asked)
    events.subscribe(events.PlayersInvited, on_players_invited)
    events.subscribe(events.ChangesCommitted, on_changes_committed)
    policy.register_absence(vacation_ends)
    # Without a Celery beat, timeouts and the outbox are swept from the lobby's and the game page's requests.
    policy.register_request_work(sweep_on_request)
    ops_numbers.register(outbox.ops_numbers)
