"""The numbers operators ask for, read-only, for the staff page ``/ops/stats/``.

``ops`` sits below the apps whose numbers it shows, so it imports none of
them: each app registers a function that takes its own numbers
(``ops.numbers.register``, in its ``AppConfig.ready``), and the page shows what they
answer beside ops' own (the Celery heartbeat). ``games`` answers for games,
moves, overdue decisions and frozen games; ``correspondence`` for the outbox.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone

from ops import numbers as sources
from ops.health import heartbeat_age


@dataclass(frozen=True, slots=True)
class SiteStats:
    """A snapshot of the site's state: ``now`` (UTC), the Celery heartbeat's age, and the apps' numbers.

    The apps' numbers read as attributes (``stats.games_running``), as the
    page's template reads them. Those of the site's apps:

    * ``games``: games_running, games_open; moves_last_hour, moves_last_day
      (Actions created in the last hour / 24 hours); overdue_decisions (seats
      of running games whose deadline has passed: the sweep should time them
      out within a minute); frozen_games (ids of games stopped because their log
      no longer replays, oldest first: each needs a moderator).
    * ``correspondence``: unsent_notifications (outbox rows pending or being
      sent, not those held for the digest), oldest_unsent_age (or None),
      failed_notifications (rows the sender gave up on).

    Attributes:
        now: when the numbers were taken.
        heartbeat_age: since the Celery heartbeat was last stamped, or None (never).
        numbers: name -> value, from every registered source.
    """

    now: datetime
    heartbeat_age: timedelta | None
    numbers: dict[str, Any]

    def __getattr__(self, name: str) -> Any:
        try:
            return object.__getattribute__(self, "numbers")[name]
        except KeyError:
            raise AttributeError(name) from None


def site_stats() -> SiteStats:
    """Take the numbers: ops' own, then each registered source's (a handful of aggregate queries).

    Raises:
        ValueError: two sources answered the same name.
    """
    now = timezone.now()
    numbers: dict[str, Any] = {}
    for source in sources.sources():
        answer = source(now)
        if clash := numbers.keys() & answer.keys():
            raise ValueError(f"two sources of ops numbers answer {sorted(clash)}")
        numbers.update(answer)
    return SiteStats(now=now, heartbeat_age=heartbeat_age(), numbers=numbers)
