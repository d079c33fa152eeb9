"""Following players and the lobby's list of their games; kingdom bans. Only this module writes Follow and KingdomBans.

Following is private and one-way (the followed player is not told), and
blocking wins: a player cannot follow someone who blocked them or whom
they blocked, and the lobby leaves such players out even if a follow row
is older than the block.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import timedelta
from typing import TYPE_CHECKING

from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import Block, User
from games.models import Game
from matchmaking.limits import MAX_BANS, MatchError, ban_choices
from matchmaking.models import Follow, KingdomBans

if TYPE_CHECKING:
    from collections.abc import Iterable

#: Recent results of followed players the lobby lists: finished within this.
RESULTS_WINDOW = timedelta(days=7)
#: Rows in each of the lobby's two lists.
LIST_LIMIT = 10


def _blocked_either_way(a: int, b: int) -> bool:
    return Block.objects.filter(Q(blocker_id=a, blocked_id=b) | Q(blocker_id=b, blocked_id=a)).exists()


def follow(*, user: User, username: str) -> Follow:
    """``user`` follows the player ``username`` (idempotent).

    Raises:
        User.DoesNotExist: no such (active, undeleted) player, or one blocked either way (blocks are private).
        MatchError: following oneself ("follow_self", 422).
    """
    target = User.objects.get(username=username, is_active=True, deleted__isnull=True)
    if target.pk == user.pk:
        raise MatchError(_("You cannot follow yourself."), "follow_self")
    if _blocked_either_way(user.pk, target.pk):
        raise User.DoesNotExist
    with transaction.atomic():
        row, _created = Follow.objects.get_or_create(follower=user, followed=target)
    return row


def unfollow(*, user: User, username: str) -> bool:
    """Stop following ``username``; True if a follow was removed."""
    deleted, _detail = Follow.objects.filter(follower=user, followed__username=username).delete()
    return bool(deleted)


def is_following(user: User | None, other: User) -> bool:
    """True if ``user`` follows ``other``."""
    if user is None or not user.is_authenticated:
        return False
    return Follow.objects.filter(follower=user, followed=other).exists()


def followed_ids(user: User) -> QuerySet[Follow, Mapping[str, object]]:
    """The ids ``user`` follows, without anyone blocked either way, as a subquery."""
    return (
        Follow.objects.filter(follower=user)
        .exclude(followed__in=Block.objects.filter(blocker=user).values("blocked_id"))
        .exclude(followed__in=Block.objects.filter(blocked=user).values("blocker_id"))
        .values("followed_id")
    )


def followed_games(user: User) -> tuple[list[Game], list[Game]]:
    """(running games, recent results) of the players ``user`` follows: public games only, newest first."""
    ids = followed_ids(user)
    base = Game.objects.filter(private=False, seats__user__in=ids).distinct().prefetch_related("seats__user")
    running = list(base.filter(status=Game.Status.ACTIVE).order_by("-started")[:LIST_LIMIT])
    since = timezone.now() - RESULTS_WINDOW
    results = list(base.filter(status=Game.Status.FINISHED, finished__gte=since).order_by("-finished")[:LIST_LIMIT])
    return running, results


def bans_get(user: User) -> list[str]:
    """The options (kingdom cards) ``user`` banned from random set-ups."""
    row = KingdomBans.objects.filter(user=user).first()
    return list(row.cards) if row else []


def bans_set(*, user: User, cards: Iterable[str]) -> list[str]:
    """Replace ``user``'s kingdom bans.

    Raises:
        MatchError: more than ``MAX_BANS`` cards, or a name that no installed game lets a player ban
            (``matchmaking.limits.ban_choices``; "invalid_bans", 422).
    """
    chosen = sorted(set(cards))
    known = {value for value, _label in ban_choices()}
    unknown = [c for c in chosen if c not in known]
    if unknown:
        raise MatchError(_("Not a kingdom card: %(names)s.") % {"names": ", ".join(unknown)}, "invalid_bans")
    if len(chosen) > MAX_BANS:
        raise MatchError(_("Ban at most %(n)d cards.") % {"n": MAX_BANS}, "invalid_bans")
    KingdomBans.objects.update_or_create(user=user, defaults={"cards": chosen})
    return chosen
