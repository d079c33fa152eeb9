"""Template helpers for ratings: a game's rating changes, dictionary lookup."""

from __future__ import annotations

from typing import Any

from django import template

from ratings.models import RatingChange
from ratings.selectors import changes_for_game

register = template.Library()


@register.filter
def get_item(mapping: Any, key: Any) -> Any:
    """Return ``mapping[key]``, or None (for dicts built by the views)."""
    try:
        return mapping.get(key)
    except AttributeError:
        return None


@register.simple_tag
def game_rating_changes(game: Any) -> dict[int, RatingChange]:
    """Return a finished rated game's rating changes by user id (no query for other games)."""
    if not getattr(game, "is_finished", False):
        return {}
    return changes_for_game(game)
