"""Forms for creating games and posting chat."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any, cast

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games.engine.dominion.cards import KINGDOM_CARDS, RECOMMENDED_SETS
from games.eventtext import card_name
from games.i18n import bot_name, kingdom_set_name
from games.models import Game
from games.services import TIME_CONTROLS
from website.text import validate_one_line

#: Bots offered on the form, in order; only those the engine has are shown.
OFFERED_BOTS = ["smart", "big_money"]

HUMAN = ""

#: What a Fischer clock may add after each move: the time controls up to 3 days.
FISCHER_INCREMENTS: list[timedelta] = [d for d in TIME_CONTROLS if d <= timedelta(days=3)]


def time_control_label(delta: timedelta) -> str:
    """Return "4 hours" or "2 days" for a time control, in the active language."""
    hours = int(delta.total_seconds() // 3600)
    if hours < 24:
        return ngettext("%(n)d hour", "%(n)d hours", hours) % {"n": hours}
    days = hours // 24
    return ngettext("%(n)d day", "%(n)d days", days) % {"n": days}


def kingdom_card_choices() -> list[tuple[str, str]]:
    """The Kingdom cards as form choices: (English name, the name in the reader's language).

    A callable, so that Django draws the choices when the form is shown, in that request's language.
    """
    return [(name, card_name(name)) for name in KINGDOM_CARDS]


class GameOptionsForm(forms.Form):
    """The options every game kind offers: players, time per move, rated, who may join, bot seats.

    A game kind subclasses it with its own options, its ``kind`` and
    ``offered_bots``, and its ``game_create_kwargs``.
    """

    kind = ""
    #: Bots offered on the form, in order; only those the engine has are shown.
    offered_bots: list[str] = []

    players = forms.TypedChoiceField(
        label=_("Players"), choices=[(n, str(n)) for n in (2, 3, 4)], coerce=int, initial=2
    )
    time_per_move = forms.TypedChoiceField(
        label=_("Time per move"),
        choices=[(int(d.total_seconds()), "") for d in TIME_CONTROLS],
        coerce=int,
        initial=int(timedelta(days=1).total_seconds()),
    )
    clock = forms.ChoiceField(
        label=_("Clock"),
        widget=forms.RadioSelect,
        choices=Game.Clock.choices,
        initial=Game.Clock.MOVE,
        required=False,  # older forms and API clients leave it out: a fixed time per move
    )
    increment = forms.TypedChoiceField(
        label=_("Increment per move (Fischer clock)"),
        choices=[(int(d.total_seconds()), "") for d in FISCHER_INCREMENTS],
        coerce=int,
        initial=int(timedelta(days=1).total_seconds()),
        required=False,
        # django-stubs allow only a str or None here; Django returns whatever is given, and coerce makes ints.
        empty_value=0,  # type: ignore[arg-type]
    )
    rated = forms.TypedChoiceField(
        label=_("Rating"),
        widget=forms.RadioSelect,
        choices=[("casual", _("Casual")), ("rated", _("Rated"))],
        coerce=lambda v: v == "rated",
        initial="casual",
    )
    visibility = forms.ChoiceField(
        label=_("Who may join"),
        widget=forms.RadioSelect,
        choices=[("open", _("Anyone")), ("invite", _("Only invited players"))],
        initial="open",
    )
    invited = forms.CharField(
        label=_("Invite (usernames, separated by commas or spaces)"), required=False, max_length=500
    )

    def __init__(self, *args: Any, bots: list[str] | None = None, **kwargs: Any) -> None:
        """Build the form; ``bots`` are the bot names the engine offers."""
        super().__init__(*args, **kwargs)
        # Labels are built per request so they follow the active language.
        cast(forms.ChoiceField, self.fields["time_per_move"]).choices = [
            (int(d.total_seconds()), time_control_label(d)) for d in TIME_CONTROLS
        ]
        cast(forms.ChoiceField, self.fields["increment"]).choices = [
            (int(d.total_seconds()), time_control_label(d)) for d in FISCHER_INCREMENTS
        ]

        bot_choices = [(HUMAN, _("A person"))] + [(name, bot_name(name)) for name in (bots or [])]
        if "recommended_set" in self.fields:
            cast(forms.ChoiceField, self.fields["recommended_set"]).choices = [
                (n, kingdom_set_name(n)) for n in RECOMMENDED_SETS
            ]
        for seat in (2, 3, 4):
            self.fields[f"seat_{seat}"] = forms.ChoiceField(
                label=_("Seat %(n)d") % {"n": seat}, required=False, choices=bot_choices, initial=HUMAN
            )

    def clean_invited(self) -> list[Any]:
        """Resolve the usernames to users; refuse unknown names."""
        names = [n for n in re.split(r"[\s,]+", self.cleaned_data["invited"]) if n]
        users = list(get_user_model().objects.filter(username__in=names))
        missing = sorted(set(names) - {u.username for u in users})
        if missing:
            raise forms.ValidationError(_("No such player: %(names)s") % {"names": ", ".join(missing)})
        return users

    def clean(self) -> dict[str, Any]:
        """Check the bots fit the seats and an invite-only game invites someone."""
        super().clean()
        data = self.cleaned_data
        players = data.get("players") or 2
        data["bots"] = [b for s in range(2, players + 1) if (b := data.get(f"seat_{s}"))]
        if data.get("visibility") == "invite" and not data.get("invited") and len(data["bots"]) < players - 1:
            self.add_error("invited", _("Invite at least one player, or let anyone join."))
        return data

    def common_create_kwargs(self) -> dict[str, Any]:
        """Return the service arguments shared by every kind (all but ``kind`` and ``options``)."""
        data = self.cleaned_data
        return {
            "players": data["players"],
            "rated": data["rated"],
            "private": data["visibility"] == "invite",
            "invited": data["invited"],
            "time_per_move": timedelta(seconds=data["time_per_move"]),
            "clock": data.get("clock") or Game.Clock.MOVE,
            "increment": timedelta(seconds=data.get("increment") or 0)
            if data.get("clock") == Game.Clock.FISCHER
            else timedelta(0),
            "bots": data["bots"],
        }

    def game_create_kwargs(self) -> dict[str, Any]:
        """Return ``games.services.game_create``'s arguments (but ``creator``): each kind's form says its own."""
        raise NotImplementedError


class DominionGameForm(GameOptionsForm):
    """Options for a new Dominion game; ``game_create_kwargs`` turns them into service arguments."""

    kind = "dominion"
    offered_bots = OFFERED_BOTS

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
        choices=kingdom_card_choices,
    )

    def clean(self) -> dict[str, Any]:
        """Check the kingdom choice is complete and the bots fit the seats."""
        super().clean()
        data = self.cleaned_data
        mode = data.get("kingdom")
        if mode == self.KINGDOM_RECOMMENDED and not data.get("recommended_set"):
            self.add_error("recommended_set", _("Choose a recommended set."))
        if mode == self.KINGDOM_PICK and len(data.get("cards") or []) != 10:
            self.add_error("cards", _("Pick exactly 10 cards."))
        return data

    def game_create_kwargs(self) -> dict[str, Any]:
        """Return the keyword arguments for ``services.game_create`` (without ``creator``)."""
        data = self.cleaned_data
        mode = data["kingdom"]
        if mode == self.KINGDOM_RECOMMENDED:
            kingdom: Any = data["recommended_set"]
        elif mode == self.KINGDOM_PICK:
            kingdom = list(data["cards"])
        else:
            kingdom = "random"
        return {"kind": "dominion", "options": {"kingdom": kingdom}, **self.common_create_kwargs()}


class DomaineGameForm(GameOptionsForm):
    """Options for a new Domaine game: only the common ones (the engine has no options yet)."""

    kind = "domaine"
    offered_bots = ["greedy", "random"]

    def game_create_kwargs(self) -> dict[str, Any]:
        """Return the keyword arguments for ``services.game_create`` (without ``creator``)."""
        return {"kind": "domaine", "options": {}, **self.common_create_kwargs()}


#: Game kind -> its new-game form, for ``games.views.game_new``.
GAME_FORMS: dict[str, type[GameOptionsForm]] = {"dominion": DominionGameForm, "domaine": DomaineGameForm}


class ChatForm(forms.Form):
    """One chat line."""

    # "Required" would puzzle someone who typed only spaces (they are stripped).
    # One line: the text reaches the other players' chat emails, where a line break would start a line.
    text = forms.CharField(
        label=_("Message"),
        max_length=500,
        strip=True,
        validators=[validate_one_line],
        error_messages={"required": _("Write something first.")},
    )
