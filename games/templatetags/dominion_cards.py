"""Template helpers for drawing Dominion cards with HTML and CSS (no card art)."""

from __future__ import annotations

import functools
from typing import Any

from django import template

from games.engine.dominion.cards import CARDS
from games.eventtext import card_list as _card_list
from games.eventtext import card_name as _card_name
from games.eventtext import card_text as _card_text
from games.i18n import kingdom_set_name

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
def kingdom_summary(kingdom: Any) -> str:
    """A game's kingdom option in words: its cards, a recommended set's name, or "chosen at random".

    Before the game starts the option is what its creator chose (a list of
    cards, a set's name, or "random"); the start makes it the ten cards.
    """
    from django.utils.translation import gettext as _

    if isinstance(kingdom, list | tuple):
        return _card_list(kingdom)
    if kingdom == "random":
        return _("chosen at random when the game starts")
    return kingdom_set_name(str(kingdom))


@register.filter
def card_cost(name: str) -> int | str:
    """A card's cost in coins ("" for an unknown name)."""
    card = CARDS.get(name)
    return card.cost if card else ""


@register.filter
def card_text(name: str) -> str:
    """A card's first-edition text in the active language."""
    return _card_text(name)


@register.filter
def card_class(name: str) -> str:
    """CSS classes naming a card's types ("card-action card-attack")."""
    card = CARDS.get(name)
    if card is None:
        return "card-unknown"
    return " ".join(f"card-{t.lower()}" for t in card.types)


@register.simple_tag
def card(name: str, count: Any = None, plain: bool = False) -> str:
    """One card as HTML: name, cost, type colour, optional pile count; text on hover or focus.

    Built in Python rather than with an inclusion template, and remembered
    per (card, count, plain, language): a board draws dozens of cards, and
    the same few hundred combinations make up every board. ``plain`` leaves
    out the tab stop, for cards inside a button that is focusable itself.
    """
    from django.utils.translation import get_language

    try:
        return _card_html(name, count, bool(plain), get_language())
    except TypeError:  # an unhashable count from a bad template call: draw it, uncached
        return _card_html.__wrapped__(name, count, bool(plain), get_language())


@functools.lru_cache(maxsize=4096)
def _card_html(name: str, count: Any, plain: bool, language: str | None) -> str:
    """The HTML of ``card``, for one language (the cache key; translations use the active one)."""
    from django.utils.html import format_html
    from django.utils.safestring import mark_safe
    from django.utils.translation import gettext as _

    data = CARDS.get(name)
    label = _card_name(name)
    cost = data.cost if data else ""
    text = _card_text(name)
    classes = card_class(name) + (" card-empty" if count == 0 else "")
    count_html = (
        format_html('<span class="card-count" aria-label="{}">{}</span>', _("%(n)s left") % {"n": count}, count)
        if count is not None
        else ""
    )
    return format_html(
        '<span class="card {}"{} title="{} (${}): {}"><span class="card-name">{}</span>'
        '<span class="card-cost" aria-label="{}">{}</span>{}<span class="card-text" role="tooltip">{}</span></span>',
        classes,
        "" if plain else mark_safe(' tabindex="0"'),
        label,
        cost,
        text,
        label,
        _("costs %(n)s coins") % {"n": cost},
        cost,
        count_html,
        text,
    )


@register.simple_tag
def hand_cards(hand: list[str] | None, playable: set[str]) -> str:
    """The viewer's hand: a Play button around each card they may play now, the others as cards.

    A tag rather than a template loop (as ``card``): every first view of a
    position and every move's answer draws the hand.
    """
    from django.utils.html import format_html, format_html_join
    from django.utils.translation import gettext as _

    if not hand:
        return format_html('<p class="empty">{}</p>', _("No cards in hand."))
    play = _("Play")
    return format_html_join(
        "",
        "{}",
        (
            (
                format_html(
                    '<button type="submit" name="card" value="{}" class="card-button">{}<span class="verb">{}</span>'
                    "</button>",
                    name,
                    card(name, plain=True),
                    play,
                )
                if name in playable
                else card(name),
            )
            for name in hand
        ),
    )


@register.simple_tag
def supply_piles(supply: list[dict[str, Any]], buyable: set[str]) -> str:
    """The supply's piles (``view["supply"]``), each with its count, and a Buy button where the viewer may buy.

    A tag rather than a template loop: the supply is the board's largest
    part, drawn on every first view of a position and every move's answer.
    A pile with a Buy button is one tab stop, the button (which shows the
    card's text while focused, and is read as "Buy Silver"); a pile without
    one keeps the card's own tab stop, so its text can still be read.
    """
    from django.utils.html import format_html, format_html_join
    from django.utils.translation import gettext as _

    buy = _("Buy")
    return format_html_join(
        "",
        '<div class="pile">{}{}</div>',
        (
            (
                card(pile["card"], count=pile["count"], plain=pile["card"] in buyable),
                format_html(
                    '<button type="submit" name="card" value="{}" class="buy">{}'
                    '<span class="visually-hidden"> {}</span></button>',
                    pile["card"],
                    buy,
                    _card_name(pile["card"]),
                )
                if pile["card"] in buyable
                else "",
            )
            for pile in supply or []
        ),
    )


@register.simple_tag
def legal_cards(view: dict[str, Any], act: str) -> set[str]:
    """The card names the viewer may use with ``act`` now ("play", "buy", "gain")."""
    return {m["card"] for m in (view or {}).get("legal", []) if m.get("act") == act and "card" in m}


@register.simple_tag
def legal_acts(view: dict[str, Any]) -> set[str]:
    """The move kinds the viewer may make now ("play_treasures", "end_turn", ...)."""
    return {m["act"] for m in (view or {}).get("legal", [])}


@register.simple_tag
def decision_prompt(decision: dict[str, Any] | None, names: Any = None) -> str:
    """A decision's question in the active language, built from its kind and params.

    ``names`` maps seat index -> shown name (for Spy's "top of Bob's deck").
    """
    from django.utils.translation import gettext as _
    from django.utils.translation import ngettext

    if not decision:
        return ""
    kind, source, params = decision["kind"], decision.get("source", ""), decision.get("params", {})
    card = _card_name(params.get("card", "")) if params.get("card") else ""
    if kind == "discard" and source == "Militia":
        n = decision["min"]
        return ngettext("Militia: discard %(n)d card (down to 3).", "Militia: discard %(n)d cards (down to 3).", n) % {
            "n": n
        }
    if kind == "discard":
        return _("Cellar: discard any number of cards, then draw as many.")
    if kind == "trash" and source == "Chapel":
        return _("Chapel: trash up to 4 cards from your hand.")
    if kind == "trash" and source == "Remodel":
        return _("Remodel: trash a card from your hand; then gain a card costing up to $2 more.")
    if kind == "trash" and source == "Mine":
        return _("Mine: trash a Treasure from your hand; then gain a Treasure costing up to $3 more into your hand.")
    if kind == "gain":
        return _("%(source)s: gain a card costing up to $%(limit)d.") % {
            "source": _card_name(source),
            "limit": params.get("limit", 0),
        }
    if kind == "chancellor":
        return _("Chancellor: put your deck into your discard pile?")
    if kind == "library":
        return _("Library: set aside %(card)s? (It is discarded when you finish drawing.)") % {"card": card}
    if kind == "spy":
        target = params.get("target")
        whose = (names or {}).get(target, "") if names else ""
        if target == decision["player"]:
            return _("Spy: discard %(card)s from the top of your deck? (No: put it back.)") % {"card": card}
        return _("Spy: discard %(card)s from the top of %(name)s's deck? (No: put it back.)") % {
            "card": card,
            "name": whose,
        }
    if kind == "reveal_moat":
        if "yes" not in decision.get("options", ["yes"]):
            # Asked though the hand has no Moat: nobody can tell from the waiting what it holds.
            return _("%(attack)s attacks you. You have no Moat to reveal.") % {
                "attack": _card_name(params.get("attack", ""))
            }
        return _("Reveal Moat to be unaffected by %(attack)s?") % {"attack": _card_name(params.get("attack", ""))}
    if kind == "topdeck":
        if not decision.get("options", ["?"]):
            return _("Bureaucrat: you have no Victory card; your hand is revealed.")
        return _("Bureaucrat: put a Victory card from your hand on top of your deck.")
    if kind == "thief_trash":
        return _("Thief: choose which revealed Treasure is trashed.")
    if kind == "thief_gain":
        return _("Thief: gain any of the Treasures you trashed.")
    if kind == "throne":
        return _("Throne Room: choose an Action card to play twice.")
    return decision.get("prompt", "")


@register.filter
def seat_names(seats: Any) -> dict[int, str]:
    """Seat index -> shown name, from the page's Seat rows."""
    return {s.position: str(s.name) for s in seats or []}


@register.filter
def get_item(mapping: Any, key: Any) -> Any:
    """``mapping[key]`` for dicts and lists, or None (templates cannot index by a variable)."""
    try:
        return mapping[key]
    except (KeyError, IndexError, TypeError):
        return None
