"""Seeks: posting, answering, cancelling, expiring. With ``matchmaking.matcher``, the only code that writes Seek rows.

Every function is keyword-only, runs in its own transaction and raises
:class:`MatchError` (``str(err)`` is a sentence for the player) or one of
``games.services``' errors. Posting a seek runs the matcher at once
(``matchmaking.matcher.matcher_run``, re-exported here), so a seek may be
taken straight away.

Limits (``matchmaking.limits``, ``docs/matchmaking.md``): at most
``MAX_OPEN_SEEKS`` open seeks per player; running correspondence games
capped by ``limits.running_cap``.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from functools import partial

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import Block, User
from accounts.selectors import has_verified_email
from correspondence import outbox
from correspondence.models import Notification
from correspondence.tasks import outbox_enqueue
from games import kinds, policy, services
from games.bots import timeout_bot
from games.engine.registry import get_engine
from games.models import Game
from matchmaking.limits import (
    DEFAULT_LIFETIME,
    DEFAULT_WINDOW,
    MAX_BANS,
    MAX_OPEN_SEEKS,
    QUICK_TIME_PER_MOVE,
    SEEK_LIFETIMES,
    MatchError,
    check_capacity,
    options_for,
    rating_of,
)
from matchmaking.matcher import matcher_run
from matchmaking.models import Seek

__all__ = [
    "DEFAULT_LIFETIME",
    "DEFAULT_WINDOW",
    "MAX_BANS",
    "MAX_OPEN_SEEKS",
    "QUICK_TIME_PER_MOVE",
    "SEEK_LIFETIMES",
    "MatchError",
    "matcher_run",
    "open_seeks",
    "quick_pair",
    "rating_of",
    "seek_accept",
    "seek_cancel",
    "seek_create",
    "seeks_expire",
]

log = logging.getLogger(__name__)


def seek_create(
    *,
    user: User,
    kind: str,
    players_min: int = 2,
    players_max: int = 2,
    rated: bool = False,
    time_per_move: timedelta = QUICK_TIME_PER_MOVE,
    clock: str = Game.Clock.MOVE,
    increment: timedelta = timedelta(0),
    rating_low: int | None = None,
    rating_high: int | None = None,
    lifetime: timedelta = DEFAULT_LIFETIME,
    fill_with_bots: bool = False,
    match_now: bool = True,
) -> Seek:
    """Post a seek, then run the matcher at once (unless ``match_now`` is False), so it may be taken straight away.

    Args:
        user: the player seeking.
        kind: the game (an installed one: ``games.kinds``).
        players_min, players_max: the table sizes accepted (2-4).
        rated: rated or casual.
        time_per_move, clock, increment: the time control (one of ``games.services.TIME_CONTROLS``).
        rating_low, rating_high: the opponents' ratings accepted; both None: ``DEFAULT_WINDOW``
            either side of the player's own rating; one None: no bound on that side.
        lifetime: how long it waits (one of ``SEEK_LIFETIMES``).
        fill_with_bots: casual only: when it lapses, start a game with bots instead of a notice.

    Returns:
        The Seek, refreshed: ``status`` is ``matched`` and ``game`` set if the matcher seated it now.

    Raises:
        MatchError: bad options, a rated seek without a verified email or with bots, a suspended
            account, ``MAX_OPEN_SEEKS`` already open, the running-games cap reached.
    """
    try:
        engine = get_engine(kind)
    except (KeyError, ImportError):
        raise MatchError(_("Unknown game: %(kind)s.") % {"kind": kind}, "invalid_options") from None
    if not (engine.min_players <= players_min <= players_max <= engine.max_players):
        raise MatchError(
            _("This game is for %(min)d to %(max)d players.") % {"min": engine.min_players, "max": engine.max_players},
            "invalid_options",
        )
    if time_per_move not in services.TIME_CONTROLS or clock not in Game.Clock.values or increment < timedelta(0):
        raise MatchError(_("Unknown time control."), "invalid_options")
    if lifetime not in SEEK_LIFETIMES:
        raise MatchError(_("Unknown waiting time."), "invalid_options")
    if rated and fill_with_bots:
        raise MatchError(_("Games with bots cannot be rated."), "invalid_options")
    if rating_low is not None and rating_high is not None and rating_low > rating_high:
        raise MatchError(_("The lowest rating must not be above the highest."), "invalid_options")
    if rated and not has_verified_email(user):
        raise MatchError(_("Verify your email address before playing rated games."), "email_unverified", 403)
    if policy.is_restricted(user, "create"):
        raise MatchError(_("Your account is suspended."), "account_suspended", 403)
    now = timezone.now()
    if rating_low is None and rating_high is None:
        own = rating_of(user.pk, kind, now)
        rating_low, rating_high = own - DEFAULT_WINDOW, own + DEFAULT_WINDOW
    with transaction.atomic():
        # Serialise one player's posts (a double click): the count below then sees the first.
        User.objects.select_for_update().filter(pk=user.pk).first()
        open_seeks = Seek.objects.filter(user=user, status=Seek.Status.OPEN).count()
        if open_seeks >= MAX_OPEN_SEEKS:
            raise MatchError(
                _("You may have at most %(n)d seeks open at once.") % {"n": MAX_OPEN_SEEKS}, "too_many_seeks", 409
            )
        check_capacity(user, extra=open_seeks)
        seek = Seek.objects.create(
            user=user,
            kind=kind,
            players_min=players_min,
            players_max=players_max,
            rated=rated,
            clock=clock,
            time_per_move=time_per_move,
            increment=increment if clock == Game.Clock.FISCHER else timedelta(0),
            rating_low=rating_low,
            rating_high=rating_high,
            created=now,
            expires=now + lifetime,
            fill_with_bots=fill_with_bots,
        )
    if match_now:
        matcher_run()
        seek.refresh_from_db()
    return seek


def quick_pair(*, user: User, kind: str | None = None, rated: bool = True, players: int = 2) -> Seek:
    """The lobby's one-button pairing ("Play a rated ... game"): join a compatible seek, or post one that waits (a
    day per move, a day). ``kind`` None: the first of the installed games (``games.kinds``).

    An open seek of the user's with the same options is reused (a second
    press is not a second seek). The matcher runs at once: if a compatible
    seek waits, the game starts now and the returned seek has its ``game``.

    Raises:
        MatchError: as :func:`seek_create`.
    """
    kind = kind or kinds.names()[0]
    same = Seek.objects.filter(
        user=user,
        status=Seek.Status.OPEN,
        kind=kind,
        rated=rated,
        players_min=players,
        players_max=players,
        time_per_move=QUICK_TIME_PER_MOVE,
        clock=Game.Clock.MOVE,
    ).first()
    if same is not None:
        matcher_run()
        same.refresh_from_db()
        return same
    return seek_create(user=user, kind=kind, players_min=players, players_max=players, rated=rated)


def seek_accept(*, seek_id: int, user: User) -> Seek:
    """Answer a seek in the lobby: post a seek of ``user``'s with the same game, sizes, rating and time control.

    The matcher runs at once and seats the two together when its rules allow
    (the listed seek's range, blocks; usually at once, since the listed seek
    has waited); otherwise the new seek waits like any other.

    Raises:
        Seek.DoesNotExist: no such open seek, or one of a player who blocked ``user`` (or whom they blocked).
        MatchError: as :func:`seek_create`; the user's own seek ("own_seek", 409).
    """
    seek = Seek.objects.get(pk=seek_id, status=Seek.Status.OPEN)
    if Block.objects.filter(Q(blocker=seek.user_id, blocked=user) | Q(blocker=user, blocked=seek.user_id)).exists():
        raise Seek.DoesNotExist  # blocks are private: as if it were not there
    if seek.user_id == user.pk:
        raise MatchError(_("This is your own seek."), "own_seek", 409)
    now = timezone.now()
    own, theirs = rating_of(user.pk, seek.kind, now), rating_of(seek.user_id, seek.kind, now)
    return seek_create(
        user=user,
        kind=seek.kind,
        players_min=seek.players_min,
        players_max=seek.players_max,
        rated=seek.rated,
        time_per_move=seek.time_per_move,
        clock=seek.clock,
        increment=seek.increment,
        # A range around the accepting player that reaches the listed seek's player.
        rating_low=min(own, theirs) - DEFAULT_WINDOW,
        rating_high=max(own, theirs) + DEFAULT_WINDOW,
    )


def seek_cancel(*, seek_id: int, user: User) -> Seek:
    """Withdraw ``user``'s open seek.

    Raises:
        Seek.DoesNotExist: no such seek of the user's.
        MatchError: it is no longer open (matched, expired...) ("seek_not_open", 409).
    """
    with transaction.atomic():
        seek = Seek.objects.select_for_update().get(pk=seek_id, user=user)
        if not seek.is_open:
            raise MatchError(_("This seek is no longer open."), "seek_not_open", 409)
        seek.status = Seek.Status.CANCELLED
        seek.ended = timezone.now()
        seek.save(update_fields=["status", "ended"])
    return seek


# ---------------------------------------------------------------------------
# Expiry


def seeks_expire(*, now: datetime | None = None) -> int:
    """End every open seek past its time: a notice (email, push), or a game with bots for a casual seek that asked.

    Each seek in its own transaction, its row locked (a matcher run that
    seated it first wins). The notice is an outbox row of kind
    ``seek_expired`` (no game; its seq is the seek's id), sent after commit
    like every other. Returns the seeks ended.
    """
    now = now or timezone.now()
    ended = 0
    due = Seek.objects.filter(status=Seek.Status.OPEN, expires__lte=now).order_by("expires")
    for seek_id in list(due.values_list("pk", flat=True)[:200]):
        since = timezone.now()
        try:
            with transaction.atomic():
                seek = Seek.objects.select_for_update().select_related("user").filter(pk=seek_id).first()
                if seek is None or not seek.is_open or seek.expires > now:
                    continue
                seek.ended = now
                if seek.fill_with_bots and not seek.rated:
                    seek.game = _fill_with_bots(seek)
                    seek.status = Seek.Status.FILLED
                else:
                    seek.status = Seek.Status.EXPIRED
                    outbox.notify_other(
                        kind=Notification.Kind.SEEK_EXPIRED,
                        users=[seek.user_id],
                        game=None,
                        seq=seek.pk,
                        data={"seek": seek.pk, "kind": seek.kind},
                    )
                    transaction.on_commit(partial(outbox_enqueue, since=since))
                seek.save(update_fields=["status", "game", "ended"])
                ended += 1
        except Exception:  # one broken seek must not stop the others; the next tick retries it
            log.exception("expiry of seek %s failed", seek_id)
    return ended


def _fill_with_bots(seek: Seek) -> Game:
    """Start ``seek``'s casual game at its largest size with bots in the empty seats.

    They play at the level the site sets for a bot standing in for a person (``settings.HERALD_TIMEOUT_BOT_LEVEL``,
    ``games.bots.timeout_bot``: docs/bots.md), not the game's first and weakest bot.
    """
    engine = get_engine(seek.kind)
    bot = timeout_bot(engine)
    return services.game_create(
        creator=seek.user,
        kind=seek.kind,
        options=options_for(seek.kind, [seek.user_id]),
        players=seek.players_max,
        rated=False,
        private=False,
        time_per_move=seek.time_per_move,
        bots=[bot] * (seek.players_max - 1),
        clock=seek.clock,
        increment=seek.increment,
    )


def open_seeks(viewer: User | None) -> list[Seek]:
    """The open seeks the lobby lists, newest first, without those of players blocked either way with the viewer."""
    qs = Seek.objects.filter(
        status=Seek.Status.OPEN, expires__gt=timezone.now(), user__is_active=True, user__deleted__isnull=True
    ).select_related("user")
    if viewer is not None:
        qs = qs.exclude(user__in=Block.objects.filter(blocked=viewer).values("blocker_id")).exclude(
            user__in=Block.objects.filter(blocker=viewer).values("blocked_id")
        )
    return list(qs.order_by("-created")[:50])
