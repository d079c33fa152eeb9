"""Vacations: a player's clocks stand still while they are away, up to 14 days a calendar year.

``games`` asks who is away through ``games.policy.away_until``;
:func:`vacation_ends` answers it (registered in ``CorrespondenceConfig.ready``).
Times are aware UTC datetimes.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from django.utils import timezone
from django.utils.translation import gettext as _

from correspondence.models import Vacation
from games.clocks import clocks_shift
from games.locking import retry_on_deadlock

if TYPE_CHECKING:
    from accounts.models import User

#: Vacation days each user may take per calendar year (UTC).
VACATION_DAYS_PER_YEAR = 14
#: The part of a started vacation day that is not charged.
VACATION_GRACE = timedelta(hours=1)


class VacationError(Exception):
    """A vacation the rules refuse; ``str(err)`` is for the user."""


def vacation_ends(user_ids: Iterable[int], now: datetime) -> dict[int, datetime]:
    """Return ``{user id: end of their vacation}`` for those of ``user_ids`` on vacation at ``now`` (UTC)."""
    ids = {u for u in user_ids if u is not None}
    if not ids:
        return {}
    out: dict[int, datetime] = {}
    for user_id, end in Vacation.objects.filter(user_id__in=ids, start__lte=now, end__gt=now).values_list(
        "user_id", "end"
    ):
        out[user_id] = max(end, out.get(user_id, end))
    return out


def vacation_active(user: User, now: datetime | None = None) -> Vacation | None:
    """Return ``user``'s vacation running at ``now`` (default: now), or None."""
    now = now or timezone.now()
    return Vacation.objects.filter(user=user, start__lte=now, end__gt=now).order_by("-end").first()


def vacation_days_used(user: User, year: int) -> int:
    """Days of vacation ``user`` took (or booked) that started in ``year`` (UTC).

    Each vacation counts in whole days, rounded up, except that the first
    ``VACATION_GRACE`` of a started day is free (coming back a few minutes
    after a day does not cost a second one).
    """
    days = 0
    for start, end in Vacation.objects.filter(user=user, start__year=year).values_list("start", "end"):
        days += max(1, math.ceil((end - start - VACATION_GRACE) / timedelta(days=1)))
    return days


def vacation_start(*, user: User, days: int) -> Vacation:
    """Start a vacation of ``days`` whole days now; ``user``'s clocks stand still meanwhile.

    Every running deadline of the user's is pushed back by the vacation's
    length; a clock that starts during the vacation starts at its end. The
    transaction is run again if PostgreSQL picks it as a deadlock's victim.

    Raises:
        VacationError: already on vacation, fewer than 1 day, or more days
            than are left this year (``VACATION_DAYS_PER_YEAR``).
    """
    now = timezone.now()
    if not isinstance(days, int) or days < 1:
        raise VacationError(_("A vacation lasts at least one day."))
    left = VACATION_DAYS_PER_YEAR - vacation_days_used(user, now.year)
    if days > left:
        raise VacationError(_("You have %(n)d vacation days left this year.") % {"n": max(left, 0)})

    def start() -> Vacation:
        if vacation_active(user, now):
            raise VacationError(_("You are already on vacation."))
        vacation = Vacation.objects.create(user=user, start=now, end=now + timedelta(days=days))
        clocks_shift(user.pk, vacation.end - now)
        return vacation

    # Retried on a deadlock: it locks each of the user's running games in turn.
    return retry_on_deadlock(start)


def vacation_end(*, user: User) -> Vacation | None:
    """End ``user``'s running vacation now; the unused days are given back.

    Returns:
        The shortened Vacation, or None if none was running.
    """
    now = timezone.now()

    def end() -> Vacation | None:
        vacation = vacation_active(user, now)
        if vacation is None:
            return None
        unused = vacation.end - now
        # The end must come after the start (a constraint); a microsecond is
        # enough. A whole second kept the vacation running on the very page
        # that ended it.
        vacation.end = max(now, vacation.start + timedelta(microseconds=1))
        vacation.save(update_fields=["end"])
        clocks_shift(user.pk, -unused)
        return vacation

    # Retried on a deadlock, as vacation_start.
    return retry_on_deadlock(end)
