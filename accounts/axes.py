"""django-axes glue: which account a sign-in attempt was for (``AXES_USERNAME_CALLABLE``).

django-axes counts failures per ``AXES_LOCKOUT_PARAMETERS`` (here: the
"username" this callable returns, with the IP address). allauth signs in by
username or by email, so the same account has two login strings; counted
as typed, an account locked out under ``victim1`` opened at once under
``victim1@example.com`` (attack run, issue 18). So an email is mapped to the
account's username, the same way allauth finds the account for it.
"""

from __future__ import annotations

from typing import Any

from allauth.account.utils import filter_users_by_email
from django.http import HttpRequest


def attempt_username(request: HttpRequest, credentials: dict[str, Any] | None) -> str | None:
    """Return the account an attempt was for, lower-cased: failures then count per account (and IP).

    Args:
        request: the sign-in request (its ``login`` field is the fallback).
        credentials: what allauth passed to ``authenticate``: ``username``
            for a username, ``email`` (and ``username``) for an address.

    Returns:
        The username of the account the login names (an email address with
        exactly one account, as allauth resolves it, preferring verified
        addresses), else the login itself (an unknown address or username
        still collects its own failures); lower-cased, so "Bob" and "bob"
        share one counter. None when the attempt names nothing.
    """
    credentials = credentials or {}
    value = credentials.get("email") or credentials.get("username")
    if not value and request is not None:
        value = getattr(request, "POST", {}).get("login")
    if not value:
        return None
    login = str(value).strip()
    if "@" in login:
        # One query per attempt; an address shared by several accounts (never, with
        # ACCOUNT_UNIQUE_EMAIL) is left as typed rather than guessed.
        users = filter_users_by_email(login, prefer_verified=True)
        if len(users) == 1:
            return users[0].username.lower()
    return login.lower()
