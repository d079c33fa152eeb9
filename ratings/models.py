"""Ratings: one openskill Plackett-Luce ladder per game kind.

Only ``ratings.services`` writes these rows. ``Rating`` is a player's
current belief (mu, sigma) on one ladder as of their last rated game;
``RatingChange`` is the append-only history, one row per (game, player),
from which ``ratings.services.ratings_recompute`` can rebuild every
``Rating``. Sigma grows with inactivity when read (see
``ratings.services.inflate_sigma``), so the stored sigma is the value right
after ``last_played``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Rating(models.Model):
    """A player's standing on one ladder (a game kind).

    Attributes:
        kind: the game kind (``Game.kind``: an installed game's name, ``games.kinds``).
        mu, sigma: the openskill belief right after ``last_played``.
        games: rated games played on this ladder; provisional below
            ``settings.RATING_PROVISIONAL_GAMES``.
        last_played: ``Game.finished`` (UTC) of the last rated game.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings")
    kind = models.CharField(_("game"), max_length=20)
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField(default=0)
    last_played = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "kind"], name="rating_unique_user_kind")]
        indexes = [models.Index(fields=["kind", "games", "last_played"], name="rating_ladder_idx")]

    def __str__(self) -> str:
        return f"{self.user} {self.kind}: {self.mu:.2f}/{self.sigma:.2f}"


class RatingChange(models.Model):
    """What one rated game did to one player's rating. Append-only.

    Attributes:
        kind: the ladder (the game's kind), denormalised for the history chart.
        at: the game's ``finished`` timestamp (UTC), denormalised likewise.
        rank: the rank the rating used (1 = best; ties share a rank;
            forfeited seats ranked after everyone else).
        mu_before, sigma_before: the belief going into the game, sigma
            already grown for inactivity up to ``at``.
        mu_after, sigma_after: the belief after the game.
        display_before, display_after: the displayed (conservative, scaled)
            rating before and after.
        reversed: when a moderator reversed this change (the game was
            aborted, or its result refunded to this player), or null. A
            reversed row is kept as the record but no longer counts: the
            player's rating is as if they had not played the game.
    """

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="rating_changes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes")
    kind = models.CharField(max_length=20)
    at = models.DateTimeField()
    rank = models.PositiveSmallIntegerField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    display_before = models.IntegerField()
    display_after = models.IntegerField()
    reversed = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["at", "pk"]
        constraints = [models.UniqueConstraint(fields=["game", "user"], name="ratingchange_unique_game_user")]
        indexes = [models.Index(fields=["user", "kind", "at"], name="ratingchange_history_idx")]

    def __str__(self) -> str:
        return f"{self.user} {self.game}: {self.display_before} -> {self.display_after}"

    @property
    def delta(self) -> int:
        """The change of the displayed rating."""
        return self.display_after - self.display_before


class BotLevelRating(models.Model):
    """How strong one bot level of one game is, as ``manage.py bot_ladder`` last measured it (``ratings.botladder``).

    Attributes:
        kind: the game (``Game.kind``).
        level: the bot's name, one of the game's levels ("level3").
        mu, sigma: its openskill belief after the ladder's games (the players' model and start).
        games, points: games it played in the run and its points (a win 1, a draw one half).
        versus: other level -> ``{"games": n, "points": p}`` against it.
        moves, cpu_seconds: moves it made in the run and their CPU time (seconds).
        games_per_pair: games each pair of levels played.
        measured: when the run was stored (UTC).
    """

    kind = models.CharField(_("game"), max_length=20)
    level = models.CharField(max_length=20)
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField()
    points = models.FloatField()
    versus = models.JSONField(default=dict)
    moves = models.PositiveIntegerField()
    cpu_seconds = models.FloatField()
    games_per_pair = models.PositiveIntegerField()
    measured = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["kind", "level"], name="botlevel_unique_kind_level")]

    def __str__(self) -> str:
        return f"{self.kind} {self.level}: {self.mu:.2f}/{self.sigma:.2f}"
