"""Template tags the Domaine board borrows from its guide part: a card's full text on a tap.

Load with ``{% load domaine_guide %}``; the text is the card reference's
(``games.domaine.guide.cards``), so the board and the reference say the same.
"""

from __future__ import annotations

from django import template
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _

from games.domaine.guide.cards import domaine_action_text
from games.engine.domaine.cards import CARDS
from games.eventtext import card_anchor

register = template.Library()


@register.simple_tag
def domaine_card_text(card_id: str) -> str:
    """What a Domaine card lets its player do, in full, and a link to its card reference entry ("" for no card)."""
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
