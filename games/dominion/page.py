"""Dominion's page part (``games.presentation``): its board, stylesheet, standing answers and kingdom."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.dominion.standing import StandingForm
from games.dominion.templatetags.dominion_cards import kingdom_summary

BOARD_TEMPLATE = "dominion/board.html"
STYLESHEET = "dominion/dominion.css"
#: The log reads a Throne Room with nothing after it by whether the turn goes on (``eventtext.read_plays``).
LOG_READS_TURN = True
#: Moat, Militia, Bureaucrat, Library and Chancellor ask out of turn: the player may answer in advance.
STANDING_FORM = StandingForm


def options_text(options: dict[str, Any]) -> str:
    """The kingdom in words for the page's facts about the game: its cards, a recommended set, or "at random"."""
    kingdom = options.get("kingdom")
    if not kingdom:
        return ""
    # Not inside the f-string: xgettext does not read f-strings, so the label was never in the catalogues.
    return _("Kingdom: %(cards)s") % {"cards": kingdom_summary(kingdom)}
