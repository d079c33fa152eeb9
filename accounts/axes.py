"""django-axes glue: which name a sign-in attempt was for."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest


def attempt_username(request: HttpRequest, credentials: dict[str, Any] | None) -> str | None:
    """Return the login an attempt used, lower-cased, so failures count per account and IP.

    allauth signs in by username or email and passes either ``username`` or
    ``email`` to ``authenticate``; its form field is ``login``. Lower-cased
    so that "Bob" and "bob" share one counter.
    """
    credentials = credentials or {}
    value = credentials.get("username") or credentials.get("email")
    if not value and request is not None:
        value = getattr(request, "POST", {}).get("login")
    return str(value).strip().lower() if value else None
