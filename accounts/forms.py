"""Forms for the settings page and account deletion."""

from __future__ import annotations

import zoneinfo
from functools import cache
from typing import Any, cast

from allauth.account import forms as allauth_forms
from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from accounts.services import user_settings_update
from website.text import validate_one_line


@cache
def time_zone_choices() -> list[tuple[str, str]]:
    """Every IANA time zone, sorted, as form choices (computed once per process)."""
    names = sorted(zoneinfo.available_timezones() - {"localtime", "Factory"})
    return [(name, name.replace("_", " ")) for name in names]


class SettingsForm(forms.Form):
    """Display name, language and time zone."""

    display_name = forms.CharField(
        label=_("Display name"),
        max_length=50,
        required=False,
        validators=[validate_one_line],
        help_text=_("Shown to other players instead of your username. Leave blank to use your username."),
    )
    language = forms.ChoiceField(
        label=_("Language"),
        required=False,
        choices=[("", _("As my browser asks"))],
    )
    time_zone = forms.ChoiceField(
        label=_("Time zone"), help_text=_("Every date and time on the site is shown in this zone.")
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Languages in their own names, so anyone can find theirs.
        from django.utils.translation import get_language_info

        cast(forms.ChoiceField, self.fields["language"]).choices = [("", _("As my browser asks"))] + [
            (code, get_language_info(code)["name_local"]) for code, _name in settings.LANGUAGES
        ]
        cast(forms.ChoiceField, self.fields["time_zone"]).choices = time_zone_choices()

    @classmethod
    def for_user(cls, user: User, data: Any = None) -> SettingsForm:
        """Return the form bound to ``data`` (a POST) or filled in from ``user``."""
        return cls(
            data,
            initial={"display_name": user.display_name, "language": user.language, "time_zone": user.time_zone},
        )


class DeleteAccountForm(forms.Form):
    """Confirm deletion with the password and a check box."""

    password = forms.CharField(
        label=_("Your password"), widget=forms.PasswordInput(attrs={"autocomplete": "current-password"})
    )
    confirm = forms.BooleanField(
        label=_("I understand that my account will be deleted and cannot be restored."), required=True
    )

    def __init__(self, *args: Any, user: User, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_password(self) -> str:
        """Refuse a wrong password."""
        password = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError(_("That is not your password."))
        return password


class LoginForm(allauth_forms.LoginForm):
    """allauth's sign-in form with its login field named for what it takes ("Username or email").

    allauth labels the field "Login" when both are accepted
    (``ACCOUNT_LOGIN_METHODS``), a word new users did not read as "your
    username or your email address" (walk-through report).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["login"].label = _("Username or email")


class SignupForm(allauth_forms.SignupForm):
    """allauth's sign-up, plus the time zone the browser reports (a hidden field filled by ``herald.js``).

    A new player's dates and deadlines are then in their own zone from the
    first email on, instead of UTC until they find the settings page. An
    unknown or missing zone (no JavaScript) keeps the default, UTC; the
    settings page changes it any time.
    """

    time_zone = forms.CharField(required=False, widget=forms.HiddenInput(attrs={"data-browser-time-zone": ""}))

    def clean_time_zone(self) -> str:
        """The posted zone if it is an IANA name this server knows, else ""."""
        zone = self.cleaned_data.get("time_zone") or ""
        return zone if zone in dict(time_zone_choices()) else ""

    def save(self, request: Any) -> User:
        """Create the user as allauth does, then keep the browser's time zone."""
        user = super().save(request)
        zone = self.cleaned_data.get("time_zone")
        if zone and zone != user.time_zone:
            user_settings_update(user=user, display_name=user.display_name, language=user.language, time_zone=zone)
        return user
