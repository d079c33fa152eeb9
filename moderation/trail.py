"""The moderators' audit trail, their permissions, and telling the user concerned.

Every moderator action writes exactly one :class:`~moderation.models.ModerationAction`
(:func:`record`) and tells the user by an on-site notice and, if they
receive email, by email after commit (:func:`tell`), in their own language.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from functools import partial
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.core.mail import send_mail
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _

from accounts.models import User
from accounts.selectors import can_receive_email
from games.models import ChatMessage, Game
from moderation.models import ModerationAction, Notice, Report
from moderation.selectors import state_forget

log = logging.getLogger(__name__)

Kind = ModerationAction.Kind

PERM_GAMES = "moderation.moderate_games"
PERM_USERS = "moderation.moderate_users"
PERM_CHAT = "moderation.moderate_chat"
PERM_REPORTS = "moderation.change_report"
PERM_HIDDEN = "moderation.view_hidden_information"


class ModerationError(Exception):
    """A moderation request that is refused; ``str(err)`` is for the person asking."""


# ---------------------------------------------------------------------------
# The trail and telling people


def require(moderator: User, perm: str) -> None:
    """Refuse unless ``moderator`` is staff holding ``perm`` (belt and braces behind the admin)."""
    if not (moderator.is_active and moderator.is_staff and moderator.has_perm(perm)):
        raise PermissionDenied(_("You are not allowed to do this."))


def record(
    *,
    moderator: User | None,
    action: str,
    reason: str = "",
    user: User | int | None = None,
    game: Game | None = None,
    message: ChatMessage | None = None,
    report: Report | None = None,
    data: dict[str, Any] | None = None,
) -> ModerationAction:
    """Write one audit row (in the caller's transaction)."""
    return ModerationAction.objects.create(
        moderator=moderator,
        action=action,
        reason=reason,
        user_id=getattr(user, "pk", user),
        game=game,
        message=message,
        report=report,
        data=data or {},
    )


def forget(user_id: int) -> None:
    """Drop ``user_id``'s cached moderation state now and again after commit.

    Now, so this transaction's own later checks see the change; after
    commit, because another request may have cached the old state meanwhile.
    """
    state_forget(user_id)
    transaction.on_commit(partial(state_forget, user_id))


def tell(users: Iterable[User | int | None], text: Callable[[], str], *, email: bool = True) -> None:
    """Leave each of ``users`` a notice, and email those who receive email, in their language.

    ``text`` is called once per user with their language active, so the
    sentence is translated for each. Notices are written in the caller's
    transaction; emails go after commit, and a mail failure is logged,
    never undoing the action.
    """

    ids = {getattr(u, "pk", u) for u in users if u is not None}
    for user in User.objects.filter(pk__in=ids, deleted__isnull=True):
        with translation.override(user.language or settings.LANGUAGE_CODE):
            body = text()
            subject = _("A message from the Herald moderators")
            html = render_to_string(
                "moderation/email/notice.html",
                {
                    "subject": subject,
                    "body": body,
                    "site_url": settings.SITE_URL.rstrip("/") + "/",
                    # No request here, so no i18n context processor: the HTML names its language itself.
                    "LANGUAGE_CODE": translation.get_language(),
                },
            )
        Notice.objects.create(user=user, text=body)
        forget(user.pk)
        if email and can_receive_email(user):
            transaction.on_commit(partial(send, user.email, subject, body, html))


def send(address: str, subject: str, body: str, html: str | None = None) -> None:
    """Send one moderation email (plain text, and its HTML alternative); log a failure
    (the on-site notice is there anyway)."""
    try:
        send_mail(f"{settings.ACCOUNT_EMAIL_SUBJECT_PREFIX}{subject}", body, None, [address], html_message=html)
    except Exception:
        log.exception("moderation email to %s failed", address)


def reason_line(reason: str) -> str:
    """The moderator's reason as a sentence for the user (already in their language)."""
    return _("Reason: %(reason)s") % {"reason": reason} if reason else ""
