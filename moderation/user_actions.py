"""Moderators' actions on users and chat: warn, mute, ban and lift; hide a message; forfeit banned players' seats."""

from __future__ import annotations

import logging
from datetime import UTC, datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games import live
from games.models import ChatMessage, Game, Seat
from moderation.game_actions import seat_forfeit
from moderation.models import HiddenMessage, Notice, Restriction
from moderation.selectors import banned_user_ids
from moderation.trail import PERM_CHAT, PERM_USERS, Kind, ModerationError, forget, reason_line, record, require, tell

log = logging.getLogger(__name__)


# ---------------------------------------------------------------------------
# Users


def _restrict(moderator: User, user: User, kind: str, until: datetime | None, reason: str) -> Restriction:
    if until is not None and until <= timezone.now():
        raise ModerationError(_("The end must be in the future."))
    if user.pk == moderator.pk:
        raise ModerationError(_("You cannot restrict yourself."))
    return Restriction.objects.create(user=user, kind=kind, end=until, reason=reason, moderator=moderator)


def user_ban(*, moderator: User, user: User, reason: str, until: datetime | None = None) -> Restriction:
    """Ban ``user``, for good (``until`` None) or until a time.

    A banned user cannot sign in, move or chat; their seats in running
    games forfeit on the next sweep (``banned_seats_forfeit``).
    """
    require(moderator, PERM_USERS)
    with transaction.atomic():
        row = _restrict(moderator, user, Restriction.Kind.BAN, until, reason)
        record(
            moderator=moderator,
            action=Kind.USER_BAN,
            reason=reason,
            user=user,
            data={"until": until.isoformat() if until else None},
        )

        def text() -> str:
            if until is None:
                line = _("Your Herald account has been suspended.")
            else:
                line = _("Your Herald account has been suspended until %(when)s (UTC).") % {
                    "when": until.astimezone(UTC).strftime("%Y-%m-%d %H:%M")
                }
            return " ".join(filter(None, [line, reason_line(reason)]))

        tell([user], text)
        forget(user.pk)
        # A long poll of theirs waiting on the live hub ends now, with the ban's 403 (api.stream.read).
        live.notify_on_commit(live.events_topic(user.pk))
    return row


def user_mute(*, moderator: User, user: User, reason: str, until: datetime | None = None) -> Restriction:
    """Stop ``user`` from chatting, for good or until a time."""
    require(moderator, PERM_USERS)
    with transaction.atomic():
        row = _restrict(moderator, user, Restriction.Kind.MUTE, until, reason)
        record(
            moderator=moderator,
            action=Kind.USER_MUTE,
            reason=reason,
            user=user,
            data={"until": until.isoformat() if until else None},
        )
        tell(
            [user],
            lambda: " ".join(
                filter(None, [_("A moderator has stopped you from chatting on Herald."), reason_line(reason)])
            ),
        )
        forget(user.pk)
    return row


def _lift(moderator: User, user: User, kind: str, action: str, reason: str) -> int:
    require(moderator, PERM_USERS)
    with transaction.atomic():
        lifted = Restriction.objects.active().filter(user=user, kind=kind).update(lifted=timezone.now())
        if not lifted:
            raise ModerationError(_("Nothing to lift."))
        record(moderator=moderator, action=action, reason=reason, user=user)
        forget(user.pk)
    return lifted


def user_unban(*, moderator: User, user: User, reason: str = "") -> int:
    """Lift every ban of ``user`` in force; return how many."""
    return _lift(moderator, user, Restriction.Kind.BAN, Kind.USER_UNBAN, reason)


def user_unmute(*, moderator: User, user: User, reason: str = "") -> int:
    """Lift every mute of ``user`` in force; return how many."""
    return _lift(moderator, user, Restriction.Kind.MUTE, Kind.USER_UNMUTE, reason)


def user_warn(*, moderator: User, user: User, reason: str) -> Notice:
    """Warn ``user``: they see the warning on their next visit (and by email)."""
    require(moderator, PERM_USERS)
    if not reason.strip():
        raise ModerationError(_("Write the warning."))
    with transaction.atomic():
        record(moderator=moderator, action=Kind.USER_WARN, reason=reason, user=user)
        tell([user], lambda: _("A warning from the Herald moderators: %(text)s") % {"text": reason.strip()})
    return Notice.objects.filter(user=user).latest("pk")


def chat_hide(*, moderator: User, message_id: int, reason: str) -> HiddenMessage:
    """Hide a chat message from everyone but moderators; it is kept for the record.

    Raises:
        ModerationError: already hidden.
    """
    require(moderator, PERM_CHAT)
    with transaction.atomic():
        message = ChatMessage.objects.select_related("game").get(pk=message_id)
        hidden, created = HiddenMessage.objects.get_or_create(
            message=message, defaults={"moderator": moderator, "reason": reason}
        )
        if not created:
            raise ModerationError(_("This message is already hidden."))
        record(
            moderator=moderator,
            action=Kind.CHAT_HIDE,
            reason=reason,
            user=message.user_id,
            game=message.game,
            message=message,
        )
        tell(
            [message.user_id],
            lambda: " ".join(
                filter(
                    None,
                    [
                        _("A moderator hid one of your chat messages in game #%(id)s.") % {"id": message.game_id},
                        reason_line(reason),
                    ],
                )
            ),
            email=False,
        )
    return hidden


def banned_seats_forfeit() -> int:
    """Forfeit every seat a banned user still holds in a running game (the periodic sweep).

    Each seat in its own transaction, so one broken game does not stop the
    others. Returns the number of seats forfeited.
    """
    done = 0
    for user_id in banned_user_ids():
        seats = Seat.objects.filter(user_id=user_id, forfeited=False, game__status=Game.Status.ACTIVE)
        for game_id, position in list(seats.values_list("game_id", "position")):
            try:
                seat_forfeit(moderator=None, game_id=game_id, position=position, reason="banned")
                done += 1
            except ModerationError:
                pass  # the game ended or the seat changed since the query: nothing to do
            except Exception:
                log.exception("forfeiting banned user %s in game %s failed", user_id, game_id)
    return done
