"""Template tags the game pages borrow from the guide: a Domaine card's full text, and the hint strip.

The game page's templates load this library (templates sit above every
app); no Python module of ``games`` imports ``guide``.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _

from games.engine.domaine.cards import CARDS
from games.eventtext import card_anchor
from guide.cards import domaine_action_text
from guide.hints import board_hints

register = template.Library()


@register.simple_tag
def domaine_card_text(card_id: str) -> str:
    """What a Domaine card lets its player do, in full, and a link to its card reference entry."""
    card = CARDS.get(card_id)
    if card is None:
        return ""
    actions = format_html_join("", "<li>{}</li>", ((domaine_action_text(a.kind, a.n),) for a in card.actions))
    choose = format_html('<p class="dm-choose">{}</p>', _("Choose one:")) if len(card.actions) > 1 else ""
    letter = _("(%(letter)s) is the card's stack: the deck deals the A cards first, then B, C and D.") % {
        "letter": card.letter
    }
    return format_html(
        '<div class="dm-card-text">{}<ul>{}</ul><p class="dm-letter">{}</p>'
        '<a class="card-ref" href="{}#{}">{}</a></div>',
        choose,
        actions,
        letter,
        reverse("guide:cards", args=["domaine"]),
        card_anchor("domaine", card.id),
        _("Card reference"),
    )


@register.inclusion_tag("guide/_hints.html", takes_context=True)
def hint_strip(context: template.Context) -> dict[str, Any]:
    """The first-game hint strip above a board (see ``guide.hints.board_hints``); empty when turned off."""
    request = context.get("request")
    return {"hints": board_hints(context, request), "request": request, "game": context.get("game")}
