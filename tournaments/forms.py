"""Forms of the tournament pages: a moderator's new tournament and their actions on one.

What a game brings to the new-tournament form is its **tournaments part**,
the module ``<game package>.tournaments`` (``games.kinds``; docs/games.md),
optional:

``fields() -> dict[str, forms.Field]``
    The form's fields for the game's own options (each ``required=False``:
    the form is one for every game), drawn after the choice of game.
``options(data) -> dict``
    The tournament's engine options (``Tournament.options``) from those
    fields' cleaned values, when the tournament is for this game.

A game without the part plays its tournaments with its engine's default options.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any, cast

from django import forms
from django.utils.translation import gettext_lazy as _

from games import kinds
from games.forms import time_control_label
from games.services import TIME_CONTROLS
from tournaments.models import Tournament

#: The name of a game's tournaments part module (``<package>.tournaments``).
PART = "tournaments"


class TournamentForm(forms.Form):
    """A new tournament (moderators). Times are read in the moderator's time zone."""

    name = forms.CharField(label=_("Name"), max_length=100)
    kind = forms.ChoiceField(label=_("Game"), choices=kinds.choices)
    system = forms.ChoiceField(label=_("System"), choices=Tournament.System.choices)
    players_per_table = forms.TypedChoiceField(
        label=_("Players per table"), choices=[(n, str(n)) for n in (2, 3, 4)], coerce=int, initial=2
    )
    rounds = forms.IntegerField(label=_("Rounds (Swiss and multi-table)"), min_value=1, max_value=30, initial=5)
    time_per_move = forms.TypedChoiceField(
        label=_("Time per move"), coerce=int, initial=int(timedelta(days=2).total_seconds())
    )
    rated = forms.BooleanField(label=_("Rated"), required=False, initial=True)
    double_round_robin = forms.BooleanField(label=_("Round robin: both seat orders"), required=False)
    final_table = forms.BooleanField(label=_("Multi-table: a final table for the leaders"), required=False)
    signup_closes = forms.DateTimeField(
        label=_("Sign-up closes"), widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")
    )
    starts = forms.DateTimeField(
        label=_("Starts"), widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")
    )
    max_players = forms.IntegerField(label=_("At most this many players (0: no limit)"), min_value=0, initial=0)
    min_rating = forms.IntegerField(label=_("Lowest rating"), required=False)
    max_rating = forms.IntegerField(label=_("Highest rating"), required=False)
    min_games = forms.IntegerField(label=_("Finished games on the site, at least"), min_value=0, initial=0)
    verified_only = forms.BooleanField(label=_("Verified email only"), required=False, initial=True)
    reason = forms.CharField(label=_("Note for the audit trail"), required=False, max_length=500)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """Build the form: the fields every tournament has, and each installed game's own after the game's choice."""
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["time_per_move"]).choices = [
            (int(d.total_seconds()), time_control_label(d)) for d in TIME_CONTROLS
        ]
        #: Field name -> the game whose part added it.
        self.game_fields: dict[str, str] = {}
        for kind, part in kinds.parts(PART):
            for name, field in part.fields().items():
                self.fields[name] = field
                self.game_fields[name] = kind.name
        order = list(self.fields)
        after = order.index("kind") + 1
        self.order_fields([*order[:after], *self.game_fields, *order[after:]])

    def create_kwargs(self) -> dict[str, Any]:
        """The keyword arguments of ``tournaments.moderators.tournament_create``: the game's own fields become
        ``options`` (its part's ``options``; ``{}`` for a game without one)."""
        data = dict(self.cleaned_data)
        own = {name: data.pop(name) for name, kind in self.game_fields.items() if kind == data["kind"]}
        for name in self.game_fields:
            data.pop(name, None)
        part = kinds.get(data["kind"]).part(PART)
        data["options"] = dict(part.options(own)) if part is not None and hasattr(part, "options") else {}
        data["time_per_move"] = timedelta(seconds=data["time_per_move"])
        return data


class RemoveForm(forms.Form):
    """Remove a player (moderators)."""

    user = forms.IntegerField(widget=forms.HiddenInput)
    reason = forms.CharField(label=_("Reason"), required=False, max_length=500)


class AdjustForm(forms.Form):
    """Set a player's points at one table (moderators)."""

    seat = forms.IntegerField(widget=forms.HiddenInput)
    points = forms.FloatField(label=_("Points"), min_value=0, max_value=1)
    reason = forms.CharField(label=_("Reason"), required=False, max_length=500)


class CancelForm(forms.Form):
    """Cancel the tournament (moderators)."""

    reason = forms.CharField(label=_("Reason"), required=False, max_length=500)
