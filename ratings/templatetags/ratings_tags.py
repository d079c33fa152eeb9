"""Template helpers for ratings: a game's rating changes, dictionary lookup, a profile's ratings and finished games."""

from __future__ import annotations

from typing import Any

from django import template
from django.conf import settings
from django.core.paginator import Paginator
from django.utils import timezone

from games import history
from ratings.models import RatingChange
from ratings.selectors import changes_for_game, changes_for_games, standings

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


def _viewer(context: template.Context) -> Any:
    """The signed-in user viewing the page, or None."""
    user = getattr(context.get("request"), "user", None)
    return user if user is not None and user.is_authenticated else None


@register.inclusion_tag("ratings/_profile_ratings.html")
def profile_ratings(owner: Any) -> dict[str, Any]:
    """A profile's ratings and record by game (``standings``), with the charts of the rated ones."""
    return {
        "standings": standings(owner, now=timezone.now()),
        "provisional_games": settings.RATING_PROVISIONAL_GAMES,
    }


@register.inclusion_tag("ratings/_profile_finished_games.html", takes_context=True)
def profile_finished_games(context: template.Context, owner: Any) -> dict[str, Any]:
    """A profile's finished games, a page at a time (``?page=``), each with the owner's rank and rating change.

    Drawn by ratings, above ``games``: the page's rows are games' (``games.history``), the changes ratings'.
    """
    request = context.get("request")
    finished = Paginator(history.finished_games(owner, _viewer(context)), history.PROFILE_FINISHED_PAGE)
    finished_page = finished.get_page(request.GET.get("page") if request is not None else None)
    return {
        "owner": owner,
        "finished_page": finished_page,
        "rating_changes": changes_for_games(owner, finished_page.object_list),
    }
