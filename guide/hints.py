"""The board's first-game hint strip: whether to show it, and what it says for the position.

Drawn outside the board's cached fragment (the hints depend on this
browser's cookie, the board's cache key does not), from the same view the
board reads. The sentences are the game's own (its guide part's ``hints``,
``guide.plugin``); they decide no rule: the numbers they quote come from
the engine's view and decision.
"""

from __future__ import annotations

from typing import Any

from guide.plugin import guide_of

#: The cookie that turns the hints off for a browser ("off"); absent: shown.
HINTS_COOKIE = "herald_hints"
#: How long the choice is kept, in seconds (a year).
HINTS_COOKIE_AGE = 365 * 24 * 3600


def hints_off(request: Any) -> bool:
    """True when this browser turned the hints off."""
    return request is not None and request.COOKIES.get(HINTS_COOKIE) == "off"


def board_hints(context: Any, request: Any) -> dict[str, Any] | None:
    """Return the hint strip for the board in ``context`` (the game page's), or None for no strip.

    Keys: ``off`` (the hints are turned off: only the switch to turn them
    on is drawn), ``lines`` (sentences for this step of the game), ``kind``
    and ``cards`` (the game has a card reference to link to). Only games in
    progress whose guide part gives hints have a strip (a game's guide
    gives them where its board is one a newcomer cannot read by itself).
    """
    game = context.get("game")
    view = context.get("view")
    if game is None or view is None or view.get("game_over") or not game.is_active:
        return None
    guide = guide_of(game.kind)
    if guide is None or guide.hints is None:
        return None
    strip = {"kind": game.kind, "cards": guide.cards_template is not None}
    if hints_off(request):
        return {**strip, "off": True, "lines": []}
    return {**strip, "off": False, "lines": guide.hints(view, context.get("viewer"), bool(context.get("my_move")))}
