"""Template helpers for drawing Dominion cards with HTML and CSS (no card art)."""

from __future__ import annotations

from typing import Any

from django import template

from games.engine.dominion.cards import CARDS
from games.eventtext import card_list as _card_list
from games.eventtext import card_name as _card_name

register = template.Library()


@register.filter
def card_name(name: str) -> str:
    """A card's name in the active language."""
    return _card_name(name)


@register.filter
def card_list(cards: list[str]) -> str:
    """Cards as "2 × Copper, Silver" in the active language."""
    return _card_list(cards or [])


@register.filter
def card_cost(name: str) -> int | str:
    """A card's cost in coins ("" for an unknown name)."""
    card = CARDS.get(name)
    return card.cost if card else ""


@register.filter
def card_text(name: str) -> str:
    """A card's first-edition text (English)."""
    card = CARDS.get(name)
    return card.text if card else ""


@register.filter
def card_class(name: str) -> str:
    """CSS classes naming a card's types ("card-action card-attack")."""
    card = CARDS.get(name)
    if card is None:
        return "card-unknown"
    return " ".join(f"card-{t.lower()}" for t in card.types)


@register.inclusion_tag("games/dominion/_card.html")
def card(name: str, count: Any = None, **extra: Any) -> dict[str, Any]:
    """Render one card: name, cost, type colour, optional pile count; text on hover or focus."""
    data = CARDS.get(name)
    return {
        "name": name,
        "label": _card_name(name),
        "cost": data.cost if data else "",
        "types": data.types if data else (),
        "classes": card_class(name),
        "text": data.text if data else "",
        "count": count,
        **extra,
    }
