"""Template tags the game pages borrow from the guide: the first-game hint strip above a board.

The game page's templates load this library; no Python module of
``games`` imports ``guide``.
"""

from __future__ import annotations

from typing import Any

from django import template

from guide.hints import board_hints

register = template.Library()


@register.inclusion_tag("guide/_hints.html", takes_context=True)
def hint_strip(context: template.Context) -> dict[str, Any]:
    """The first-game hint strip above a board (see ``guide.hints.board_hints``); empty when turned off."""
    request = context.get("request")
    return {"hints": board_hints(context, request), "request": request, "game": context.get("game")}
