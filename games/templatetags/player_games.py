"""A player's games on their profile page (``accounts/profile.html`` loads this library).

``accounts`` draws the page but sits below ``games``, so the sections that
read game rows are drawn from here: the viewer's record against the player,
and the player's current games. (Their finished games, with rating changes,
are drawn by ratings: ``ratings_tags.profile_finished_games``.)
"""

from __future__ import annotations

from typing import Any

from django import template

from games import history

register = template.Library()


def _viewer(context: template.Context) -> Any:
    """The signed-in user viewing the page, or None."""
    request = context.get("request")
    user = getattr(request, "user", None)
    return user if user is not None and user.is_authenticated else None


@register.inclusion_tag("games/_profile_head_to_head.html", takes_context=True)
def profile_head_to_head(context: template.Context, owner: Any) -> dict[str, Any]:
    """The signed-in viewer's record against ``owner`` (``head_to_head``: None for the owner or a visitor)."""
    viewer = _viewer(context)
    others = viewer is not None and viewer.pk != owner.pk
    return {"head_to_head": history.head_to_head(viewer, owner) if others else None}


@register.inclusion_tag("games/_profile_current_games.html", takes_context=True)
def profile_current_games(context: template.Context, owner: Any) -> dict[str, Any]:
    """``owner``'s open, running and frozen games that the viewer may see (``current_games``), newest first."""
    return {"current_games": history.current_games(owner, _viewer(context))}
