"""Forms: a user's report, and the moderators' action forms in the admin."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from moderation.models import Report
from website.text import validate_multiline

# Reasons and notes reach users' emails: several lines are fine, other control characters are not.
REASON_FIELD = forms.CharField(
    label=_("Reason"), widget=forms.Textarea(attrs={"rows": 3}), max_length=2000, validators=[validate_multiline]
)


class ReportForm(forms.Form):
    """What a user says about a message or a player."""

    reason = forms.ChoiceField(label=_("Reason"), choices=Report.Reason.choices, widget=forms.RadioSelect)
    comment = forms.CharField(
        label=_("Comment"),
        widget=forms.Textarea(attrs={"rows": 4}),
        max_length=2000,
        required=False,
        validators=[validate_multiline],
        help_text=_("What happened? Moderators read every report."),
    )


class ReasonForm(forms.Form):
    """A moderator's reason, for actions on a selection of rows."""

    reason = REASON_FIELD


class ReportCloseForm(forms.Form):
    """Close a report as resolved or dismissed, with a note for the reporter."""

    status = forms.ChoiceField(
        label=_("Outcome"),
        choices=[
            (Report.Status.RESOLVED, Report.Status.RESOLVED.label),
            (Report.Status.DISMISSED, Report.Status.DISMISSED.label),
        ],
    )
    note = forms.CharField(
        label=_("Note for the reporter"),
        widget=forms.Textarea(attrs={"rows": 3}),
        required=False,
        validators=[validate_multiline],
    )


class GameActionForm(forms.Form):
    """One moderator action on a game; the fields used depend on ``action``."""

    ACTIONS = [
        ("abort", _("Abort (no rating change; applied changes are reversed)")),
        ("adjudicate", _("Adjudicate (set the ranks)")),
        ("forfeit", _("Forfeit a seat")),
        ("extend", _("Extend the deadline")),
        ("pause", _("Pause the clocks until")),
        ("refund", _("Refund the rating changes to everyone but a seat's player")),
    ]

    action = forms.ChoiceField(label=_("Action"), choices=ACTIONS)
    # Seats are numbered from 1, as on the game page (a stored position is 0-based).
    position = forms.IntegerField(
        label=_("Seat number, from 1 (for forfeit, extend, refund)"), min_value=1, max_value=4, required=False
    )
    hours = forms.IntegerField(label=_("Hours (extend)"), min_value=1, max_value=24 * 60, required=False)
    until = forms.DateTimeField(label=_("Until (pause), UTC"), required=False)
    ranks = forms.CharField(
        label=_("Ranks (adjudicate)"), required=False, help_text=_("One rank per seat in seat order, e.g. 2,1,3.")
    )
    reason = REASON_FIELD
    # Set only by the page that asks "Abort game #N?" (``needs_confirmation``): an abort cannot be undone.
    confirm = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def needs_confirmation(self) -> bool:
        """True when the valid form would abort the game but the moderator has not confirmed it yet."""
        return self.cleaned_data.get("action") == "abort" and not self.cleaned_data.get("confirm")

    def clean_ranks(self) -> list[int] | None:
        """Parse "2,1,3" into ranks by seat position."""
        raw = self.cleaned_data.get("ranks") or ""
        if not raw.strip():
            return None
        try:
            return [int(x) for x in raw.replace(" ", "").split(",")]
        except ValueError:
            raise forms.ValidationError(_("Write whole numbers separated by commas.")) from None

    def clean_position(self) -> int | None:
        """The seat number as typed (from 1), as the stored 0-based position."""
        seat = self.cleaned_data.get("position")
        return None if seat is None else seat - 1

    def clean(self) -> dict[str, Any]:
        """Require the fields the chosen action needs."""
        super().clean()
        data = self.cleaned_data
        needs = {
            "adjudicate": "ranks",
            "forfeit": "position",
            "pause": "until",
            "extend": "hours",
            "refund": "position",
        }
        field = needs.get(data.get("action", ""))
        if field and data.get(field) in (None, ""):
            self.add_error(field, _("This action needs this field."))
        return data


class UserActionForm(forms.Form):
    """One moderator action on a user."""

    ACTIONS = [
        ("warn", _("Warn")),
        ("mute", _("Mute (no chat)")),
        ("unmute", _("Lift the mute")),
        ("ban", _("Ban")),
        ("unban", _("Lift the ban")),
    ]

    action = forms.ChoiceField(label=_("Action"), choices=ACTIONS)
    until = forms.DateTimeField(
        label=_("Until, UTC (empty: permanent)"), required=False, help_text=_("For a temporary ban or mute.")
    )
    reason = REASON_FIELD
