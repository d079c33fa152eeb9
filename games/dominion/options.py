"""Dominion's new-game options (the ``options`` part, docs/games.md): the kingdom, and the bots offered.

The platform's new-game page (``games.views.lobby.game_new``) draws
:class:`Form`, which adds the kingdom to the options every game shares, and
turns it into ``Game.options`` (``{"kingdom": ...}``, as the engine's
``normalize_options`` takes it).
"""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.utils.translation import gettext_lazy as _

from games.dominion.eventtext import card_name, kingdom_set_name
from games.engine.dominion.cards import KINGDOM_CARDS, RECOMMENDED_SETS
from games.forms import GameOptionsForm


def card_choices() -> list[tuple[str, str]]:
    """The Kingdom cards as form choices: (English name, the name in the reader's language).

    A callable, so that Django draws the choices when the form is shown, in that request's language.
    The choices of the new-game form's 10-card pick.
    """
    return [(name, card_name(name)) for name in KINGDOM_CARDS]


class Form(GameOptionsForm):
    """Options for a new Dominion game: how the kingdom is chosen (random, a recommended set, 10 cards)."""

    fields_template = "dominion/new_options.html"

    KINGDOM_RANDOM = "random"
    KINGDOM_RECOMMENDED = "recommended"
    KINGDOM_PICK = "pick"

    kingdom = forms.ChoiceField(
        label=_("Kingdom"),
        widget=forms.RadioSelect,
        initial=KINGDOM_RANDOM,
        choices=[
            (KINGDOM_RANDOM, _("Random")),
            (KINGDOM_RECOMMENDED, _("A recommended set")),
            (KINGDOM_PICK, _("Pick 10 cards")),
        ],
    )
    recommended_set = forms.ChoiceField(
        label=_("Recommended set"), required=False, choices=[(name, name) for name in RECOMMENDED_SETS]
    )
    cards = forms.MultipleChoiceField(
        label=_("Cards"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        choices=card_choices,
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """Build the form (``GameOptionsForm``'s arguments); the sets' names follow the active language."""
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["recommended_set"]).choices = [
            (n, kingdom_set_name(n)) for n in RECOMMENDED_SETS
        ]

    def clean(self) -> dict[str, Any]:
        """Check the kingdom choice is complete (a set chosen, or exactly 10 cards picked) and the bots fit."""
        super().clean()
        data = self.cleaned_data
        mode = data.get("kingdom")
        if mode == self.KINGDOM_RECOMMENDED and not data.get("recommended_set"):
            self.add_error("recommended_set", _("Choose a recommended set."))
        if mode == self.KINGDOM_PICK and len(data.get("cards") or []) != 10:
            self.add_error("cards", _("Pick exactly 10 cards."))
        return data

    def game_options(self) -> dict[str, Any]:
        """Return ``{"kingdom": ...}``: "random", a recommended set's name, or the 10 cards picked."""
        data = self.cleaned_data
        mode = data["kingdom"]
        if mode == self.KINGDOM_RECOMMENDED:
            kingdom: Any = data["recommended_set"]
        elif mode == self.KINGDOM_PICK:
            kingdom = list(data["cards"])
        else:
            kingdom = "random"
        return {"kingdom": kingdom}
