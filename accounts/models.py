"""The user model.

A custom user model from the first migration, because swapping it later is
painful. Everything else about a user (ratings, notification settings) will
hang off it in this app.
"""

from __future__ import annotations

import zoneinfo

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _


def validate_time_zone(value: str) -> None:
    """Raise ValidationError unless ``value`` is an IANA time zone name."""
    if value not in zoneinfo.available_timezones():
        raise ValidationError(_("%(value)s is not a known time zone."), params={"value": value})


class User(AbstractUser):
    """A person who plays, watches or moderates.

    Attributes:
        display_name: shown instead of the username where set.
        language: preferred language code (one of ``settings.LANGUAGES``), or
            blank to follow the browser.
        time_zone: IANA name; dates are stored in UTC and shown in this zone.
    """

    display_name = models.CharField(_("display name"), max_length=50, blank=True)
    language = models.CharField(_("language"), max_length=10, blank=True, choices=settings.LANGUAGES)
    time_zone = models.CharField(_("time zone"), max_length=64, default="UTC", validators=[validate_time_zone])

    class Meta(AbstractUser.Meta):
        swappable = "AUTH_USER_MODEL"

    def __str__(self) -> str:
        return self.display_name or self.username

    @property
    def shown_name(self) -> str:
        """Return the name other players see."""
        return self.display_name or self.username
