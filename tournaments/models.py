"""Tournaments: who signed up, the rounds, the tables of each round and their results.

Only ``tournaments.services`` writes these rows. A table's game is an
ordinary ``games.Game`` (created through ``games.services``), so it is
clocked, emailed and rated like any other; this app only records which
game belongs to which table and the tournament points its result gave.
All times are aware UTC datetimes.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Tournament(models.Model):
    """One tournament, from its sign-up to its final standings.

    Attributes:
        name: shown everywhere (a moderator chooses it).
        kind, options: the game (``games.engine.registry`` name) and its
            engine options (from the game's tournaments part, ``tournaments.forms``), as a lobby game has.
        players_per_table: 2 for round robin and Swiss; 3 or 4 for multi-table rounds.
        system: ``round_robin``, ``swiss`` or ``multi_table``.
        double_round_robin: a round robin plays every pair twice, in both seat orders.
        final_table: a multi-table tournament's last round seats the leaders together.
        rounds: the number of rounds (a round robin's is set by its number of players).
        time_per_move, clock, increment: the games' time control (as ``games.services.game_create``).
        rated: its games count for the ladder.
        signup_closes: sign-up ends then; ``starts``: the first round is made
            then (by the beat task, ``tournaments.tasks.tick``).
        max_players, min_rating, max_rating, min_games, verified_only: entry limits (0/None: none).
        status: ``signup`` -> ``running`` -> ``finished`` (or ``cancelled``).
        current_round: the number of the last round made (0 before the start).
    """

    class System(models.TextChoices):
        ROUND_ROBIN = "round_robin", _("Round robin")
        SWISS = "swiss", _("Swiss")
        MULTI_TABLE = "multi_table", _("Multi-table rounds")

    class Status(models.TextChoices):
        SIGNUP = "signup", _("Open for sign-up")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")
        CANCELLED = "cancelled", _("Cancelled")

    name = models.CharField(_("name"), max_length=100)
    kind = models.CharField(_("game"), max_length=20)
    options = models.JSONField(default=dict, blank=True)
    players_per_table = models.PositiveSmallIntegerField(_("players per table"), default=2)
    system = models.CharField(_("system"), max_length=20, choices=System.choices)
    double_round_robin = models.BooleanField(_("both seat orders"), default=False)
    final_table = models.BooleanField(_("final table for the leaders"), default=False)
    rounds = models.PositiveSmallIntegerField(_("rounds"), default=5)
    time_per_move = models.DurationField(_("time per move"), default=timedelta(days=2))
    clock = models.CharField(max_length=10, default="move")
    increment = models.DurationField(default=timedelta(0))
    rated = models.BooleanField(_("rated"), default=True)
    signup_closes = models.DateTimeField(_("sign-up closes"))
    starts = models.DateTimeField(_("starts"))
    max_players = models.PositiveIntegerField(_("at most this many players"), default=0)
    min_rating = models.IntegerField(_("lowest rating"), null=True, blank=True)
    max_rating = models.IntegerField(_("highest rating"), null=True, blank=True)
    min_games = models.PositiveIntegerField(_("games finished at least"), default=0)
    verified_only = models.BooleanField(_("verified email only"), default=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.SIGNUP)
    current_round = models.PositiveSmallIntegerField(default=0)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+", verbose_name=_("created by")
    )
    created = models.DateTimeField(default=timezone.now)
    started = models.DateTimeField(null=True, blank=True)
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-starts", "-pk"]
        indexes = [models.Index(fields=["status", "starts"], name="tournament_status_idx")]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        """The tournament's page."""
        return reverse("tournaments:detail", kwargs={"tournament_id": self.pk})

    @property
    def is_signup(self) -> bool:
        """True while players may sign up."""
        return self.status == self.Status.SIGNUP

    @property
    def signup_open(self) -> bool:
        """True while players may sign up now: open, and its closing time not yet come (the beat may lag)."""
        return self.is_signup and timezone.now() < self.signup_closes

    @property
    def status_label(self) -> str:
        """The status as the pages show it, following the clock: "Sign-up closed" once sign-up has closed."""
        if self.is_signup and not self.signup_open:
            return str(_("Sign-up closed"))
        return str(self.get_status_display())

    @property
    def is_running(self) -> bool:
        """True between the first round and the end."""
        return self.status == self.Status.RUNNING


class Entry(models.Model):
    """A player's place in a tournament.

    Attributes:
        number: the starting number (1 = highest rated at the start), set when it starts.
        rating: the player's displayed rating when the tournament started (seeding).
        withdrawn: when the player withdrew or a moderator removed them (UTC);
            they are paired no more and their running games were forfeited.
        removed: a moderator removed the player (rather than they withdrew).
    """

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="tournament_entries")
    joined = models.DateTimeField(default=timezone.now)
    number = models.PositiveIntegerField(default=0)
    rating = models.IntegerField(default=1500)
    withdrawn = models.DateTimeField(null=True, blank=True)
    removed = models.BooleanField(default=False)

    class Meta:
        ordering = ["number", "joined", "pk"]
        constraints = [models.UniqueConstraint(fields=["tournament", "user"], name="entry_once_per_tournament")]

    def __str__(self) -> str:
        return f"{self.user} in {self.tournament}"

    @property
    def active(self) -> bool:
        """True while the player is still in the tournament."""
        return self.withdrawn is None


class Round(models.Model):
    """One round: its tables are made together; it is over when every table has its result."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    started = models.DateTimeField(default=timezone.now)
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="round_unique_number")]

    def __str__(self) -> str:
        return f"{self.tournament} round {self.number}"


class Table(models.Model):
    """A table of a round: one game, or a bye (one player, no game).

    Attributes:
        number: 1, 2, ... within the round (1 is the leaders' table).
        game: the game played at it (null for a bye).
        final: the final table of the leaders (multi-table tournaments).
        done: its result is recorded.
    """

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    game = models.OneToOneField(
        "games.Game", null=True, blank=True, on_delete=models.PROTECT, related_name="tournament_table"
    )
    final = models.BooleanField(default=False)
    done = models.BooleanField(default=False)

    class Meta:
        ordering = ["round__number", "number"]
        constraints = [models.UniqueConstraint(fields=["round", "number"], name="table_unique_number")]

    def __str__(self) -> str:
        return f"{self.round} table {self.number}"

    @property
    def is_bye(self) -> bool:
        """True for a bye: a player without a game this round."""
        return self.game_id is None


class TableSeat(models.Model):
    """A player at a table, and what the table gave them.

    Attributes:
        position: the game's seat index (0 moves first: "white" in Swiss colours).
        place: the finishing place in the game (1 = first; ties share), null until it ends.
        points: tournament points from that place (ties share; a bye gives 1).
        adjusted: a moderator set ``points`` by hand.
    """

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="table_seats")
    position = models.PositiveSmallIntegerField(default=0)
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    points = models.FloatField(null=True, blank=True)
    adjusted = models.BooleanField(default=False)

    class Meta:
        ordering = ["table", "position"]
        constraints = [models.UniqueConstraint(fields=["table", "entry"], name="tableseat_once")]

    def __str__(self) -> str:
        return f"{self.entry} at {self.table}"
