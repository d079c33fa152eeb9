"""The allauth account adapter: refuse banned users' sign-in with a clear page."""

from __future__ import annotations

from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect

from moderation import selectors


class AccountAdapter(DefaultAccountAdapter):
    """allauth's adapter, plus the ban check."""

    def pre_login(self, request: HttpRequest, user: Any, **kwargs: Any) -> HttpResponse | None:
        """Stop a banned user after their password was checked (so a guess learns nothing).

        The half-done login is cleared, as allauth does for inactive
        accounts, and the user is sent to the page that says why.
        """
        if selectors.is_banned(user):
            from allauth.account.internal.stagekit import clear_login

            clear_login(request)
            return redirect("moderation:banned")
        return super().pre_login(request, user, **kwargs)
