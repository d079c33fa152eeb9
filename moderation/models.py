"""Reports, the moderation audit trail, restrictions, hidden chat and on-site notices.

Only ``moderation.services`` writes these rows. ``ModerationAction`` is the
audit trail: one row per thing a moderator (or the site on a moderator's
behalf, such as the sweep forfeiting a banned player's seats) did; it is
append-only, and the admin offers no way to edit or delete it.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Report(models.Model):
    """A user's complaint about a chat message or a player.

    Attributes:
        reporter: who complained.
        reported: the player complained about (the message's author for a
            message).
        message: the chat message, for chat reports; kept when hidden.
        game: the game the complaint is about, if any (the message's game).
        reason: one of ``Reason``.
        comment: the reporter's words.
        status: open until a moderator resolves or dismisses it.
        handled_by, handled_at, note: who closed it, when, and what they
            said; the note is shown to the reporter.
    """

    class Reason(models.TextChoices):
        ABUSIVE_CHAT = "abusive_chat", _("Abusive chat")
        CHEATING = "cheating", _("Cheating or collusion")
        STALLING = "stalling", _("Stalling")
        OTHER = "other", _("Other")

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        RESOLVED = "resolved", _("Resolved")
        DISMISSED = "dismissed", _("Dismissed")

    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reports_made", verbose_name=_("reporter")
    )
    reported = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="reports_against",
        verbose_name=_("reported player"),
    )
    message = models.ForeignKey(
        "games.ChatMessage",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("message"),
    )
    game = models.ForeignKey(
        "games.Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="+", verbose_name=_("game")
    )
    reason = models.CharField(_("reason"), max_length=20, choices=Reason.choices)
    comment = models.TextField(_("comment"), max_length=2000, blank=True)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.OPEN)
    created = models.DateTimeField(_("created"), default=timezone.now)
    handled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("handled by"),
    )
    handled_at = models.DateTimeField(_("handled at"), null=True, blank=True)
    note = models.TextField(_("note"), blank=True)

    class Meta:
        verbose_name = _("report")
        verbose_name_plural = _("reports")
        ordering = ["-created"]
        indexes = [models.Index(fields=["status", "created"], name="report_queue_idx")]

    def __str__(self) -> str:
        return f"#{self.pk} {self.get_reason_display()} against {self.reported}"


class ModerationAction(models.Model):
    """One entry of the audit trail. Append-only: rows are never changed or deleted.

    Attributes:
        moderator: who acted; null when the site acted on a moderator's
            earlier decision (the sweep forfeiting a banned player's seats).
        action: one of ``Kind``.
        user, game, message, report: the targets, whichever apply.
        reason: the moderator's words.
        data: details (the ranks set, the seat forfeited, the ratings reversed...).
        created: when (UTC).
    """

    class Kind(models.TextChoices):
        REPORT_RESOLVE = "report_resolve", _("Report resolved")
        REPORT_DISMISS = "report_dismiss", _("Report dismissed")
        GAME_ABORT = "game_abort", _("Game aborted")
        GAME_ADJUDICATE = "game_adjudicate", _("Game adjudicated")
        SEAT_FORFEIT = "seat_forfeit", _("Seat forfeited")
        DEADLINE_EXTEND = "deadline_extend", _("Deadline extended")
        CLOCKS_PAUSE = "clocks_pause", _("Clocks paused")
        LOG_VIEW = "log_view", _("Full log viewed")
        USER_BAN = "user_ban", _("User banned")
        USER_UNBAN = "user_unban", _("Ban lifted")
        USER_MUTE = "user_mute", _("User muted")
        USER_UNMUTE = "user_unmute", _("Mute lifted")
        USER_WARN = "user_warn", _("User warned")
        RATING_REFUND = "rating_refund", _("Rating changes refunded")
        CHAT_HIDE = "chat_hide", _("Chat message hidden")
        TOURNAMENT_CREATE = "tournament_create", _("Tournament created")
        TOURNAMENT_CANCEL = "tournament_cancel", _("Tournament cancelled")
        TOURNAMENT_REMOVE = "tournament_remove", _("Player removed from a tournament")
        TOURNAMENT_ADJUST = "tournament_adjust", _("Tournament result adjusted")

    moderator = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("moderator"),
    )
    action = models.CharField(_("action"), max_length=20, choices=Kind.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("user"),
    )
    game = models.ForeignKey(
        "games.Game", null=True, blank=True, on_delete=models.PROTECT, related_name="+", verbose_name=_("game")
    )
    message = models.ForeignKey(
        "games.ChatMessage",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("message"),
    )
    report = models.ForeignKey(
        Report, null=True, blank=True, on_delete=models.PROTECT, related_name="actions", verbose_name=_("report")
    )
    reason = models.TextField(_("reason"), blank=True)
    data = models.JSONField(_("details"), default=dict, blank=True)
    created = models.DateTimeField(_("time"), default=timezone.now, db_index=True)

    class Meta:
        verbose_name = _("moderation action")
        verbose_name_plural = _("moderation actions")
        ordering = ["-created", "-pk"]
        # What the Moderators group may do beyond viewing rows; checked by
        # the moderation admin views, so other staff cannot reach the tools.
        permissions = [
            ("moderate_games", _("Can abort, adjudicate, forfeit and re-time games")),
            ("moderate_users", _("Can ban, mute, warn users and refund ratings")),
            ("moderate_chat", _("Can hide chat messages")),
            ("view_hidden_information", _("Can view a running game's hidden information")),
        ]

    def __str__(self) -> str:
        return f"{self.created:%Y-%m-%d %H:%M} {self.get_action_display()}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Insert the row; refuse to update it: the trail must stay as written."""
        if not self._state.adding:
            raise ValueError("Moderation actions are append-only")
        super().save(*args, **kwargs)

    def delete(self, *args: object, **kwargs: object) -> tuple[int, dict[str, int]]:
        """Refuse: the trail must stay as written."""
        raise ValueError("Moderation actions are append-only")


class RestrictionQuerySet(models.QuerySet):
    """Queries on restrictions."""

    def active(self, now: object = None) -> RestrictionQuerySet:
        """Restrictions in force at ``now`` (default: now): not lifted, not ended."""
        now = now or timezone.now()
        return self.filter(lifted__isnull=True, start__lte=now).filter(Q(end__isnull=True) | Q(end__gt=now))


class Restriction(models.Model):
    """A ban or a mute of one user, permanent (no ``end``) or until ``end``.

    Rows are kept after they end or are lifted, as the user's record.

    Attributes:
        kind: ``ban`` (cannot sign in, move or chat; their running seats
            forfeit) or ``mute`` (cannot chat).
        start, end: UTC; ``end`` null for a permanent one.
        lifted: when a moderator lifted it early (UTC), or null.
    """

    class Kind(models.TextChoices):
        BAN = "ban", _("Ban")
        MUTE = "mute", _("Mute")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="restrictions", verbose_name=_("user")
    )
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    start = models.DateTimeField(_("start"), default=timezone.now)
    end = models.DateTimeField(_("end"), null=True, blank=True)
    lifted = models.DateTimeField(_("lifted"), null=True, blank=True)
    reason = models.TextField(_("reason"), blank=True)
    moderator = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    objects = RestrictionQuerySet.as_manager()

    class Meta:
        verbose_name = _("restriction")
        verbose_name_plural = _("restrictions")
        ordering = ["-start"]
        indexes = [models.Index(fields=["user", "kind", "lifted"], name="restriction_user_idx")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} of {self.user_id}"


class HiddenMessage(models.Model):
    """A chat message a moderator hid: kept for the record, shown to moderators only."""

    message = models.OneToOneField(
        "games.ChatMessage", on_delete=models.CASCADE, related_name="moderation_hidden", verbose_name=_("message")
    )
    moderator = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    reason = models.TextField(_("reason"), blank=True)
    created = models.DateTimeField(_("hidden at"), default=timezone.now)

    class Meta:
        verbose_name = _("hidden message")
        verbose_name_plural = _("hidden messages")

    def __str__(self) -> str:
        return f"hidden message {self.message_id}"


class Notice(models.Model):
    """A message from the moderators to one user, shown once on their next visit.

    Attributes:
        text: already in the user's language (rendered when written).
        seen: when it was shown (UTC), or null while still to show.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="moderation_notices", verbose_name=_("user")
    )
    text = models.TextField(_("text"))
    created = models.DateTimeField(_("created"), default=timezone.now)
    seen = models.DateTimeField(_("seen"), null=True, blank=True)

    class Meta:
        verbose_name = _("notice")
        verbose_name_plural = _("notices")
        ordering = ["created", "pk"]
        indexes = [
            models.Index(fields=["user"], name="notice_unseen_idx", condition=Q(seen__isnull=True)),
        ]

    def __str__(self) -> str:
        return f"notice to {self.user_id}: {self.text[:40]}"
