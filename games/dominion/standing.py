"""Dominion's standing answers on the site: the form (settings page and game page) and what each answer means.

The rules of each answer are the engine's (``games.engine.dominion.standing``);
this module only names and describes them for people, in their language,
and checks what a form sends.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games.engine.dominion.standing import CHOICES, clean

#: Question -> (label, {setting: (short label, description)}). Every setting of
#: ``CHOICES`` is described; the first is the default.
TEXT: dict[str, tuple[Any, dict[str, tuple[Any, Any]]]] = {
    "moat": (
        _("Moat, when you are attacked"),
        {
            "reveal": (
                _("Always reveal it"),
                _(
                    "When you hold a Moat it is revealed for you at once; without one you answer "
                    "“no reaction”. The others then learn from your answer whether you hold a Moat."
                ),
            ),
            "ask": (
                _("Ask me"),
                _(
                    "You are asked at every attack, whether or not you hold a Moat (without one you can "
                    "only answer “no reaction”), so nobody can tell from the waiting what you hold."
                ),
            ),
        },
    ),
    "militia": (
        _("Militia: the cards you discard"),
        {
            "order": (
                _("Discard in the usual order"),
                _(
                    "Curses first, then Victory cards (cheapest first), then the cheapest Treasures and "
                    "Actions; at equal cost an Action before a Treasure, then in alphabetical order."
                ),
            ),
            "ask": (_("Ask me"), _("You choose the cards each time.")),
        },
    ),
    "bureaucrat": (
        _("Bureaucrat: the Victory card you put on your deck"),
        {
            "cheapest": (
                _("The cheapest"),
                _("The cheapest Victory card in your hand (equal cost: in alphabetical order)."),
            ),
            "ask": (
                _("Ask me"),
                _("You are asked at every Bureaucrat, whatever your hand holds."),
            ),
        },
    ),
    "library": (
        _("Library: set aside a drawn Action card?"),
        {
            "aside_if_no_action": (
                _("Set it aside when I have no Action left"),
                _("An Action card you could not play this turn is set aside and you draw another card."),
            ),
            "keep": (_("Always keep it"), _("Every Action card drawn stays in your hand.")),
            "ask": (_("Ask me"), _("You are asked about each Action card drawn.")),
        },
    ),
    "chancellor": (
        _("Chancellor: put your deck into your discard pile?"),
        {
            "ask": (_("Ask me"), _("You are asked each time (it depends on what is left in your deck).")),
            "yes": (_("Always"), _("Your deck always goes into your discard pile.")),
            "no": (_("Never"), _("Your deck always stays as it is.")),
        },
    ),
}


class StandingForm(forms.Form):
    """One choice per question (``CHOICES``); ``cleaned_settings()`` gives the settings to store."""

    #: What draws it, on the settings page and on a game's page (``games.presentation``'s ``STANDING_FORM``).
    page_template = "dominion/_standing_form.html"

    def __init__(self, *args: Any, initial_settings: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        current = clean(initial_settings)
        for question, values in CHOICES.items():
            label, described = TEXT[question]
            self.fields[question] = forms.ChoiceField(
                label=label,
                choices=[(v, described[v][0]) for v in values],
                initial=current[question],
                widget=forms.RadioSelect,
            )

    def described(self) -> list[dict[str, Any]]:
        """For templates: each question with its field and every setting's label and description."""
        return [{**q, "field": self[q["question"]]} for q in descriptions()]

    def cleaned_settings(self) -> dict[str, str]:
        """The settings to store (call after ``is_valid``)."""
        return clean({q: self.cleaned_data.get(q) for q in CHOICES})


def descriptions() -> list[dict[str, Any]]:
    """Each standing-answer question, for the settings and rules pages, in the active language.

    Returns:
        ``[{"question", "label", "settings": [{"value", "label", "text", "default"}]}]``,
        in ``CHOICES`` order; the first setting of each question is the default.
    """
    out = []
    for question, values in CHOICES.items():
        label, described = TEXT[question]
        settings = [
            {"value": v, "label": described[v][0], "text": described[v][1], "default": i == 0}
            for i, v in enumerate(values)
        ]
        out.append({"question": question, "label": label, "settings": settings})
    return out
