"""Dominion's part in the guide (``guide.plugin``): its rules page and its card reference.

Nothing here is a rule: costs, types and texts come from
``games.engine.dominion.cards`` (the data the engine plays by) and the
same translations the board uses (``games.eventtext``), so the reference
cannot drift from the game. Dominion's board needs no first-game hints.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.dominion.eventtext import card_name, card_text
from games.dominion.standing import descriptions as standing_descriptions
from games.engine.dominion.cards import BASIC_CARDS, CARDS, KINGDOM_CARDS
from games.eventtext import card_anchor
from guide.plugin import Guide

#: Dominion card types as the engine names them -> what readers see.
TYPE_NAMES = {
    "Action": gettext_lazy("Action"),
    "Treasure": gettext_lazy("Treasure"),
    "Victory": gettext_lazy("Victory"),
    "Curse": gettext_lazy("Curse"),
    "Attack": gettext_lazy("Attack"),
    "Reaction": gettext_lazy("Reaction"),
}


def dominion_card(name: str) -> dict[str, Any]:
    """Return one Dominion card as the reference shows it: ``name`` (the notation's), ``label`` (in the
    active language), ``cost`` in coins, ``types`` (translated, joined), ``text`` and its page ``anchor``."""
    card = CARDS[name]
    return {
        "name": name,
        "label": card_name(name),
        "english": name,
        "cost": card.cost,
        "types": _(" – ").join(str(TYPE_NAMES.get(t, t)) for t in card.types),
        "text": card_text(name),
        "anchor": card_anchor("dominion", name),
    }


def dominion_reference() -> list[tuple[str, list[dict[str, Any]]]]:
    """Return every card of the base set (first edition) in groups: the basic cards, then the kingdom
    cards by cost."""
    groups: list[tuple[str, list[dict[str, Any]]]] = [
        (_("Basic cards (in every game)"), [dominion_card(n) for n in BASIC_CARDS])
    ]
    for cost in sorted({CARDS[n].cost for n in KINGDOM_CARDS}):
        cards = [dominion_card(n) for n in KINGDOM_CARDS if CARDS[n].cost == cost]
        groups.append((_("Kingdom cards costing $%(n)d") % {"n": cost}, cards))
    return groups


def rules_context() -> dict[str, Any]:
    """What the rules page quotes: the standing answers, described as the settings page describes them."""
    return {"standing": standing_descriptions()}


def cards_context() -> dict[str, Any]:
    """What the card reference lists: the cards in groups (:func:`dominion_reference`)."""
    return {"groups": dominion_reference()}


GUIDE = Guide(
    rules_template="dominion/guide/rules.html",
    rules_title=gettext_lazy("How to play Dominion"),
    rules_link=gettext_lazy("Dominion rules"),
    rules_context=rules_context,
    cards_template="dominion/guide/cards.html",
    cards_title=gettext_lazy("Dominion card reference"),
    cards_link=gettext_lazy("Dominion cards"),
    cards_context=cards_context,
)
