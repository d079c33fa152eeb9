"""Domaine's part in the guide (``guide.plugin``): its rules page, card reference and first-game hints.

The rules page quotes the rules module and the engine (never retyped) and
draws small positions measured by the engine (``examples``); the card
reference lists the engine's cards (``cards``); the hint strip's sentences
are in ``hints``.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy

from games.domaine.guide.cards import domaine_action_text, domaine_card, domaine_reference
from games.domaine.guide.examples import distance_example, domain_example
from games.domaine.guide.hints import domaine_lines
from games.engine.domaine import rules as domaine_rules
from games.engine.domaine.cards import CARDS as DOMAINE_CARDS
from guide.plugin import Guide

#: Action kind -> the most any card gives of it (the rules page's list of actions quotes that).
MOST = {
    kind: max(a.n for c in DOMAINE_CARDS.values() for a in c.actions if a.kind == kind)
    for kind in ("borders", "knights", "expand", "desertion", "alliance")
}


def rules_context() -> dict[str, Any]:
    """What the rules page quotes, from the rules module and the engine (never retyped)."""
    ruleset = domaine_rules.RULESETS[domaine_rules.CURRENT_VERSION]
    return {
        "domain_example": domain_example(),
        "distance_example": distance_example(ruleset.castle_distance),
        "distance": ruleset.castle_distance,
        "fallback": ruleset.castle_fallback,
        "targets": sorted(domaine_rules.TARGET_SCORE.items()),
        "start_gold": domaine_rules.START_GOLD,
        "hand_size": domaine_rules.HAND_SIZE,
        "sample_cards": [domaine_card(c) for c in ("A4", "B3", "D5")],
        # Each action at the most any card gives (3 borders, 2 knights, 2 squares).
        "actions": {kind: domaine_action_text(kind, n) for kind, n in MOST.items()},
    }


def cards_context() -> dict[str, Any]:
    """What the card reference lists: the 24 kinds of card, grouped by letter (:func:`domaine_reference`)."""
    return {"groups": domaine_reference()}


GUIDE = Guide(
    rules_template="domaine/guide/rules.html",
    rules_title=gettext_lazy("How to play Domaine"),
    rules_link=gettext_lazy("Domaine rules"),
    rules_context=rules_context,
    cards_template="domaine/guide/cards.html",
    cards_title=gettext_lazy("Domaine card reference"),
    cards_link=gettext_lazy("Domaine cards"),
    cards_context=cards_context,
    hints=domaine_lines,
)
