"""Domaine's card reference, read from the engine's card data.

Nothing here is a rule: costs, copies and actions come from
``games.engine.domaine.cards`` (the data the engine plays by), names from
the same texts the board uses (``games.domaine.eventtext``), so the
reference cannot drift from the game. Only the longer explanation of each
action is written here, from ``shared/rules/domaine.md``; the game page
quotes it too (the ``domaine_guide`` template tags).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.domaine.eventtext import card_name as domaine_card_name
from games.engine.domaine.cards import CARDS as DOMAINE_CARDS
from games.engine.domaine.cards import LETTERS
from games.eventtext import card_anchor


def domaine_action_text(kind: str, n: int) -> str:
    """Return what one Domaine card action lets the player do, in full (rules: "Actions")."""
    if kind == "borders":
        return ngettext(
            "Place up to %(n)d border on an empty edge between two squares: not on the rim, not inside a "
            "domain, and not between two squares that both hold pieces of one colour.",
            "Place up to %(n)d borders, each on an empty edge between two squares: not on the rim, not inside "
            "a domain, and not between two squares that both hold pieces of one colour.",
            n,
        ) % {"n": n}
    if kind == "knights":
        return ngettext(
            "Place up to %(n)d knight on a free meadow (or a forest, for 1 gold more) next to one of your "
            "castles or knights, with no border between them.",
            "Place up to %(n)d knights, each on a free meadow (or a forest, for 1 gold more) next to one of "
            "your castles or knights, with no border between them.",
            n,
        ) % {"n": n}
    if kind == "expand":
        return ngettext(
            "Add up to %(n)d square next to one of your domains: from a neutral zone or open land, or from "
            "another player's domain when yours holds more of your knights than theirs holds of theirs (not "
            "an ally's, not a square with their knight or a castle). The borders move with the square.",
            "Add up to %(n)d squares next to one of your domains, one after the other: from a neutral zone or "
            "open land, or from another player's domain when yours holds more of your knights than theirs "
            "holds of theirs (not an ally's, not a square with their knight or a castle). The borders move "
            "with the squares.",
            n,
        ) % {"n": n}
    if kind == "desertion":
        # Two steps, in the order the page asks them (the walk-through found the one-sentence version hard).
        return _(
            "Two steps. First choose a knight of another player that stands in their domain next to one of "
            "yours: it leaves the board and goes back to its owner. Then place one of your knights in your "
            "domain next to theirs, on a free square as for any knight (a forest costs 1 gold more)."
        )
    if kind == "alliance":
        return _(
            "Ally one of your domains with another player's domain that shares a border with it: for the "
            "rest of the game neither may expand into the other."
        )
    return kind


def domaine_card(card_id: str) -> dict[str, Any]:
    """Return one Domaine card as the reference shows it: ``id``, ``name``, ``letter``, ``copies``,
    ``cost`` and ``sale`` in gold, ``actions`` (one explanation each; two mean a choice) and ``anchor``."""
    card = DOMAINE_CARDS[card_id]
    return {
        "id": card.id,
        "name": domaine_card_name(card.id),
        "letter": card.letter,
        "copies": card.copies,
        "cost": card.cost,
        "sale": card.sale,
        "actions": [domaine_action_text(a.kind, a.n) for a in card.actions],
        "anchor": card_anchor("domaine", card.id),
    }


def domaine_reference() -> list[tuple[str, list[dict[str, Any]]]]:
    """Return the 60 cards' 24 kinds, grouped by letter (the order the deck is stacked in)."""
    return [(letter, [domaine_card(c.id) for c in DOMAINE_CARDS.values() if c.letter == letter]) for letter in LETTERS]
