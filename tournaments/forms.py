"""Forms of the tournament pages: a moderator's new tournament and their actions on one."""

from __future__ import annotations

from datetime import timedelta
from typing import Any, cast

from django import forms
from django.utils.translation import gettext_lazy as _

from games.engine.dominion.cards import RECOMMENDED_SETS
from games.forms import time_control_label
from games.i18n import kingdom_set_name
from games.services import TIME_CONTROLS
from tournaments.models import Tournament

KINDS = [("dominion", "Dominion"), ("domaine", "Domaine")]


class TournamentForm(forms.Form):
    """A new tournament (moderators). Times are read in the moderator's time zone."""

    name = forms.CharField(label=_("Name"), max_length=100)
    kind = forms.ChoiceField(label=_("Game"), choices=KINDS)
    kingdom = forms.ChoiceField(label=_("Dominion kingdom"), required=False)
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
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["time_per_move"]).choices = [
            (int(d.total_seconds()), time_control_label(d)) for d in TIME_CONTROLS
        ]
        cast(forms.ChoiceField, self.fields["kingdom"]).choices = [
            ("random", _("Random")),
            *((n, kingdom_set_name(n)) for n in RECOMMENDED_SETS),
        ]

    def create_kwargs(self) -> dict[str, Any]:
        """The keyword arguments of ``tournaments.moderators.tournament_create``."""
        data = dict(self.cleaned_data)
        kingdom = data.pop("kingdom") or "random"
        data["options"] = {"kingdom": kingdom} if data["kind"] == "dominion" else {}
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
