"""Forms for creating games and posting chat.

The new-game form is :class:`GameOptionsForm`, the options every game shares;
a game adds its own in its ``options`` part (``Form``, a subclass), found by
:func:`options_form`.
"""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any, cast

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games.bots import engine_bots
from games.i18n import bot_name
from games.kinds import GameKind
from games.models import Game
from games.services import TIME_CONTROLS
from website.text import validate_one_line

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


class GameOptionsForm(forms.Form):
    """The options every game offers: players, time per move, rated, who may join, bot seats.

    A game's ``options`` part subclasses it (``Form``) with its own fields, their cleaning
    (``clean``, calling this one's), :meth:`game_options` and, to draw its fields on the page,
    ``fields_template``. A game without the part gets this form as it is (no options).

    Args:
        kind: the game's name (``Game.kind``), for :meth:`game_create_kwargs`.
        bots: the bot names offered for the other seats (:func:`offered_bots`).
    """

    #: Bots offered for the other seats, in order (only those the engine has are shown; empty: all of them).
    offered_bots: list[str] = []
    #: The template that draws the game's own fields inside the form ("" for none).
    fields_template = ""

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

    def __init__(self, *args: Any, kind: str = "", bots: list[str] | None = None, **kwargs: Any) -> None:
        """Build the form for game ``kind``; ``bots`` are the bot names offered for a seat."""
        super().__init__(*args, **kwargs)
        self.kind = kind
        # Labels are built per request so they follow the active language.
        cast(forms.ChoiceField, self.fields["time_per_move"]).choices = [
            (int(d.total_seconds()), time_control_label(d)) for d in TIME_CONTROLS
        ]
        cast(forms.ChoiceField, self.fields["increment"]).choices = [
            (int(d.total_seconds()), time_control_label(d)) for d in FISCHER_INCREMENTS
        ]

        bot_choices = [(HUMAN, _("A person"))] + [(name, bot_name(name)) for name in (bots or [])]
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

    def game_options(self) -> dict[str, Any]:
        """Return the game's options (``Game.options``, checked by its engine) from the cleaned data: none here."""
        return {}

    def game_create_kwargs(self) -> dict[str, Any]:
        """Return ``games.services.game_create``'s arguments (but ``creator``) from the cleaned data."""
        return {"kind": self.kind, "options": self.game_options(), **self.common_create_kwargs()}


def options_form(kind: GameKind) -> type[GameOptionsForm]:
    """Return game ``kind``'s new-game form: its ``options`` part's ``Form``, else the common options alone.

    The part (``<package>/options.py``, docs/games.md) defines ``Form``, a subclass of
    :class:`GameOptionsForm` with the game's own fields, their cleaning and ``game_options``.
    """
    part = kind.part("options")
    form: type[GameOptionsForm] = getattr(part, "Form", GameOptionsForm)
    return form


def offered_bots(kind: GameKind, form_class: type[GameOptionsForm]) -> list[str]:
    """Return the bots the new-game form of ``kind`` offers for a seat: the game's levels, weakest first
    (docs/bots.md), else the form's ``offered_bots`` (all the engine's bots if it names none); only those
    the engine has, in that order."""
    engine_has = engine_bots(kind.engine())  # a broken bots module offers none, and the form still works
    wanted = kind.bot_levels or form_class.offered_bots or list(engine_has)
    return [name for name in wanted if name in engine_has]


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
