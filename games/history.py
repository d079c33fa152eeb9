"""A user's games as their profile shows them, and their record against the viewer.

Read-only. The profile page is ``accounts``' and ``accounts`` sits below
``games``, so the page draws these through template tags (``player_games``
here, ``ratings_tags.profile_finished_games`` in ratings), never by importing them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.db.models import Prefetch, Q, QuerySet

from games.models import Game, Seat

if TYPE_CHECKING:
    from accounts.models import User

#: Finished games per page of a profile.
PROFILE_FINISHED_PAGE = 20


def _games_with_seats(qs: QuerySet[Game]) -> QuerySet[Game]:
    return qs.prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("position")))


def _visible_to(viewer: User | None, owner: User) -> Q:
    """Games of ``owner``'s that ``viewer`` may see listed: public ones, or all for the owner and staff."""
    if viewer is not None and viewer.is_authenticated and (viewer.pk == owner.pk or viewer.is_staff):
        return Q()
    return Q(private=False)


def current_games(owner: User, viewer: User | None) -> QuerySet[Game]:
    """``owner``'s open, running and frozen (waiting on a moderator) games that ``viewer`` may see, newest first."""
    qs = Game.objects.filter(
        _visible_to(viewer, owner),
        seats__user=owner,
        status__in=[Game.Status.OPEN, Game.Status.ACTIVE, Game.Status.FROZEN],
    )
    # Rows are drawn by ``games_tags.game_rows``, which reads their seats (or reuses the drawn rows).
    return qs.defer("options", "seed").order_by("-started", "-created", "-pk")[:50]


def finished_games(owner: User, viewer: User | None) -> QuerySet[Game]:
    """``owner``'s finished games that ``viewer`` may see, the most recently finished first."""
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
