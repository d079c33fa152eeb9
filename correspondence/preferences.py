"""A user's email choices: the settings row, and the one-click unsubscribe token.

The token is signed (``django.core.signing``), not encrypted: it names the
user's id and the kind of email, which is no secret to the user it is sent
to. It does not expire, so an unsubscribe link in a years-old email still
works (RFC 8058 one-click unsubscribe expects that); it can only turn an
email off, never on, and can be forged only with ``SECRET_KEY``.
"""

from __future__ import annotations

from typing import Any

from django.core import signing

from accounts.models import User
from correspondence.models import Notification, NotificationSettings

Kind = Notification.Kind

UNSUBSCRIBE_SALT = "herald.correspondence.unsubscribe"


def settings_for(user: User) -> NotificationSettings:
    """Return ``user``'s notification settings; an unsaved default row if they never chose."""
    try:
        return user.notification_settings
    except NotificationSettings.DoesNotExist:
        return NotificationSettings(user=user)


def settings_update(*, user: User, **values: Any) -> NotificationSettings:
    """Save ``user``'s notification settings (field name -> value) and return them."""
    row, _created = NotificationSettings.objects.get_or_create(user=user)
    for name, value in values.items():
        setattr(row, name, value)
    row.save()
    return row


def unsubscribe_token(user: User, kind: str) -> str:
    """Return a signed token that turns ``kind`` emails off for ``user`` (no expiry, no login).

    Signed, not encrypted (it holds the user's id and the kind, nothing
    secret), and without expiry on purpose: it can only turn that kind off,
    which the user can undo, and an old email's link must still work
    (RFC 8058; README). Links survive a ``SECRET_KEY`` rotation while the old
    key is in ``SECRET_KEY_FALLBACKS``.
    """
    return signing.dumps({"u": user.pk, "k": str(kind)}, salt=UNSUBSCRIBE_SALT, compress=True)


def unsubscribe(*, token: str) -> tuple[User, str]:
    """Turn off the emails the token names.

    Returns:
        ``(user, kind)``.

    Raises:
        signing.BadSignature: the token was tampered with or is not ours.
        User.DoesNotExist: the user was deleted.
    """
    data = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    user = User.objects.get(pk=data["u"])
    kind = data["k"]
    if kind in (Kind.YOUR_MOVE, Kind.UNDO_ASKED):
        # Requests to take moves back follow the "your move" setting (NotificationSettings.wants).
        settings_update(user=user, your_move=NotificationSettings.YourMove.NEVER)
    elif kind in Kind.values:
        settings_update(user=user, **{kind: False})
    else:
        raise signing.BadSignature("unknown kind")
    return user, kind
