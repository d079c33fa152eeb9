"""The periodic sweep: everything that is due, whatever was lost on the way.

Beat runs :func:`sweep` every minute (``correspondence.tasks.sweep``); without
a broker, :func:`sweep_on_request` runs it from page requests. It applies
the timeout rule, owes the 80% warnings, cancels open games nobody joined,
and sends outbox rows left pending (the broker was down, a worker died):
the database, not the queue, says what is owed.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from functools import partial

from django.conf import settings
from django.core.cache import cache
from django.db.models import Q
from django.utils import timezone

from correspondence import outbox
from correspondence.models import Notification
from games.autoplay import game_timeout
from games.clocks import clock_warn
from games.grace import forced_moves_due
from games.lifecycle import OPEN_GAME_LIFETIME, game_expire
from games.locking import retry_on_deadlock
from games.models import Game, Seat
from games.tasks import bot_moves
from moderation.services import banned_seats_forfeit
from ops import queue

log = logging.getLogger(__name__)

#: The sweep leaves rows younger than this to the task queued after commit (``HERALD_OUTBOX_GRACE``, 60 s).
OUTBOX_GRACE = timedelta(seconds=settings.HERALD_OUTBOX_GRACE)
#: Seconds between two sweeps run from web requests (no broker).
REQUEST_SWEEP_INTERVAL = 30


def sweep(now: datetime | None = None) -> dict[str, int]:
    """Do everything that is due; safe to run as often as wanted, and twice at once.

    In order: make the forced moves whose grace is over (``games.grace``),
    apply the timeout rule to every decision past its deadline
    (an indexed query on ``Seat.deadline``), owe the 80% warnings
    (``Seat.warn_at``), cancel open games older than 14 days, and send the
    outbox rows left pending (the broker was down, a worker died) or
    claimed by a sender that died mid-send (older than
    ``outbox.CLAIM_TIMEOUT``). Each game's step is retried if PostgreSQL
    picks it as a deadlock's victim (``games.locking.retry_on_deadlock``).

    Returns:
        Counts per step, for logs and tests.
    """
    now = now or timezone.now()
    counts = {"timeouts": 0, "warnings": 0, "expired": 0, "forced": 0, "sent": 0, "failed": 0}
    # End turns whose grace ran out (games.grace): their task was lost, or there is no broker.
    counts["forced"] = forced_moves_due(now)
    due = Seat.objects.filter(deadline__lte=now, game__status=Game.Status.ACTIVE).order_by("deadline")
    for game_id, position in list(due.values_list("game_id", "position")[: outbox.SWEEP_BATCH]):
        try:
            # Retried on a deadlock: the sweep's locks (a game, then its seats' outbox rows
            # and ratings) are not taken in a request's order. Each service is idempotent and
            # commits by itself (the bots' loop runs after its commits), so no outer transaction.
            timed_out = retry_on_deadlock(partial(game_timeout, game_id=game_id, position=position), atomic=False)
            counts["timeouts"] += timed_out is not None
            if timed_out == "bot":
                # Its bot worker is behind or down: queue the moves again on the bots' queue, never think
                # here, beside mail and clocks (docs/bots.md).
                queue.enqueue(bot_moves, game_id)
        except Exception:  # one broken game must not stop the others' clocks
            log.exception("timeout of game %s seat %s failed", game_id, position)

    warn = Seat.objects.filter(warn_at__lte=now, game__status=Game.Status.ACTIVE)
    for seat_id in list(warn.values_list("pk", flat=True)[: outbox.SWEEP_BATCH]):
        try:
            counts["warnings"] += retry_on_deadlock(partial(clock_warn, seat_id=seat_id, now=now), atomic=False)
        except Exception:  # a busy game (LockTimeout) is warned by the next sweep; the others now
            log.warning("warning of seat %s failed; the next sweep tries again", seat_id, exc_info=True)

    stale = Game.objects.filter(status=Game.Status.OPEN, created__lte=now - OPEN_GAME_LIFETIME)
    for game_id in list(stale.values_list("pk", flat=True)[: outbox.SWEEP_BATCH]):
        try:
            counts["expired"] += retry_on_deadlock(partial(game_expire, game_id=game_id), atomic=False)
        except Exception:
            log.warning("expiry of game %s failed; the next sweep tries again", game_id, exc_info=True)

    Notification.objects.filter(status=Notification.Status.PENDING, attempts__gte=outbox.MAX_ATTEMPTS).update(
        status=Notification.Status.FAILED
    )
    # Pending rows the task queued after commit should have sent, and claims left by a
    # sender that died mid-send (notification_send takes those over).
    left = Notification.objects.filter(
        Q(status=Notification.Status.PENDING, created__lte=now - OUTBOX_GRACE)
        | Q(status=Notification.Status.DEFERRED)  # a "your move" whose player had the game open
        | Q(status=Notification.Status.SENDING, claimed_at__lt=now - outbox.CLAIM_TIMEOUT)
    ).order_by("created")
    for pk in list(left.values_list("pk", flat=True)[: outbox.SWEEP_BATCH]):
        try:
            counts["sent"] += outbox.notification_send(notification_id=pk)
        except Exception:
            counts["failed"] += 1
            log.warning("notification %s could not be sent yet", pk, exc_info=True)
    if any(counts.values()):
        log.info("sweep: %s", counts)
    return counts


def sweep_on_request() -> None:
    """Run :func:`sweep` from a web request when there is no Celery beat (no broker).

    Only when ``settings.HERALD_SWEEP_ON_REQUEST`` is on (``make run``
    without Redis), at most once per ``REQUEST_SWEEP_INTERVAL`` seconds per
    cache. Never raises: the page matters more.
    """
    if not getattr(settings, "HERALD_SWEEP_ON_REQUEST", False):
        return
    if not cache.add("herald:request-sweep", 1, REQUEST_SWEEP_INTERVAL):
        return
    try:
        sweep()
        # Without beat, the moderators' forfeit of banned players' seats runs here too.
        banned_seats_forfeit()
    except Exception:
        log.exception("sweep from a request failed")
