"""The numbers operators ask for, read-only, for the staff page ``/ops/stats/``."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import Count, Min, Q
from django.utils import timezone

from correspondence.models import Notification
from games.models import Action, Game, Seat
from ops.health import heartbeat_age


@dataclass(frozen=True, slots=True)
class SiteStats:
    """A snapshot of the site's state.

    Attributes:
        games_running: games in progress.
        games_open: games waiting for players.
        moves_last_hour, moves_last_day: Actions created in the last hour / 24 hours.
        unsent_notifications: outbox rows still pending or being sent (not counting those held for the digest).
        oldest_unsent_age: age of the oldest of those, or None.
        failed_notifications: outbox rows the sender gave up on.
        overdue_decisions: seats of running games whose deadline has passed
            (the sweep should time them out within a minute).
        heartbeat_age: since the Celery heartbeat was last stamped, or None (never).
        frozen_games: ids of games stopped because their log no longer replays
            (``games.lifecycle.game_freeze``), oldest first: each needs a moderator.
        now: when the numbers were taken (UTC).
    """

    games_running: int
    games_open: int
    moves_last_hour: int
    moves_last_day: int
    unsent_notifications: int
    oldest_unsent_age: timedelta | None
    failed_notifications: int
    overdue_decisions: int
    heartbeat_age: timedelta | None
    now: datetime
    frozen_games: list[int]


def site_stats() -> SiteStats:
    """Take the numbers; a handful of aggregate queries, each served by an index except the move counts."""
    now = timezone.now()
    games = Game.objects.aggregate(
        running=Count("pk", filter=Q(status=Game.Status.ACTIVE)),
        open=Count("pk", filter=Q(status=Game.Status.OPEN)),
    )
    moves = Action.objects.filter(created__gte=now - timedelta(days=1)).aggregate(
        day=Count("pk"), hour=Count("pk", filter=Q(created__gte=now - timedelta(hours=1)))
    )
    unsent = Notification.objects.filter(
        status__in=[Notification.Status.PENDING, Notification.Status.SENDING]
    ).aggregate(n=Count("pk"), oldest=Min("created"))
    failed = Notification.objects.filter(status=Notification.Status.FAILED).count()
    overdue = Seat.objects.filter(deadline__lt=now, game__status=Game.Status.ACTIVE).count()
    return SiteStats(
        games_running=games["running"],
        games_open=games["open"],
        moves_last_hour=moves["hour"],
        moves_last_day=moves["day"],
        unsent_notifications=unsent["n"],
        oldest_unsent_age=(now - unsent["oldest"]) if unsent["oldest"] else None,
        failed_notifications=failed,
        overdue_decisions=overdue,
        heartbeat_age=heartbeat_age(),
        now=now,
        frozen_games=list(
            Game.objects.filter(status=Game.Status.FROZEN).order_by("pk").values_list("pk", flat=True)[:100]
        ),
    )
