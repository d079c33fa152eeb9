"""Personal access tokens: making, revoking and checking them, and bot accounts.

Keyword-only functions, each in one transaction; refusals raise
:class:`TokenError` with a sentence for the user.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta
from typing import TYPE_CHECKING

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from api.models import SCOPES, ApiToken
from api.stream import forget_readers

if TYPE_CHECKING:
    from collections.abc import Iterable

    from accounts.models import User

#: Every token starts with this, so a leaked one is easy to recognise (and to scan for).
TOKEN_PREFIX = "hrld_"
#: Tokens a user may hold at once (unrevoked).
MAX_TOKENS = 20
#: ``last_used`` is written at most this often.
TOUCH_EVERY = timedelta(minutes=1)


class TokenError(Exception):
    """A token request refused; ``str(err)`` is for the user."""


def digest_of(raw: str) -> str:
    """Return the stored form of token ``raw``: its SHA-256, hex."""
    return hashlib.sha256(raw.encode("utf-8", "surrogatepass")).hexdigest()


def token_create(*, user: User, name: str, scopes: Iterable[str]) -> tuple[ApiToken, str]:
    """Make a token for ``user``; return it and its secret, which is shown this once and never stored.

    Raises:
        TokenError: no name, no scope or an unknown one, or too many tokens.
    """
    name = " ".join(name.split())[:60]
    wanted = sorted(set(scopes))
    if not name:
        raise TokenError(_("Give the token a name."))
    if not wanted or any(s not in SCOPES for s in wanted):
        raise TokenError(_("Choose at least one of the scopes read, play and chat."))
    raw = TOKEN_PREFIX + secrets.token_urlsafe(32)
    with transaction.atomic():
        if ApiToken.objects.filter(user=user, revoked__isnull=True).count() >= MAX_TOKENS:
            raise TokenError(_("You have too many tokens; revoke one first."))
        token = ApiToken.objects.create(
            user=user, name=name, scopes=wanted, prefix=raw[: len(TOKEN_PREFIX) + 6], digest=digest_of(raw)
        )
    forget_readers()
    return token, raw


def token_revoke(*, user: User, token_id: int) -> bool:
    """Revoke ``user``'s token ``token_id``; return whether it was one of theirs and still active."""
    return bool(ApiToken.objects.filter(pk=token_id, user=user, revoked__isnull=True).update(revoked=timezone.now()))


def tokens_revoke_all(*, user: User) -> int:
    """Revoke every active token of ``user``; return how many.

    For an account that can no longer sign in (deactivated or deleted): its
    tokens stop at once and stay revoked if it is ever reactivated, and the
    event stream stops writing rows for it.
    """
    revoked = ApiToken.objects.filter(user=user, revoked__isnull=True).update(revoked=timezone.now())
    if revoked:
        forget_readers()
    return revoked


def on_user_saved(sender: type, instance: User, update_fields: Iterable[str] | None = None, **kwargs: object) -> None:
    """``post_save`` of users: revoke the tokens of an account just deactivated or deleted (``tokens_revoke_all``)."""
    if instance.is_active and instance.deleted is None:
        return
    if update_fields is not None and not {"is_active", "deleted"} & set(update_fields):
        return  # another field of an account already closed (its tokens were revoked then)
    tokens_revoke_all(user=instance)


def token_check(raw: str) -> ApiToken | None:
    """Return the active token ``raw`` names, with its user, or None.

    None for an unknown or revoked token, and for a user who can no longer
    sign in (deactivated or deleted). Records the use (at most once a minute).
    """
    if not raw.startswith(TOKEN_PREFIX) or len(raw) > 100:
        return None
    token = ApiToken.objects.select_related("user").filter(digest=digest_of(raw), revoked__isnull=True).first()
    if token is None or not token.user.is_active or token.user.deleted is not None:
        return None
    now = timezone.now()
    if token.last_used is None or now - token.last_used > TOUCH_EVERY:
        ApiToken.objects.filter(pk=token.pk).update(last_used=now)
        token.last_used = now
    return token


def active_tokens(user: User) -> list[ApiToken]:
    """``user``'s unrevoked tokens, newest first."""
    return list(ApiToken.objects.filter(user=user, revoked__isnull=True))
