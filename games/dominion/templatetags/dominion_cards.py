"""Template helpers for drawing Dominion cards with HTML and CSS (no card art)."""

from __future__ import annotations

import functools
from collections import Counter
from typing import Any

from django import template

from games.dominion.eventtext import card_list as _card_list
from games.dominion.eventtext import card_name as _card_name
from games.dominion.eventtext import card_text as _card_text
from games.dominion.eventtext import kingdom_set_name
from games.engine.dominion.cards import CARDS
from games.eventtext import card_anchor

register = template.Library()

#: Letters from which a word of a card's name is drawn smaller (``.card-long``), so that it fits its card.
LONG_WORD = 10


@register.filter
def card_name(name: str) -> str:
    """A card's name in the active language."""
    return _card_name(name)


@register.filter
def card_list(cards: list[str]) -> str:
    """Cards as "2 × Copper, Silver" in the active language."""
    return _card_list(cards or [])


@register.filter
def card_links(cards: list[str] | str | None) -> str:
    """Cards as "2 × Copper, Silver" in the active language, each name a link to its reference entry."""
    from django.utils.html import format_html, format_html_join
    from django.utils.translation import gettext as _

    names = [cards] if isinstance(cards, str) else list(cards or [])
    counts: dict[str, int] = {}
    for name in names:
        counts[name] = counts.get(name, 0) + 1
    return format_html_join(
        _(", "),
        "{}{}",
        (
            (
                f"{k} × " if k > 1 else "",
                format_html('<a class="card-link" href="{}">{}</a>', _card_ref(name), _card_name(name))
                if name in CARDS
                else name,
            )
            for name, k in counts.items()
        ),
    )


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
    """One card as HTML: name, cost, type colour, optional pile count; a tap, click or Enter opens its text.

    A ``<details>`` whose summary is the card's face: its text and a link
    to its card reference entry open below it (a strip along the bottom of
    a phone's screen) without JavaScript or hover; ``name="card-text"``
    keeps one open at a time. ``plain`` is for a card inside a button
    (Play, Gain), where nothing else may be interactive: the card's text
    shows while the button has focus, and ``card_more`` gives a "?" beside
    the button that opens it.

    Built in Python rather than with an inclusion template, and remembered
    per (card, count, plain, language): a board draws dozens of cards, and
    the same few hundred combinations make up every board.
    """
    from django.utils.translation import get_language

    try:
        return _card_html(name, count, bool(plain), get_language())
    except TypeError:  # an unhashable count from a bad template call: draw it, uncached
        return _card_html.__wrapped__(name, count, bool(plain), get_language())


#: English names too long for a phone's card, with soft hyphens where they may break ("Money-lender"),
#: never mid-syllable as a plain wrap would ("Moneylende r").
SOFT_HYPHENS = {
    n.replace("|", ""): n.replace("|", "\u00ad")
    for n in ("Money|lender", "Wood|cutter", "Labor|atory", "Adven|turer", "Bureau|crat", "Chan|cellor", "Work|shop")
}


def _card_ref(name: str) -> str:
    """The card's entry in the Dominion card reference (``guide``'s page, found by its URL name)."""
    from django.urls import reverse

    return f"{reverse('guide:cards', args=['dominion'])}#{card_anchor('dominion', name)}"


def _card_text_html(name: str) -> str:
    """The opened text of a card: what it does, and a link to its reference entry."""
    from django.utils.html import format_html
    from django.utils.translation import gettext as _

    return format_html(
        '<span class="card-text">{} <a class="card-ref" href="{}">{}</a></span>',
        _card_text(name),
        _card_ref(name),
        _("Card reference"),
    )


@functools.lru_cache(maxsize=4096)
def _card_html(name: str, count: Any, plain: bool, language: str | None) -> str:
    """The HTML of ``card``, for one language (the cache key; translations use the active one)."""
    from django.utils.html import format_html
    from django.utils.translation import gettext as _

    data = CARDS.get(name)
    label = _card_name(name)
    cost = data.cost if data else ""
    text = _card_text(name)
    classes = card_class(name) + (" card-empty" if count == 0 else "")
    # A long word ("Moneylender") gets a smaller name on the narrow cards, so it never breaks mid-word.
    if max((len(word) for word in label.split()), default=0) >= LONG_WORD:
        classes += " card-long"
    count_html = (
        format_html('<span class="card-count" aria-label="{}">{}</span>', _("%(n)s left") % {"n": count}, count)
        if count is not None
        else ""
    )
    face = format_html(
        '<span class="card-name">{}</span><span class="card-cost" aria-label="{}">{}</span>{}',
        SOFT_HYPHENS.get(label, label),
        _("costs %(n)s coins") % {"n": cost},
        cost,
        count_html,
    )
    if plain:
        return format_html(
            '<span class="card {}" title="{} (${}): {}">{}<span class="card-text" role="tooltip">{}</span></span>',
            classes,
            label,
            cost,
            text,
            face,
            text,
        )
    return format_html(
        '<details class="card {}" name="card-text"><summary title="{}">{}</summary>{}</details>',
        classes,
        _("Show what %(card)s does") % {"card": label},
        face,
        _card_text_html(name),
    )


@register.simple_tag
def card_more(name: str) -> str:
    """A small "?" beside a card drawn inside a button (``card`` with ``plain``): a tap opens the card's
    text and its reference link. Not a tab stop: the button itself shows the text while focused."""
    from django.utils.html import format_html
    from django.utils.translation import gettext as _

    return format_html(
        '<details class="card-more" name="card-text"><summary tabindex="-1" aria-label="{}" title="{}">?</summary>'
        "{}</details>",
        _("What %(card)s does") % {"card": _card_name(name)},
        _("What %(card)s does") % {"card": _card_name(name)},
        _card_text_html(name),
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
                    '<span class="card-slot"><button type="submit" name="card" value="{}" class="card-button">{}'
                    '<span class="verb">{}</span></button>{}</span>',
                    name,
                    card(name, plain=True),
                    play,
                    card_more(name),
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
                format_html("{}{}", card(pile["card"], count=pile["count"], plain=True), card_more(pile["card"]))
                if pile["card"] in buyable
                else card(pile["card"], count=pile["count"]),
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
def buy_offers(view: dict[str, Any]) -> set[str]:
    """The piles the page offers to buy: the legal buys, but not the $0 piles (Copper, Curse) in the Action phase.

    Buying in the Action phase is legal (it ends the phase), but with $0 a
    Buy button there can only gain a Copper or a Curse, nearly always a
    slip; the Buy phase offers them (after "Play all Treasures" or "End
    Action phase"). Piles costing more stay offered when an Action gave $.
    """
    view = view or {}
    action_phase = (view.get("turn") or {}).get("phase") == "action"
    costs = {p["card"]: p["cost"] for p in view.get("supply", [])}
    return {c for c in legal_cards(view, "buy") if not (action_phase and costs.get(c, 1) == 0)}


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
    # Version 3 names the attacker of an answer that may be owed after the attacker's turn moved on: the
    # card in play may by then be another player's.
    by = (names or {}).get(params["by"]) if "by" in params else None
    if kind == "discard" and source == "Militia":
        n = decision["min"]
        if by:
            return ngettext(
                "%(name)s's Militia: discard %(n)d card (down to 3).",
                "%(name)s's Militia: discard %(n)d cards (down to 3).",
                n,
            ) % {"n": n, "name": by}
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
    if kind == "reveal_moat" and by:
        attack = _card_name(params.get("attack", ""))
        if "yes" not in decision.get("options", ["yes"]):
            return _("%(name)s's %(attack)s attacks you. You have no Moat to reveal.") % {"attack": attack, "name": by}
        return _("Reveal Moat to be unaffected by %(name)s's %(attack)s?") % {"attack": attack, "name": by}
    if kind == "reveal_moat":
        if "yes" not in decision.get("options", ["yes"]):
            # Asked though the hand has no Moat: nobody can tell from the waiting what it holds.
            return _("%(attack)s attacks you. You have no Moat to reveal.") % {
                "attack": _card_name(params.get("attack", ""))
            }
        return _("Reveal Moat to be unaffected by %(attack)s?") % {"attack": _card_name(params.get("attack", ""))}
    if kind == "topdeck" and by:
        if not decision.get("options", ["?"]):
            return _("%(name)s's Bureaucrat: you have no Victory card; your hand is revealed.") % {"name": by}
        return _("%(name)s's Bureaucrat: put a Victory card from your hand on top of your deck.") % {"name": by}
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


#: Decisions whose options are cards of the deciding player's hand (Thief's choose among revealed or trashed cards).
FROM_HAND = frozenset({"discard", "trash", "throne", "topdeck"})


@register.simple_tag
def decision_cards(decision: dict[str, Any] | None, me: dict[str, Any] | None) -> dict[str, Any]:
    """The cards a "choose" decision shows, and whether they are the viewer's hand.

    ``decision``: the view's open decision; ``me``: the viewer's seat in the
    view (its ``hand`` is in the hand's drawn order). A choice among cards of
    the hand (Militia, Cellar, Chapel, Throne Room, Remodel, Mine, Moneylender,
    Bureaucrat) draws the whole hand once, in the hand's order, the cards that
    may be picked marked so: the page then leaves the hand out below. Other
    choices (Thief) draw their options as given.

    Returns ``{"from_hand": bool, "cards": [(name, pickable), ...]}``.
    """
    options = list((decision or {}).get("options") or [])
    hand = list((me or {}).get("hand") or [])
    left = Counter(options)
    if not options or (decision or {}).get("kind") not in FROM_HAND or left - Counter(hand):
        return {"from_hand": False, "cards": [(name, True) for name in options]}
    cards = []
    for name in hand:
        cards.append((name, left[name] > 0))
        left[name] -= 1
    return {"from_hand": True, "cards": cards}
