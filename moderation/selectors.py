"""Read-only queries about moderation: is a user banned or muted, has a notice waiting.

The answers are asked on every signed-in request (the middleware) and on
every move and chat line (the services), so they are cached per user;
``moderation.services`` forgets the cached answer after each commit that
changes it, and a time-limited ban or mute is cached no longer than it lasts.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from django.core.cache import cache
from django.db.models import Exists, OuterRef
from django.utils import timezone

from moderation.models import HiddenMessage, Notice, Restriction

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser
    from django.db.models import QuerySet
    from django.http import HttpRequest

    from accounts.models import User
    from games.models import ChatMessage

#: How long a user's moderation state may be cached at most (seconds).
STATE_CACHE_SECONDS = 300


@dataclass(frozen=True, slots=True)
class ModerationState:
    """What moderation means for one user right now.

    Attributes:
        banned: a ban is in force.
        banned_until: its end (UTC), or None while permanent (or not banned).
        muted: a mute (or a ban) is in force: no chat.
        notice: an unseen notice is waiting.
    """

    banned: bool = False
    banned_until: datetime | None = None
    muted: bool = False
    notice: bool = False


def _key(user_id: int) -> str:
    return f"herald:moderation:{user_id}"


def user_state(user: User | None) -> ModerationState:
    """Return ``user``'s :class:`ModerationState` (cached; one query on a miss)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return ModerationState()
    key = _key(user.pk)
    state = cache.get(key)
    if state is not None:
        return state
    now = timezone.now()
    active = list(Restriction.objects.active(now).filter(user_id=user.pk).values_list("kind", "end"))
    notice = Notice.objects.filter(user_id=user.pk, seen__isnull=True).exists()
    bans = [end for kind, end in active if kind == Restriction.Kind.BAN]
    mutes = [end for kind, end in active if kind == Restriction.Kind.MUTE]
    banned_until = None if (not bans or None in bans) else max(bans)
    state = ModerationState(banned=bool(bans), banned_until=banned_until, muted=bool(bans or mutes), notice=notice)
    # A restriction that ends must not stay cached past its end.
    ends = [end for _kind, end in active if end is not None]
    timeout = STATE_CACHE_SECONDS
    if ends:
        timeout = max(1, min(timeout, int((min(ends) - now).total_seconds()) + 1))
    cache.set(key, state, timeout)
    return state


def state_forget(user_id: int) -> None:
    """Drop the cached state of ``user_id`` (call after the change commits)."""
    cache.delete(_key(user_id))


def is_banned(user: User | None) -> bool:
    """True while a ban of ``user`` is in force."""
    return user_state(user).banned


def can_chat(user: User | None) -> bool:
    """True unless ``user`` is muted or banned."""
    return not user_state(user).muted


def restricts(user: User, action: str) -> bool:
    """Whether moderation stops ``user`` from ``action`` (``games.policy``'s question).

    A ban stops every action (``create``, ``join``, ``move``, ``chat``); a
    mute stops ``chat``. Registered by ``ModerationConfig.ready``.
    """
    if action == "chat":
        return not can_chat(user)
    return is_banned(user)


def request_state(request: HttpRequest) -> ModerationState:
    """The signed-in user's :class:`ModerationState` as this request's middleware read it.

    ``moderation_state`` middleware stores what it read on the request, so a
    page asking again (may this viewer chat?) costs no second cache read.
    Falls back to :func:`user_state` for requests that skipped the middleware.
    """
    state = getattr(request, "moderation_state", None)
    return state if state is not None else user_state(getattr(request, "user", None))


def banned_user_ids() -> list[int]:
    """Return the ids of every user under a ban now (for the forfeit sweep)."""
    return list(
        Restriction.objects.active().filter(kind=Restriction.Kind.BAN).values_list("user_id", flat=True).distinct()
    )


def with_hidden_flag(queryset: QuerySet[ChatMessage]) -> QuerySet[ChatMessage]:
    """Annotate chat messages with ``is_hidden`` (for moderators' views)."""
    return queryset.annotate(is_hidden=Exists(HiddenMessage.objects.filter(message=OuterRef("pk"))))


def is_moderator(user: User | AnonymousUser | None) -> bool:
    """True for staff who hold the moderation permissions (the Moderators group, or superusers)."""
    return bool(
        user is not None and user.is_authenticated and user.is_staff and user.has_perm("moderation.moderate_chat")
    )
