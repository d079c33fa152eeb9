"""Personal access tokens and the event stream's rows.

Only ``api.tokens`` and ``api.stream`` write these rows.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

#: What a token may do: read (everything it is shown), play (create, join, leave, move), chat.
SCOPES = ("read", "play", "chat")


class ApiToken(models.Model):
    """A personal access token: ``Authorization: Bearer <token>`` acts as its user, within its scopes.

    The token itself is shown once, when it is made; only its SHA-256 digest
    is stored (the token is 256 random bits, so a fast hash is enough: there
    is nothing to guess). ``prefix`` (its first characters) lets the settings
    page tell tokens apart.

    Attributes:
        name: the user's label for it ("my terminal client").
        scopes: a subset of ``SCOPES``.
        created, last_used, revoked: UTC; ``last_used`` is updated at most
            once a minute; a revoked token is refused from then on.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(_("name"), max_length=60)
    prefix = models.CharField(max_length=16)
    digest = models.CharField(max_length=64, unique=True)
    scopes = models.JSONField(default=list)
    created = models.DateTimeField(default=timezone.now)
    last_used = models.DateTimeField(null=True, blank=True)
    revoked = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created", "-pk"]
        indexes = [models.Index(fields=["user", "revoked"], name="apitoken_user_idx")]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    @property
    def is_active(self) -> bool:
        """True until the token is revoked."""
        return self.revoked is None


class StreamEvent(models.Model):
    """One line of a user's event stream: something happened in one of their games.

    Written in the transaction of the change (``api.stream``), only for
    users who hold an unrevoked token, and read by ``GET /api/v1/events``
    with the last id seen as the cursor.

    Attributes:
        kind: "started", "move", "your_move", "forfeit", "game_over", "cancelled", "chat", "undo_asked".
        seq: the game's ``last_seq`` when it happened.
        data: a few public details (the chat message's id, the seats to act).
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=20)
    seq = models.PositiveIntegerField(default=0)
    data = models.JSONField(default=dict, blank=True)
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["pk"]
        indexes = [models.Index(fields=["user", "id"], name="streamevent_user_idx")]

    def __str__(self) -> str:
        return f"{self.user_id} {self.kind} {self.game_id}@{self.seq}"
