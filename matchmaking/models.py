"""Finding a game: seeks, rematch offers, follows and kingdom bans.

Only ``matchmaking.services`` writes these rows. A seek ends in a game
made by ``games.services.game_create_arranged`` (the matcher) or
``game_create`` (bots after expiry); the game itself belongs to ``games``.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Seek(models.Model):
    """A player's wish for a game: the matcher seats compatible seeks together.

    Attributes:
        kind: the game (``Game.kind``: an installed game's name, ``games.kinds``).
        players_min, players_max: the table sizes accepted (2-4; 2 and 4 for "2-4").
        rated: rated or casual; only seeks that agree share a table.
        clock, time_per_move, increment: the time control, as ``games.models.Game``'s.
        rating_low, rating_high: the opponents' displayed ratings accepted,
            inclusive; null: no bound.
        created: when it was posted (UTC); the matcher weighs the wait from it.
        expires: when it lapses if nobody took it (UTC).
        fill_with_bots: a casual seek that starts a game with bots in the
            empty seats when it lapses, instead of ending with a notice.
        status: open, matched (``game`` is its table), expired (with a
            notice), filled (with bots: ``game``), cancelled.
    """

    class Status(models.TextChoices):
        OPEN = "open", _("Waiting for players")
        MATCHED = "matched", _("Matched")
        EXPIRED = "expired", _("Expired")
        FILLED = "filled", _("Filled with bots")
        CANCELLED = "cancelled", _("Cancelled")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="seeks")
    kind = models.CharField(max_length=20)
    players_min = models.PositiveSmallIntegerField(default=2)
    players_max = models.PositiveSmallIntegerField(default=2)
    rated = models.BooleanField(default=False)
    clock = models.CharField(max_length=10, default="move")
    time_per_move = models.DurationField(default=timedelta(days=1))
    increment = models.DurationField(default=timedelta(0))
    rating_low = models.IntegerField(null=True, blank=True)
    rating_high = models.IntegerField(null=True, blank=True)
    created = models.DateTimeField(default=timezone.now)
    expires = models.DateTimeField()
    fill_with_bots = models.BooleanField(default=False)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    game = models.ForeignKey("games.Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    ended = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["status", "expires"], name="seek_open_idx", condition=models.Q(status="open")),
            models.Index(fields=["user", "status"], name="seek_user_idx"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(players_min__gte=2, players_max__lte=4, players_min__lte=models.F("players_max")),
                name="seek_sizes",
            ),
        ]

    def __str__(self) -> str:
        return f"seek {self.pk} by {self.user_id}: {self.kind} {self.players_min}-{self.players_max} ({self.status})"

    @property
    def sizes(self) -> frozenset[int]:
        """The table sizes this seek accepts: 2, 3 or 4 alone, or 2 to 4 ("2-4" means any of them)."""
        return frozenset(range(self.players_min, self.players_max + 1))

    @property
    def is_open(self) -> bool:
        """True while the matcher may still seat it."""
        return self.status == self.Status.OPEN


class RematchOffer(models.Model):
    """A rematch ("play again"): the players of a finished game agreeing, one by one, to a new game.

    Attributes:
        game: the finished game (one offer per game).
        accepted: the ids of the players who accepted so far (the first is who offered).
        expires: when the offer lapses if not everyone accepted (UTC): a day after it was made.
        status: open, started (``new_game``), declined (``declined_by``), lapsed.
    """

    class Status(models.TextChoices):
        OPEN = "open", _("Waiting for the others")
        STARTED = "started", _("Started")
        DECLINED = "declined", _("Declined")
        LAPSED = "lapsed", _("Lapsed")

    game = models.OneToOneField("games.Game", on_delete=models.CASCADE, related_name="rematch_offer")
    accepted = models.JSONField(default=list, blank=True)
    created = models.DateTimeField(default=timezone.now)
    expires = models.DateTimeField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    new_game = models.ForeignKey("games.Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    declined_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        indexes = [models.Index(fields=["status", "expires"], name="rematch_open_idx")]

    def __str__(self) -> str:
        return f"rematch of {self.game_id} ({self.status})"


class Follow(models.Model):
    """``follower`` follows ``followed``: the lobby lists the followed player's games. Not shown to them."""

    follower = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="follows")
    followed = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["follower", "followed"], name="follow_unique"),
            models.CheckConstraint(condition=~models.Q(follower=models.F("followed")), name="follow_not_self"),
        ]

    def __str__(self) -> str:
        return f"{self.follower_id} follows {self.followed_id}"


class KingdomBans(models.Model):
    """The options a player never wants in a random set-up drawn for a seek or a rematch (kingdom cards).

    Attributes:
        cards: up to ``matchmaking.services.MAX_BANS`` values, each an installed game's bannable option
            (its matchmaking part's ``BANNABLE``, ``matchmaking.limits``).
    """

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="kingdom_bans")
    cards = models.JSONField(default=list, blank=True)

    class Meta:
        verbose_name = _("kingdom bans")
        verbose_name_plural = _("kingdom bans")

    def __str__(self) -> str:
        return f"kingdom bans of {self.user_id}"
