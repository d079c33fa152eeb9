"""Everything that writes moderation rows, and every moderator action on games and users.

Each function is keyword-only, runs in one transaction and writes exactly
one :class:`~moderation.models.ModerationAction` (the audit trail) per
action. Changes to a game lock it with ``games.locking.lock_game`` and go
through the same internals as moves and timeouts (``games.services`` and
``games.autoplay``), so a moderator's change is locked, clocked, rated and
notified like any other. The user concerned is told by an on-site notice
(shown once on their next visit) and, if they receive email, by email, in
their own language.

Raises :class:`ModerationError` (a sentence for the moderator) for refused
requests, and ``PermissionDenied`` when the acting user lacks the
Moderators' permission for the action.

The work is split by job: ``moderation.trail`` (the audit row, permissions,
telling the user), ``moderation.game_actions``, ``moderation.user_actions``;
reports and notices are here.
"""

from __future__ import annotations

import logging

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games.models import ChatMessage, Game
from moderation.game_actions import (
    FullLog,
    clocks_pause,
    deadline_extend,
    game_abort,
    game_adjudicate,
    game_full_log,
    rating_refund,
    seat_forfeit,
)
from moderation.models import Notice, Report
from moderation.selectors import state_forget
from moderation.trail import (
    PERM_CHAT,
    PERM_GAMES,
    PERM_HIDDEN,
    PERM_REPORTS,
    PERM_USERS,
    Kind,
    ModerationError,
    record,
    require,
    tell,
)
from moderation.user_actions import (
    banned_seats_forfeit,
    chat_hide,
    user_ban,
    user_mute,
    user_unban,
    user_unmute,
    user_warn,
)

log = logging.getLogger(__name__)

#: Open reports one user may have at a time (a flood is itself abuse).
MAX_OPEN_REPORTS = 20

__all__ = [
    "MAX_OPEN_REPORTS",
    "PERM_CHAT",
    "PERM_GAMES",
    "PERM_HIDDEN",
    "PERM_REPORTS",
    "PERM_USERS",
    "FullLog",
    "ModerationError",
    "banned_seats_forfeit",
    "chat_hide",
    "clocks_pause",
    "deadline_extend",
    "game_abort",
    "game_adjudicate",
    "game_full_log",
    "notices_take",
    "rating_refund",
    "report_close",
    "report_create",
    "seat_forfeit",
    "user_ban",
    "user_mute",
    "user_unban",
    "user_unmute",
    "user_warn",
]


def notices_take(*, user: User) -> list[str]:
    """Return ``user``'s unseen notices, oldest first, and mark them seen (shown once)."""
    with transaction.atomic():
        rows = list(Notice.objects.select_for_update().filter(user=user, seen__isnull=True).order_by("created", "pk"))
        Notice.objects.filter(pk__in=[n.pk for n in rows]).update(seen=timezone.now())
    state_forget(user.pk)
    return [n.text for n in rows]


# ---------------------------------------------------------------------------
# Reports


def report_create(
    *,
    reporter: User,
    reason: str,
    comment: str = "",
    reported: User | None = None,
    message: ChatMessage | None = None,
    game: Game | None = None,
) -> Report:
    """File a report about a chat message (``message``) or a player (``reported``).

    Whether the reporter may see the message or game is the caller's check
    (``games.selectors.can_view``).

    Raises:
        ModerationError: nothing to report, an unknown reason, reporting
            oneself, or too many open reports.
    """
    if reason not in Report.Reason.values:
        raise ModerationError(_("Choose a reason."))
    if message is not None:
        reported = message.user
        game = message.game
    if reported is None:
        raise ModerationError(_("Choose a message or a player to report."))
    if reported.pk == reporter.pk:
        raise ModerationError(_("You cannot report yourself."))
    if Report.objects.filter(reporter=reporter, status=Report.Status.OPEN).count() >= MAX_OPEN_REPORTS:
        raise ModerationError(_("You have many open reports already; please wait until they are handled."))
    with transaction.atomic():
        return Report.objects.create(
            reporter=reporter, reported=reported, message=message, game=game, reason=reason, comment=comment.strip()
        )


def report_close(*, moderator: User, report_id: int, status: str, note: str = "") -> Report:
    """Mark an open report resolved or dismissed with a note the reporter will see.

    Raises:
        ModerationError: not open, or a status other than resolved/dismissed.
    """
    require(moderator, PERM_REPORTS)
    if status not in (Report.Status.RESOLVED, Report.Status.DISMISSED):
        raise ModerationError(_("A report is closed as resolved or dismissed."))
    with transaction.atomic():
        report = Report.objects.select_for_update().get(pk=report_id)
        if report.status != Report.Status.OPEN:
            raise ModerationError(_("This report was already handled."))
        report.status = status
        report.note = note.strip()
        report.handled_by = moderator
        report.handled_at = timezone.now()
        report.save(update_fields=["status", "note", "handled_by", "handled_at"])
        action = Kind.REPORT_RESOLVE if status == Report.Status.RESOLVED else Kind.REPORT_DISMISS
        record(
            moderator=moderator,
            action=action,
            reason=report.note,
            user=report.reported_id,
            report=report,
            game=report.game,
            message=report.message,
        )

        def text() -> str:
            outcome = report.get_status_display()
            line = _("Your report #%(id)s was closed: %(outcome)s.") % {"id": report.pk, "outcome": outcome}
            return f"{line} {report.note}".strip()

        tell([report.reporter_id], text, email=False)
    return report
