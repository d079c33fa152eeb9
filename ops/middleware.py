"""Middleware: one structured log line per request, rate limits that answer 429 clearly, and
``Cache-Control`` for private responses (``private_cache``).

``request_log`` goes first in ``MIDDLEWARE`` so its duration covers every
other middleware. ``RateLimitMiddleware`` goes after authentication (it
limits moves per user) and applies ``settings.HERALD_RATE_LIMITS`` by URL
name, so allauth's sign-in and sign-up views need no decorators of ours.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from http import HTTPStatus
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils.functional import empty
from django.utils.translation import gettext as _
from django_ratelimit.core import get_usage

from ops.logs import request_log as log

rate_log = logging.getLogger(__name__)

#: Seconds a refused request is told to wait while the rate-limit counter cannot be reached.
UNCOUNTED_RETRY_AFTER = 60


def _user_id(request: HttpRequest) -> int | None:
    """The signed-in user's id, without loading the user if the view never did."""
    user = getattr(request, "user", None)
    if user is None or getattr(user, "_wrapped", None) is empty:
        return None
    return user.pk if user.is_authenticated else None


def _seq(request: HttpRequest) -> int | None:
    """The ``seq`` a move or poll was made for, if the request carries one."""
    raw = request.GET.get("seq") if request.method == "GET" else request.POST.get("seq")
    # ASCII digits only (str.isdigit() is also true for '²' or '①', which int() refuses), and few
    # enough for int() (it refuses more than 4300): anything else is no seq the site ever sent.
    return int(raw) if raw and len(raw) <= 10 and raw.isascii() and raw.isdigit() else None


def request_log(get_response: Callable[[HttpRequest], HttpResponse]) -> Callable[[HttpRequest], HttpResponse]:
    """Log one line per request: method, view name, route, status, duration, user id, game id, seq.

    The path itself is not logged, only the route pattern, since some paths
    (profiles) contain usernames; neither are IP addresses or query strings.
    """

    def middleware(request: HttpRequest) -> HttpResponse:
        started = time.perf_counter()
        response = get_response(request)
        match = getattr(request, "resolver_match", None)
        kwargs = match.kwargs if match else {}
        fields: dict[str, Any] = {
            "method": request.method,
            "view": match.view_name if match else None,
            "route": match.route if match else None,
            "status": response.status_code,
            "duration_ms": round((time.perf_counter() - started) * 1000, 1),
            "user_id": _user_id(request),
        }
        if "game_id" in kwargs:
            fields["game_id"] = kwargs["game_id"]
            fields["seq"] = _seq(request)
        if getattr(request, "htmx", False):
            fields["htmx"] = True
        log.info("request", extra=fields)
        return response

    return middleware


#: The message of each limited view, for the 429 answer.
RATE_LIMIT_MESSAGES: dict[str, Callable[[], str]] = {
    "account_login": lambda: _("Too many sign-in attempts from your network. Wait a minute and try again."),
    "account_signup": lambda: _("Too many new accounts from your network. Try again later."),
    "account_reset_password": lambda: _("Too many password reset requests from your network. Try again later."),
    "games:move": lambda: _("You are sending moves faster than the site accepts them. Wait a few seconds."),
    "games:chat": lambda: _("You are sending messages too quickly; wait a few seconds."),
}


class RateLimitMiddleware:
    """Refuse POSTs to the views in ``settings.HERALD_RATE_LIMITS`` past their rate, with 429.

    ``HERALD_RATE_LIMITS`` maps a URL name to ``(key, rate)`` in
    django-ratelimit's terms: key ``"ip"`` or ``"user_or_ip"``, rate such as
    ``"10/m"``. Counters live in the default cache (Redis in production, so
    every web process shares them).

    HTMX requests get the message as a fragment placed at the top of the
    page (``HX-Retarget``), so the board is left as it was; other requests
    get a page with the message. Both carry ``Retry-After``.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        """Pass the request on (the limit is applied in ``process_view``, once the URL is resolved)."""
        return self.get_response(request)

    def process_view(
        self, request: HttpRequest, view_func: Any, view_args: Any, view_kwargs: Any
    ) -> HttpResponse | None:
        """Count this POST against its view's limit; answer 429 once the limit is passed.

        With the cache unreachable nothing can be counted: the views in
        ``settings.HERALD_RATE_LIMITS_FAIL_OPEN`` let the request through, the
        others answer 429; either way a warning is logged.
        """
        if request.method != "POST" or not getattr(settings, "RATELIMIT_ENABLE", True):
            return None
        name = request.resolver_match.view_name if request.resolver_match else None
        limit = settings.HERALD_RATE_LIMITS.get(name or "")
        if limit is None or name is None:
            return None
        key, rate = limit
        usage = get_usage(request, group=f"herald:{name}", key=key, rate=rate, method="POST", increment=True)
        if getattr(cache, "degraded", False):
            # The cache could not count (website.cache.FailSoftRedisCache): each view fails in its
            # documented direction (settings.HERALD_RATE_LIMITS_FAIL_OPEN), and says so in the log.
            fail_open = name in getattr(settings, "HERALD_RATE_LIMITS_FAIL_OPEN", ())
            rate_log.warning(
                "rate limit of %s not counted (cache unreachable): %s", name, "let through" if fail_open else "refused"
            )
            return None if fail_open else self.refuse(request, name, UNCOUNTED_RETRY_AFTER)
        if usage is None or not usage["should_limit"]:
            return None
        return self.refuse(request, name, max(1, int(usage["time_left"])))

    @staticmethod
    def refuse(request: HttpRequest, name: str, retry_after: int) -> HttpResponse:
        """Build the 429 answer for view ``name``."""
        message = RATE_LIMIT_MESSAGES.get(name, lambda: _("Too many requests. Wait a little and try again."))()
        context = {"message": message, "retry_after": retry_after}
        if getattr(request, "htmx", False):
            body = render_to_string("ops/_rate_limited.html", context, request=request)
            response = HttpResponse(body, status=HTTPStatus.TOO_MANY_REQUESTS)
            response["HX-Retarget"] = "#main"
            response["HX-Reswap"] = "afterbegin"
        else:
            body = render_to_string("ops/rate_limited.html", context, request=request)
            response = HttpResponse(body, status=HTTPStatus.TOO_MANY_REQUESTS)
        response["Retry-After"] = str(retry_after)
        return response


#: Views whose answer is live (it changes between two identical requests): never stored, even for
#: anonymous spectators, so no cache hands out a poll's "nothing changed" after the game moved on.
NO_STORE_VIEWS = frozenset({"games:poll"})
#: What a response about a signed-in user gets: only the browser may keep it, and not on disk.
PRIVATE = "private, no-store"
#: Views that are personal without a sign-in, opened from an email's link: the unsubscribe page names
#: the user's email and holds the token; allauth's email confirmation page names the address and the
#: username and holds the key.
PERSONAL_VIEWS = frozenset({"correspondence:unsubscribe", "account_confirm_email"})


def private_cache(get_response: Callable[[HttpRequest], HttpResponse]) -> Callable[[HttpRequest], HttpResponse]:
    """Set ``Cache-Control`` on responses that show someone's own data, unless the view set one.

    The rule, in order:

    1. A response that already has ``Cache-Control`` (``never_cache`` on the
       lobby and game pages, ``/health/``) is left alone: the view knows best.
    2. A request carrying the session cookie (every signed-in request) gets
       ``private, no-store``: its pages show the user's name, games, settings,
       notices, even on a 404; no shared cache may keep them, and the browser
       does not write them to disk (a shared computer after signing out).
       The cookie is the test, not ``request.user``, so no session or user is
       loaded for a view that did not need them.
    3. ``PERSONAL_VIEWS`` (unsubscribing, confirming an email address) get ``private, no-store``
       too, and the live views (``NO_STORE_VIEWS``) ``no-store``, for everyone.
    4. Everything else is left alone: the public ladder, finished games'
       ``record.json`` and other anonymous pages stay cacheable (they already
       carry ``Vary: Cookie``), and static files never reach this middleware
       (WhiteNoise, above it in ``MIDDLEWARE``, answers them first, with its
       own long ``max-age``).
    """

    def middleware(request: HttpRequest) -> HttpResponse:
        response = get_response(request)
        if response.has_header("Cache-Control"):
            return response
        if settings.SESSION_COOKIE_NAME in request.COOKIES:
            response["Cache-Control"] = PRIVATE
            return response
        name = getattr(getattr(request, "resolver_match", None), "view_name", None)
        if name in PERSONAL_VIEWS:
            response["Cache-Control"] = PRIVATE
        elif name in NO_STORE_VIEWS:
            response["Cache-Control"] = "no-store"
        return response

    return middleware
