"""Correspondence's public service functions: the outbox, the emails, vacations and the sweep.

Other apps and the views call these names; the work is split by job:

* ``correspondence.outbox``: which emails are owed (rows written in the
  games' transactions), sending each at most once, the daily digest;
* ``correspondence.emails``: each email's words, in the recipient's language and zone;
* ``correspondence.preferences``: the user's email settings and the unsubscribe token;
* ``correspondence.vacations``: vacations, which stop a player's clocks;
* ``correspondence.sweep``: the periodic sweep;
* ``correspondence.tasks``: the Celery tasks, and queueing the outbox;
* ``correspondence.listeners``: what happens on each of the games' events.
"""

from __future__ import annotations

from correspondence.emails import content_for, message_for
from correspondence.outbox import (
    digest_send,
    digests_send_all,
    notification_send,
    notify_chat,
    notify_game_over,
    notify_game_started,
    notify_timed_out,
    notify_your_move,
)
from correspondence.preferences import settings_for, settings_update, unsubscribe, unsubscribe_token
from correspondence.sweep import sweep, sweep_on_request
from correspondence.tasks import outbox_enqueue
from correspondence.vacations import (
    VACATION_DAYS_PER_YEAR,
    VacationError,
    vacation_active,
    vacation_days_used,
    vacation_end,
    vacation_start,
)

__all__ = [
    "VACATION_DAYS_PER_YEAR",
    "VacationError",
    "content_for",
    "digest_send",
    "digests_send_all",
    "message_for",
    "notification_send",
    "notify_chat",
    "notify_game_over",
    "notify_game_started",
    "notify_timed_out",
    "notify_your_move",
    "outbox_enqueue",
    "settings_for",
    "settings_update",
    "sweep",
    "sweep_on_request",
    "unsubscribe",
    "unsubscribe_token",
    "vacation_active",
    "vacation_days_used",
    "vacation_end",
    "vacation_start",
]
