"""Forms of matchmaking: a seek with its options, and the bans (kingdom cards)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any, cast

from django import forms
from django.utils.translation import gettext_lazy as _

from games import kinds
from games.forms import time_control_label
from games.services import TIME_CONTROLS
from matchmaking.limits import ban_choices
from matchmaking.services import DEFAULT_LIFETIME, MAX_BANS, QUICK_TIME_PER_MOVE, SEEK_LIFETIMES

#: The table sizes a seek may ask for: the value, and (min, max).
SIZES: dict[str, tuple[int, int]] = {"2": (2, 2), "3": (3, 3), "4": (4, 4), "2-4": (2, 4)}
#: The games a seek may be for (``games.kinds``), each named in the reader's language (a callable: drawn when
#: the form is shown, in that request's language).
KINDS = kinds.choices
#: Ratings a range may name (the displayed scale starts at 1500 for a newcomer).
RATING_BOUNDS = (0, 4000)


class SeekForm(forms.Form):
    """A seek's options: game, players, rated, time per move, the opponents' ratings, how long it waits."""

    kind = forms.ChoiceField(label=_("Game"), choices=KINDS)
    players = forms.ChoiceField(
        label=_("Players"),
        choices=[("2", "2"), ("3", "3"), ("4", "4"), ("2-4", _("2 to 4"))],
        initial="2",
    )
    rated = forms.TypedChoiceField(
        label=_("Rating"),
        widget=forms.RadioSelect,
        choices=[("rated", _("Rated")), ("casual", _("Casual"))],
        coerce=lambda v: v == "rated",
        initial="rated",
    )
    time_per_move = forms.TypedChoiceField(label=_("Time per move"), coerce=int, choices=[])
    rating_low = forms.IntegerField(
        label=_("Lowest opponent rating"), required=False, min_value=RATING_BOUNDS[0], max_value=RATING_BOUNDS[1]
    )
    rating_high = forms.IntegerField(
        label=_("Highest opponent rating"), required=False, min_value=RATING_BOUNDS[0], max_value=RATING_BOUNDS[1]
    )
    lifetime = forms.TypedChoiceField(label=_("Wait at most"), coerce=int, choices=[])
    fill_with_bots = forms.BooleanField(
        label=_("Casual games: if nobody comes in time, start with bots in the empty seats"), required=False
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """Build the form; the time choices' labels follow the active language."""
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["time_per_move"]).choices = [
            (int(d.total_seconds()), time_control_label(d)) for d in TIME_CONTROLS
        ]
        self.fields["time_per_move"].initial = int(QUICK_TIME_PER_MOVE.total_seconds())
        cast(forms.ChoiceField, self.fields["lifetime"]).choices = [
            (int(d.total_seconds()), time_control_label(d)) for d in SEEK_LIFETIMES
        ]
        self.fields["lifetime"].initial = int(DEFAULT_LIFETIME.total_seconds())

    def clean(self) -> dict[str, Any]:
        """Check the range reads low to high and bots only fill casual games."""
        super().clean()
        data = self.cleaned_data
        low, high = data.get("rating_low"), data.get("rating_high")
        if low is not None and high is not None and low > high:
            self.add_error("rating_high", _("The highest rating must not be below the lowest."))
        if data.get("fill_with_bots") and data.get("rated"):
            self.add_error("fill_with_bots", _("Games with bots cannot be rated."))
        return data

    def seek_kwargs(self) -> dict[str, Any]:
        """The keyword arguments of ``services.seek_create`` (without ``user``)."""
        data = self.cleaned_data
        low, high = SIZES[data["players"]]
        return {
            "kind": data["kind"],
            "players_min": low,
            "players_max": high,
            "rated": data["rated"],
            "time_per_move": timedelta(seconds=data["time_per_move"]),
            "rating_low": data.get("rating_low"),
            "rating_high": data.get("rating_high"),
            "lifetime": timedelta(seconds=data["lifetime"]),
            "fill_with_bots": data.get("fill_with_bots", False),
        }


class QuickForm(forms.Form):
    """The lobby's one-button pairing: which game, rated or not, how many players."""

    kind = forms.ChoiceField(choices=KINDS)
    rated = forms.TypedChoiceField(choices=[("1", "1"), ("0", "0")], coerce=lambda v: v == "1")
    players = forms.TypedChoiceField(choices=[("2", "2"), ("3", "3"), ("4", "4")], coerce=int, required=False)


class BansForm(forms.Form):
    """Up to ``MAX_BANS`` options (kingdom cards) never drawn into a random set-up of a seek's or a rematch's game.

    The choices are every installed game's bannable options (``matchmaking.limits.ban_choices``).
    """

    cards = forms.MultipleChoiceField(
        label=_("Cards you never want in a random kingdom"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        choices=ban_choices,
    )

    def clean_cards(self) -> list[str]:
        """Refuse more than ``MAX_BANS`` cards."""
        cards = self.cleaned_data["cards"]
        if len(cards) > MAX_BANS:
            raise forms.ValidationError(_("Ban at most %(n)d cards.") % {"n": MAX_BANS})
        return cards
