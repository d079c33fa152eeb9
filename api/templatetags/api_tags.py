"""The settings page's API section reads the user's tokens through this tag."""

from __future__ import annotations

from typing import Any

from django import template

from api.models import SCOPES
from api.tokens import active_tokens

register = template.Library()


@register.simple_tag
def api_tokens(user: Any) -> list[Any]:
    """``user``'s unrevoked tokens, newest first (``{% api_tokens user as tokens %}``)."""
    return active_tokens(user) if user.is_authenticated else []


@register.simple_tag
def api_scopes() -> tuple[str, ...]:
    """The scopes a token may have."""
    return SCOPES
