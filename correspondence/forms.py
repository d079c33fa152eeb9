"""Forms for email settings and vacations."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from correspondence.models import NotificationSettings
from correspondence.services import VACATION_DAYS_PER_YEAR


class NotificationSettingsForm(forms.ModelForm):
    """Which emails to get, and how the your-move ones come."""

    class Meta:
        model = NotificationSettings
        fields = [
            "your_move",
            "game_started",
            "invited",
            "game_over",
            "time_low",
            "timed_out",
            "cancelled",
            "chat",
            "tournament",
            "seek_expired",
            "rematch",
            "push",
        ]
        widgets = {"your_move": forms.RadioSelect}


class VacationForm(forms.Form):
    """How many days of vacation to start now."""

    days = forms.IntegerField(label=_("Days"), min_value=1, max_value=VACATION_DAYS_PER_YEAR, initial=7)
