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
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from website.text import one_line, validate_one_line


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
        deleted: when the account was deleted (UTC). The row stays so that
            finished games keep their seats; the name shows as "deleted
            player" and the personal fields are wiped.
        bot_account: the account is played by a program through the API
            (``api``): its name is marked as a bot's wherever it shows, and
            it is not rated against people unless ``settings.HERALD_RATE_BOT_ACCOUNTS``.
    """

    # One line of visible text: it is shown on pages and in the plain-text part of emails (website.text).
    display_name = models.CharField(_("display name"), max_length=50, blank=True, validators=[validate_one_line])
    language = models.CharField(_("language"), max_length=10, blank=True, choices=settings.LANGUAGES)
    time_zone = models.CharField(_("time zone"), max_length=64, default="UTC", validators=[validate_time_zone])
    #: Standing answers for new games (JSON, read by each game's engine: a game
    #: whose rules ask out-of-turn questions keeps them here); ``{}`` means the defaults.
    standing_answers = models.JSONField(_("standing answers"), default=dict, blank=True, db_default={})
    deleted = models.DateTimeField(_("deleted"), null=True, blank=True, editable=False)
    # A database default too, so rows written without the ORM (the load seeder's COPY) need not name it.
    bot_account = models.BooleanField(_("bot account"), default=False, db_default=False)

    # django-stubs declare no Meta class on the abstract auth models, which Django has.
    class Meta(AbstractUser.Meta):  # type: ignore[name-defined]
        swappable = "AUTH_USER_MODEL"

    def __str__(self) -> str:
        return str(self.shown_name)

    @property
    def shown_name(self) -> str:
        """Return the name other players see ("deleted player" once the account is deleted).

        The display name passes through ``website.text.one_line``: a name
        saved before control characters were refused shows without them
        (its line breaks as spaces), so it cannot add lines to another
        player's email; one left empty by that shows the username. A bot
        account's name carries "(bot)".
        """
        if self.deleted is not None:
            return str(_("deleted player"))
        name = one_line(self.display_name) or self.username
        if self.bot_account:
            # Marked in the name itself, so every page, list and email that shows it says it is a bot.
            return str(_("%(name)s (bot)") % {"name": name})
        return name

    def get_absolute_url(self) -> str:
        """Return the profile page's path."""
        return reverse("accounts:profile", kwargs={"username": self.username})


class Block(models.Model):
    """``blocker`` does not want to play or chat with ``blocked``. Private: only the blocker sees it.

    A blocked user cannot join a game where the blocker sits, is not
    invited by them, and their chat is hidden from the blocker.
    """

    blocker = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocks_made")
    blocked = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="block_unique"),
            models.CheckConstraint(condition=~models.Q(blocker=models.F("blocked")), name="block_not_self"),
        ]
        indexes = [models.Index(fields=["blocked", "blocker"], name="block_blocked_idx")]

    def __str__(self) -> str:
        return f"{self.blocker_id} blocks {self.blocked_id}"
