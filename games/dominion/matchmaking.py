"""Dominion's part of matchmaking (``matchmaking.limits``): the kingdom cards a player may ban, and the kingdom
of a game the matcher or a rematch makes.

A player bans up to ``matchmaking.limits.MAX_BANS`` kingdom cards; a game
made for a seek or a rematch draws a random kingdom without any seated
player's bans (a recommended set a rematch follows is kept).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from games.dominion.eventtext import card_name
from games.engine.dominion.cards import KINGDOM_CARDS, RECOMMENDED_SETS
from matchmaking.limits import draw

#: What a player may ban, in the order the bans page lists them: the kingdom cards, by English name.
BANNABLE: tuple[str, ...] = tuple(KINGDOM_CARDS)
#: How many of them a random kingdom draws (the matcher seats a table whose bans leave fewer last).
DRAWN = 10
#: The bans page's explanation ({max_bans}: how many a player may ban).
BANS_HINT = _(
    "Choose up to %(max_bans)s Dominion kingdom cards you never want in a random kingdom. A game made for a seek "
    "or a rematch leaves out every seated player's bans."
)


def ban_label(value: str) -> str:
    """A kingdom card's name in the reader's language."""
    return card_name(value)


def new_options(previous: dict[str, Any] | None, banned: frozenset[str]) -> dict[str, Any]:
    """A new game's options for a seek's or a rematch's table: a random kingdom without the ``banned`` cards.

    ``previous``: the options of the game a rematch follows; a recommended
    set is kept, any other kingdom is drawn anew, other options are kept.
    """
    out = dict(previous or {})
    if isinstance(out.get("kingdom"), str) and out["kingdom"] in RECOMMENDED_SETS:
        return out
    out["kingdom"] = draw(BANNABLE, banned, DRAWN)
    return out
