"""Request middleware for per-user settings."""

from __future__ import annotations

import contextlib
import zoneinfo
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import timezone


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
