"""Read-only questions about users: verified email, blocks, profiles and head-to-head.

Nothing here writes. Other apps ask these instead of querying allauth's
or the Block table themselves (the notifier asks :func:`can_receive_email`
before sending anything but a verification message).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from allauth.account.models import EmailAddress
from django.db.models import Prefetch, Q, QuerySet

from accounts.models import Block

if TYPE_CHECKING:
    from accounts.models import User
    from games.models import Game

PROFILE_FINISHED_PAGE = 20


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


def _games_with_seats(qs: QuerySet[Game]) -> QuerySet[Game]:
    from games.models import Seat

    return qs.prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("position")))


def _visible_to(viewer: User | None, owner: User) -> Q:
    """Games of ``owner``'s that ``viewer`` may see listed: public ones, or all for the owner and staff."""
    if viewer is not None and viewer.is_authenticated and (viewer.pk == owner.pk or viewer.is_staff):
        return Q()
    return Q(private=False)


def current_games(owner: User, viewer: User | None) -> QuerySet[Game]:
    """``owner``'s open and running games that ``viewer`` may see, most recent first."""
    from games.models import Game

    qs = Game.objects.filter(
        _visible_to(viewer, owner), seats__user=owner, status__in=[Game.Status.OPEN, Game.Status.ACTIVE]
    )
    # Rows are drawn by ``games_tags.game_rows``, which reads their seats (or reuses the drawn rows).
    return qs.defer("options", "seed").order_by("-started", "-created", "-pk")[:50]


def finished_games(owner: User, viewer: User | None) -> QuerySet[Game]:
    """``owner``'s finished games that ``viewer`` may see, the most recently finished first."""
    from games.models import Game

    qs = Game.objects.filter(_visible_to(viewer, owner), seats__user=owner, status=Game.Status.FINISHED)
    return _games_with_seats(qs.order_by("-finished", "-pk"))


@dataclass(frozen=True, slots=True)
class HeadToHead:
    """The viewer's record against another player in finished games they both sat in.

    ``won``: the viewer finished ahead; ``lost``: behind; ``drawn``: level.
    A forfeited seat counts as behind every seat that did not forfeit.
    """

    played: int
    won: int
    lost: int
    drawn: int


def head_to_head(viewer: User, other: User) -> HeadToHead:
    """Return ``viewer``'s record against ``other`` (one query)."""
    from games.models import Game, Seat

    seats = Seat.objects.filter(
        game__status=Game.Status.FINISHED,
        game__seats__user=other,
        user__in=[viewer, other],
    ).values_list("game_id", "user_id", "rank", "forfeited")
    by_game: dict[int, dict[int, tuple[bool, int]]] = {}
    for game_id, user_id, rank, forfeited in seats.distinct():
        # Sort key: forfeits after everyone, then the engine's rank.
        by_game.setdefault(game_id, {})[user_id] = (forfeited, rank if rank is not None else 99)
    won = lost = drawn = 0
    for pair in by_game.values():
        if viewer.pk not in pair or other.pk not in pair:
            continue
        mine, theirs = pair[viewer.pk], pair[other.pk]
        if mine < theirs:
            won += 1
        elif mine > theirs:
            lost += 1
        else:
            drawn += 1
    return HeadToHead(played=won + lost + drawn, won=won, lost=lost, drawn=drawn)


def blocked_subquery(user: User) -> QuerySet[Block]:
    """The ids ``user`` blocked, as a subquery (``exclude(user_id__in=...)`` adds no query)."""
    return Block.objects.filter(blocker=user).values("blocked_id")
