"""Per-request moderation: sign banned users out, show moderators' notices once."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth import logout
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect

from moderation import selectors, services


def moderation_state(get_response: Callable[[HttpRequest], HttpResponse]) -> Callable[[HttpRequest], HttpResponse]:
    """Refuse banned users on any request, and show waiting notices on the next full page.

    Banned: the session ends and the user lands on the page that explains
    the ban (sign-in is refused separately, by the account adapter).
    Notices become flash messages on the next page that is not an htmx
    swap (which would not show them), and are marked seen then. The check
    is cached per user (``moderation.selectors.user_state``), so a page
    usually pays no query for it.
    """

    def middleware(request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            # An attribute of Herald's own on the request (read back by selectors.request_state).
            state = request.moderation_state = selectors.user_state(user)  # type: ignore[attr-defined]
            if state.banned:
                logout(request)
                return redirect("moderation:banned")
            if state.notice and request.method == "GET" and not getattr(request, "htmx", False):
                for text in services.notices_take(user=user):
                    messages.warning(request, text)
        return get_response(request)

    return middleware
