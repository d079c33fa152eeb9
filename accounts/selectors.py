"""Read-only questions about users: verified email and blocks (a user's games: ``games.history``).

Nothing here writes. Other apps ask these instead of querying allauth's
or the Block table themselves (the notifier asks :func:`can_receive_email`
before sending anything but a verification message).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from allauth.account.models import EmailAddress
from django.db.models import QuerySet

from accounts.models import Block

if TYPE_CHECKING:
    from accounts.models import User


def has_verified_email(user: User) -> bool:
    """True if ``user`` has confirmed an email address (allauth's ``EmailAddress.verified``).

    Needed to play rated games and to receive any email but the
    verification itself.
    """
    if not user.is_authenticated or not user.email:
        return False
    return EmailAddress.objects.filter(user=user, email__iexact=user.email, verified=True).exists()


def can_receive_email(user: User) -> bool:
    """True if Herald may send ``user`` an email other than an address verification.

    Active, not deleted, with a verified primary address. Notification code
    must check this (with the user's own notification choices) before
    sending.
    """
    return user.is_active and user.deleted is None and has_verified_email(user)


def blocked_ids(user: User | None) -> set[int]:
    """Return the ids of the users ``user`` has blocked (empty for anonymous visitors)."""
    if user is None or not user.is_authenticated:
        return set()
    return set(Block.objects.filter(blocker=user).values_list("blocked_id", flat=True))


def is_blocked_by_any(user: User, others: Iterable[int]) -> bool:
    """True if any user whose id is in ``others`` has blocked ``user``. Never shown to ``user``."""
    ids = [i for i in others if i is not None and i != user.pk]
    return bool(ids) and Block.objects.filter(blocker_id__in=ids, blocked=user).exists()


def blockers_among(user: User, candidates: Iterable[int]) -> set[int]:
    """Return those of ``candidates`` (user ids) who have blocked ``user``."""
    return set(Block.objects.filter(blocker_id__in=list(candidates), blocked=user).values_list("blocker_id", flat=True))


def blocks_of(user: User) -> QuerySet[Block]:
    """The blocks ``user`` made, newest first, with the blocked users."""
    return Block.objects.filter(blocker=user).select_related("blocked").order_by("-created")


def blocked_subquery(user: User) -> QuerySet[Block, Mapping[str, object]]:
    """The ids ``user`` blocked, as a subquery (``exclude(user_id__in=...)`` adds no query)."""
    return Block.objects.filter(blocker=user).values("blocked_id")
