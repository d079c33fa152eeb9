"""Bearer tokens, their scopes, and the API's rate limits.

``TokenAuth(scope)`` is each operation's ``auth``: it finds the token
(``api.tokens.token_check``: none for a deactivated or deleted account),
refuses a banned user's (403 ``account_suspended``, as the site's pages
sign them out), refuses one without ``scope`` (403), counts the
request against its user's limit (429 with ``Retry-After``), and makes the
token's user ``request.user`` so the services see who acts.
"""

from __future__ import annotations

import logging
from http import HTTPStatus
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest
from django.utils.translation import gettext as _
from django_ratelimit.core import get_usage
from ninja.security import HttpBearer

from api.models import ApiToken
from api.problems import Problem, account_suspended
from api.tokens import token_check
from moderation import selectors as moderation

log = logging.getLogger(__name__)

#: Seconds a refused request is told to wait while the counter cannot be reached.
UNCOUNTED_RETRY_AFTER = 60


def _user_key(group: str, request: HttpRequest) -> str:
    """django-ratelimit's key: the token's user (every token of one user shares one budget)."""
    return str(request.auth.user_id)  # type: ignore[attr-defined]


def rate_limit(request: HttpRequest, token: ApiToken, scope: str = "read") -> None:
    """Count this request against its user's limit; raise a 429 :class:`Problem` once it is passed.

    Reads (the operations of the ``read`` scope: every GET, and ``POST .../choices``, which changes
    nothing) and writes have separate budgets, and bot accounts their own
    (``settings.HERALD_API_RATE_LIMITS``, ``HERALD_API_BOT_RATE_LIMITS``).
    With the cache unreachable nothing can be counted: reads go through,
    writes are refused, as the site's own move limit does.
    """
    if not getattr(settings, "RATELIMIT_ENABLE", True):
        return
    kind = "read" if scope == "read" else "write"
    limits = settings.HERALD_API_BOT_RATE_LIMITS if token.user.bot_account else settings.HERALD_API_RATE_LIMITS
    usage = get_usage(
        request,
        group=f"herald:api:{kind}:{'bot' if token.user.bot_account else 'person'}",
        key=_user_key,
        rate=limits[kind],
        method=request.method,
        increment=True,
    )
    if getattr(cache, "degraded", False):
        log.warning(
            "API rate limit not counted (cache unreachable): %s", "let through" if kind == "read" else "refused"
        )
        if kind == "read":
            return
        wait = UNCOUNTED_RETRY_AFTER
    elif usage is None or not usage["should_limit"]:
        return
    else:
        # django-ratelimit's window still counts its last second (``time_left`` 0 is still limited), so a
        # client that sleeps exactly ``time_left`` would be refused once more: tell it one second more.
        wait = max(1, int(usage["time_left"]) + 1)
    raise Problem(
        HTTPStatus.TOO_MANY_REQUESTS,
        "rate_limited",
        _("Too many requests. Wait a little and try again."),
        extra={"retry_after": wait},
        headers={"Retry-After": str(wait)},
    )


class TokenAuth(HttpBearer):
    """``Authorization: Bearer <token>`` with ``scope`` among the token's scopes."""

    openapi_scheme = "bearer"

    def __init__(self, scope: str) -> None:
        super().__init__()
        self.scope = scope

    def authenticate(self, request: HttpRequest, token: str) -> Any:
        """Return the token (as ``request.auth``), or None (401); raise a 403 or 429 :class:`Problem`."""
        found = token_check(token)
        if found is None:
            return None
        state = moderation.user_state(found.user)
        if state.banned:
            raise account_suspended(state.banned_until)
        if self.scope not in found.scopes:
            raise Problem(
                HTTPStatus.FORBIDDEN,
                "missing_scope",
                _("This token lacks the “%(scope)s” scope.") % {"scope": self.scope},
            )
        request.auth = found  # type: ignore[attr-defined]
        request.user = found.user
        rate_limit(request, found, self.scope)
        return found


READ = TokenAuth("read")
PLAY = TokenAuth("play")
CHAT = TokenAuth("chat")
