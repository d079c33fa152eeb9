"""Request middleware for per-user settings: time zone and language."""

from __future__ import annotations

import contextlib
import zoneinfo
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import timezone, translation


def user_time_zone(get_response: Callable[[HttpRequest], HttpResponse]) -> Callable[[HttpRequest], HttpResponse]:
    """Show dates in the signed-in user's time zone (they are stored in UTC)."""

    def middleware(request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        name = getattr(user, "time_zone", "") if user is not None and user.is_authenticated else ""
        timezone.deactivate()
        if name:
            # A stale or bad name falls back to UTC rather than failing the page.
            with contextlib.suppress(zoneinfo.ZoneInfoNotFoundError, ValueError):
                timezone.activate(zoneinfo.ZoneInfo(name))
        return get_response(request)

    return middleware


def user_language(get_response: Callable[[HttpRequest], HttpResponse]) -> Callable[[HttpRequest], HttpResponse]:
    """Speak the signed-in user's saved language, over the cookie and the browser's preference.

    Runs after ``LocaleMiddleware`` (which picked the cookie's or browser's
    language) and ``AuthenticationMiddleware``; users who left the setting
    blank keep what LocaleMiddleware chose. LocaleMiddleware's response
    half then reports the language in ``Content-Language``.
    """

    def middleware(request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        code = getattr(user, "language", "") if user is not None and user.is_authenticated else ""
        if code and translation.check_for_language(code):
            translation.activate(code)
            request.LANGUAGE_CODE = translation.get_language()
        return get_response(request)

    return middleware
