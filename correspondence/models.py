"""The notification outbox, per-user notification settings and vacations.

Only ``correspondence.services`` writes these rows. A ``Notification`` row
is written in the same transaction as the move (or sweep) that causes it,
so what must be sent survives a broker outage or a worker crash; the
senders only ever turn a pending row into a sent (or skipped) one.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Notification(models.Model):
    """One message that must reach one user about one event of one game.

    Attributes:
        kind: what happened (``Kind``).
        seq: the sequence number the event is about: the game's ``last_seq``
            when it became the user's move, the clock's start for a
            warning, the chat message id for chat, the forfeited seat's
            position for a timeout or resignation, the request id for an undo
            request; with (user, game, kind)
            it makes the event's key, so each event is sent at most once.
        data: what the email needs beyond the game (``{"position": 2}`` for
            a timeout).
        status: ``pending`` until sent, ``sending`` while a sender has
            claimed it (``claimed_at``), ``digest`` while waiting for the
            daily digest, ``deferred`` while a "your move" waits because its
            player has the game open (``games.presence``; tried again later),
            ``sent``, ``skipped`` (no longer relevant, or turned off by the user) or ``failed`` (given up on).
        created, sent_at: UTC timestamps; ``sent_at`` is set only after the
            mail backend accepted the message.
        claimed_at: UTC, when a sender claimed the row (status ``sending``);
            also the claim's token, so only that sender marks it. A claim
            older than ``correspondence.outbox.CLAIM_TIMEOUT`` is taken to
            be a dead sender's and may be claimed again.
        attempts, last_error: the sender's failed tries, for the sweep's
            give-up rule and for admins.
        channel: how it reaches the user: ``email``, or ``push`` (Web Push to
            every browser the user turned notifications on in,
            ``PushSubscription``). One row per channel, each claimed, sent and
            marked on its own.
    """

    class Kind(models.TextChoices):
        YOUR_MOVE = "your_move", _("Your move")
        GAME_STARTED = "game_started", _("Game started")
        GAME_OVER = "game_over", _("Game over")
        TIME_LOW = "time_low", _("You are running out of time")
        TIMED_OUT = "timed_out", _("A player timed out")
        CANCELLED = "cancelled", _("Game cancelled")
        CHAT = "chat", _("Chat message while you are away")
        UNDO_ASKED = "undo_asked", _("A player asks to take back a move")
        #: Written by apps above games (tournaments) through ``outbox.notify_other``; their
        #: words come from the renderer they registered (``emails.register_content``).
        TOURNAMENT = "tournament", _("News of your tournaments")
        INVITED = "invited", _("You were invited to a game")
        #: Written by ``matchmaking`` (``outbox.notify_other``, no game: ``seq`` is the seek's id).
        SEEK_EXPIRED = "seek_expired", _("Your seek expired")
        #: Written by ``matchmaking``: keyed on the finished game, ``seq`` is the offer's id.
        REMATCH = "rematch", _("A rematch is offered")

    class Channel(models.TextChoices):
        EMAIL = "email", _("Email")
        PUSH = "push", _("Browser notification")

    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        SENDING = "sending", _("Being sent")
        DIGEST = "digest", _("Waiting for the daily digest")
        DEFERRED = "deferred", _("Waiting: the player has the game open")
        SENT = "sent", _("Sent")
        SKIPPED = "skipped", _("Skipped")
        FAILED = "failed", _("Failed")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications")
    #: Null for news about no game (an expired seek: ``seq`` then tells the pieces of news apart).
    game = models.ForeignKey(
        "games.Game", null=True, blank=True, on_delete=models.CASCADE, related_name="notifications"
    )
    kind = models.CharField(max_length=20, choices=Kind.choices)
    seq = models.PositiveIntegerField()
    data = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    created = models.DateTimeField(default=timezone.now)
    sent_at = models.DateTimeField(null=True, blank=True)
    claimed_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    last_error = models.TextField(blank=True)
    channel = models.CharField(max_length=8, choices=Channel.choices, default=Channel.EMAIL, db_default="email")

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "game", "kind", "seq", "channel"], name="notification_once_per_event_channel"
            ),
            # The same key for news about no game (NULLs are distinct in the constraint above).
            models.UniqueConstraint(
                fields=["user", "kind", "seq", "channel"],
                condition=models.Q(game__isnull=True),
                name="notification_once_per_news_channel",
            ),
        ]
        indexes = [
            # The outbox sweep and the digest: only rows still to send.
            models.Index(
                fields=["status", "created"],
                name="notification_unsent_idx",
                condition=models.Q(status__in=["pending", "digest", "sending", "deferred"]),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} by {self.channel} to {self.user_id} about {self.game_id}#{self.seq} ({self.status})"


class NotificationSettings(models.Model):
    """Which emails a user wants. Users without a row get the defaults.

    Attributes:
        your_move: ``immediate`` (one email per move), ``digest`` (one email
            a day listing the games waiting on you) or ``never``.
        game_started, game_over, time_low, timed_out, cancelled, chat, invited,
            tournament, seek_expired, rematch: on/off per kind (chat is off unless asked for).
        push: whatever is on above also comes as a browser notification
            (Web Push) on the devices where the user turned them on; with
            the daily digest, each move is still pushed (the digest is how
            the emails come).
    """

    class YourMove(models.TextChoices):
        IMMEDIATE = "immediate", _("Immediately")
        DIGEST = "digest", _("As one daily digest")
        NEVER = "never", _("Never")

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notification_settings"
    )
    your_move = models.CharField(
        _("When it is your move"), max_length=10, choices=YourMove.choices, default=YourMove.IMMEDIATE
    )
    game_started = models.BooleanField(_("A game of yours started"), default=True)
    game_over = models.BooleanField(_("A game of yours ended"), default=True)
    time_low = models.BooleanField(_("You are running out of time"), default=True)
    timed_out = models.BooleanField(_("A player in your game timed out"), default=True)
    cancelled = models.BooleanField(_("Your game was cancelled"), default=True)
    chat = models.BooleanField(_("A chat message while you are away"), default=False)
    tournament = models.BooleanField(_("News of your tournaments (start, rounds, result)"), default=True)
    invited = models.BooleanField(_("Someone invited you to a game"), default=True, db_default=True)
    seek_expired = models.BooleanField(_("A seek of yours expired with nobody to play"), default=True, db_default=True)
    rematch = models.BooleanField(_("A player offers a rematch"), default=True, db_default=True)
    push = models.BooleanField(
        _("Also as a notification on the devices where you turned them on"), default=True, db_default=True
    )

    class Meta:
        verbose_name = _("notification settings")
        verbose_name_plural = _("notification settings")

    def __str__(self) -> str:
        return f"notification settings of {self.user_id}"

    def wants(self, kind: str) -> bool:
        """True if the user wants emails of ``kind`` at all (a digest counts as wanting)."""
        if kind in (Notification.Kind.YOUR_MOVE, Notification.Kind.UNDO_ASKED):
            # A request to take moves back waits on this person as a move does.
            return self.your_move != self.YourMove.NEVER
        return bool(getattr(self, kind, False))


class PushSubscription(models.Model):
    """One browser's Web Push subscription (what ``PushManager.subscribe`` gave it).

    Attributes:
        endpoint: the push service's URL for this browser (unique: a browser
            that subscribes again replaces its row).
        p256dh, auth: the browser's public key and secret (base64url), which
            encrypt the payload (RFC 8291) so the push service cannot read it.
        created, last_sent: UTC; ``last_sent`` when a push service last accepted a message.

    A row is deleted when the push service answers 404 or 410 (the
    subscription expired or the user revoked it), or when the user turns
    notifications off in that browser.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions")
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=100)
    created = models.DateTimeField(default=timezone.now)
    last_sent = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("browser push subscription")
        verbose_name_plural = _("browser push subscriptions")

    def __str__(self) -> str:
        return f"push subscription {self.pk} of {self.user_id}"


class Vacation(models.Model):
    """A stretch of time during which a user's clocks stand still.

    Attributes:
        start, end: UTC; ``end`` is brought forward when the user comes back
            early, and the days charged are those actually taken.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="vacations")
    start = models.DateTimeField()
    end = models.DateTimeField()

    class Meta:
        ordering = ["-start"]
        indexes = [models.Index(fields=["user", "end"], name="vacation_user_end_idx")]
        constraints = [
            models.CheckConstraint(condition=models.Q(end__gt=models.F("start")), name="vacation_ends_after_start")
        ]

    def __str__(self) -> str:
        return f"vacation of {self.user_id}: {self.start:%Y-%m-%d} to {self.end:%Y-%m-%d}"
