"""Games, seats, the move log and chat.

Only ``games.services`` writes these rows; views and templates read them.
The rules live in ``games.engine``; a game's state is never stored, only its
options, seed and move log, from which ``services.state_at`` rebuilds it.
"""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.i18n import bot_name


def new_seed() -> int:
    """Return a fresh secret seed that fits a signed 64-bit column."""
    return secrets.randbits(63)


class Game(models.Model):
    """One game of any kind, from its creation to its end.

    Attributes:
        kind: the installed game's name (``games.kinds``; also its engine's name in ``games.engine.registry``).
        options: the engine's options; concrete (e.g. a random kingdom made
            into a card list) once the game has started.
        seed: secret seed of the game's randomness; never rendered while the
            game runs (``services.game_record`` includes it once finished).
        engine_version: ``engine.version`` when the game started.
        created, started, finished: UTC timestamps.
        clock: "move" (a fixed allowance per move) or "fischer" (a bank per
            player that every move tops up by ``increment``).
        time_per_move: the allowance per move, or a Fischer clock's starting
            bank (also its cap).
        increment: what a Fischer clock adds to the bank after each move.
        last_seq: seq of the last Action, 0 before the first move.
        to_act: seat positions that owe a decision now (denormalised from the
            engine's ``pending``).
        deadline: the earliest of the seats' deadlines (for sorting lists), or null.
        forced_due: when the move that needs no thought (End turn after the
            last Buy) is made for the player, who may take their move back
            until then (``games.grace``); null when none waits (UTC).
        frozen_reason: why a frozen game stopped (status ``frozen``: its log no
            longer replays under its engine version); for moderators, never shown to players.
        cancel_reason: why an aborted game was cancelled (``events.GameCancelled.why``:
            "creator", "expired", "moderator", "event", "move_0"); "" otherwise, and for
            games cancelled before it was kept.
    """

    class Clock(models.TextChoices):
        MOVE = "move", _("Fixed time per move")
        FISCHER = "fischer", _("Fischer clock")

    class Status(models.TextChoices):
        OPEN = "open", _("Waiting for players")
        ACTIVE = "active", _("In progress")
        FINISHED = "finished", _("Finished")
        ABORTED = "aborted", _("Cancelled")
        #: The log no longer replays under the game's engine version: no moves, clocks stopped,
        #: until a moderator adjudicates or cancels it (``games.lifecycle.game_freeze``).
        FROZEN = "frozen", _("Stopped: waiting for a moderator")

    kind = models.CharField(max_length=20)
    options = models.JSONField(default=dict, blank=True)
    seed = models.BigIntegerField(default=new_seed, editable=False)
    engine_version = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    created = models.DateTimeField(default=timezone.now)
    started = models.DateTimeField(null=True, blank=True)
    finished = models.DateTimeField(null=True, blank=True)
    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="created_games"
    )
    rated = models.BooleanField(default=False)
    private = models.BooleanField(default=False, help_text=_("Only invited players may join or watch."))
    clock = models.CharField(max_length=10, choices=Clock.choices, default=Clock.MOVE)
    time_per_move = models.DurationField(default=timedelta(days=1))
    increment = models.DurationField(default=timedelta(0))
    max_players = models.PositiveSmallIntegerField(default=2)
    last_seq = models.PositiveIntegerField(default=0)
    to_act = models.JSONField(default=list, blank=True)
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    #: When the move that needs no thought after a player's last move (End turn after the last Buy)
    #: is made for them unless they make it or take their move back first (``games.grace``); null: none.
    forced_due = models.DateTimeField(null=True, blank=True)
    # A database default too, so the load seeder's COPY need not name it.
    frozen_reason = models.CharField(max_length=500, blank=True, default="", db_default="")
    cancel_reason = models.CharField(max_length=10, blank=True, default="", db_default="")

    class Meta:
        indexes = [
            # Lobby: open and recently finished games, newest first.
            models.Index(fields=["status", "private", "-created"], name="game_lobby_idx"),
            models.Index(fields=["status", "-finished"], name="game_finished_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} #{self.pk}"

    def get_absolute_url(self) -> str:
        """Return the game page's path."""
        return reverse("games:detail", kwargs={"game_id": self.pk})

    @property
    def is_open(self) -> bool:
        """True while players may still join."""
        return self.status == self.Status.OPEN

    @property
    def is_active(self) -> bool:
        """True while moves are being played."""
        return self.status == self.Status.ACTIVE

    @property
    def seats_free(self) -> int:
        """Seats still to fill (uses prefetched seats when present)."""
        return max(0, self.max_players - len(self.seats.all()))

    @property
    def is_frozen(self) -> bool:
        """True while the game waits for a moderator because its log no longer replays."""
        return self.status == self.Status.FROZEN

    @property
    def aborted_at_move_0(self) -> bool:
        """True for a game aborted because a seat left it at move 0 (``games.leaving.at_move_0``)."""
        return self.status == self.Status.ABORTED and self.cancel_reason == "move_0"

    @property
    def is_finished(self) -> bool:
        """True once the game ended normally (not cancelled)."""
        return self.status == self.Status.FINISHED


class Seat(models.Model):
    """A place at a game: a user or a bot.

    While the game is open, ``position`` is join order; at the start the
    seats are shuffled and ``position`` becomes the engine's seat index.

    Attributes:
        owes_move: denormalised from ``Game.to_act`` so the lobby's
            "your move" list is one indexed query on every database.
        rank, score: written when the game finishes.
        forfeited: the seat lost on time; it ranks last, and in a game of
            3-4 a bot (``bot``, while ``user`` is kept) plays it to the end.
        timed_out: when the seat forfeited, on time or by resigning (UTC), or null.
        resigned: the seat forfeited by resigning rather than on time.
        forfeit_seq: the game's ``last_seq`` when the seat forfeited (its
            log, replay and record place "X resigned" after that move), or
            null while it plays.
        forfeited_by_moderator: a moderator forfeited the seat (or the site
            did, acting on a ban), rather than time or its player.
        clock_started: when the seat's running clock started (UTC), or null
            while it owes nothing.
        clock_seq: the game's ``last_seq`` when that clock started; "your
            move" and "time is running out" notifications are keyed on it.
        deadline: when the seat's open decision times out (UTC), pushed back
            by its user's vacations; null while it owes nothing.
        warn_at: when 80% of the move's time is used (UTC); cleared once the
            warning is queued.
        bank: a Fischer clock's bank while it is not running.
        last_seen: when the seat's user last had the game page open (UTC; written on
            opening it after it became their move, and at most once a minute while
            they stay: ``games.presence``).
        standing: the seat's standing answers for this game (JSON, the
            engine's settings, for a game whose engine has standing answers),
            copied from the user's at the start and editable on the game
            page; ``{}`` means the engine's defaults (bots have those).
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="seats"
    )
    bot = models.CharField(max_length=30, blank=True)
    joined = models.DateTimeField(default=timezone.now)
    owes_move = models.BooleanField(default=False)
    rank = models.PositiveSmallIntegerField(null=True, blank=True)
    score = models.IntegerField(null=True, blank=True)
    forfeited = models.BooleanField(default=False)
    timed_out = models.DateTimeField(null=True, blank=True)
    resigned = models.BooleanField(default=False)
    forfeit_seq = models.PositiveIntegerField(null=True, blank=True)
    # A database default too, so rows written without the ORM (the load seeder's COPY) need not name it.
    forfeited_by_moderator = models.BooleanField(default=False, db_default=False)
    clock_started = models.DateTimeField(null=True, blank=True)
    clock_seq = models.PositiveIntegerField(default=0)
    deadline = models.DateTimeField(null=True, blank=True)
    warn_at = models.DateTimeField(null=True, blank=True)
    bank = models.DurationField(null=True, blank=True)
    last_seen = models.DateTimeField(null=True, blank=True)
    standing = models.JSONField(default=dict, blank=True, db_default={})

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "position"], name="seat_unique_position"),
            models.UniqueConstraint(
                fields=["game", "user"], condition=models.Q(user__isnull=False), name="seat_unique_user"
            ),
            models.CheckConstraint(condition=models.Q(user__isnull=False) | ~models.Q(bot=""), name="seat_user_or_bot"),
        ]
        indexes = [
            models.Index(fields=["user", "owes_move"], name="seat_user_owes_idx"),
            # The timeout and warning sweeps: only seats with a running clock.
            models.Index(fields=["deadline"], name="seat_deadline_idx", condition=models.Q(deadline__isnull=False)),
            models.Index(fields=["warn_at"], name="seat_warn_at_idx", condition=models.Q(warn_at__isnull=False)),
        ]

    def __str__(self) -> str:
        return f"{self.game} seat {self.position}: {self.name}"

    @property
    def name(self) -> str:
        """Return the name shown for this seat."""
        if self.user is not None:
            return self.user.shown_name

        return bot_name(self.bot)

    @property
    def is_bot(self) -> bool:
        """True for a seat played by a bot from the start."""
        return self.user_id is None

    @property
    def given_up(self) -> bool:
        """True once this seat's player no longer plays it (timed out, resigned, forfeited): a bot or nobody does."""
        return self.forfeited or bool(self.bot)

    @property
    def bot_played(self) -> bool:
        """True while a bot makes this seat's moves (from the start, or since a timeout)."""
        return bool(self.bot)


class Invitation(models.Model):
    """Permission for one user to join (and watch) a private game."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="invitations")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations")
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "user"], name="invitation_unique")]

    def __str__(self) -> str:
        return f"{self.user} to {self.game}"


class Action(models.Model):
    """One move in a game's log. Append-only: rows are never changed.

    Attributes:
        seq: 1, 2, 3, ... within the game.
        seat: the engine seat index that made the move.
        move: the move in the notation of ``shared/rules/<kind>-moves.md``
            (without ``player``).
        standing: the site made this move from the seat's standing answers
            (the player chose it in advance), not the player at the time.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="actions")
    seq = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    move = models.JSONField()
    created = models.DateTimeField(default=timezone.now)
    standing = models.BooleanField(default=False, db_default=False)

    class Meta:
        ordering = ["seq"]
        constraints = [models.UniqueConstraint(fields=["game", "seq"], name="action_unique_seq")]

    def __str__(self) -> str:
        return f"{self.game} #{self.seq}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Insert the row; refuse to update it, since the log is the game's truth."""
        if not self._state.adding:
            raise ValueError("Actions are append-only")
        super().save(*args, **kwargs)


class ChatMessage(models.Model):
    """A line of plain text in a game's chat."""

    MAX_LENGTH = 500

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="chat_messages")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    text = models.CharField(max_length=MAX_LENGTH)
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["created", "pk"]
        indexes = [models.Index(fields=["game", "created"], name="chat_game_created_idx")]

    def __str__(self) -> str:
        return f"{self.user}: {self.text[:40]}"


class UndoRequest(models.Model):
    """A player's request to take back moves that need the other players' consent (``games.undo``).

    Open only while the game stays at ``at_seq``: any move made before
    everyone agreed ends it unanswered. The undo itself, once agreed, is an
    Action of the log (``games.engine.undo``); this row is its paperwork.

    Attributes:
        seat: the position of the player asking.
        to: the log entry the undo goes back to (the position after it).
        count: how many moves it takes back.
        at_seq: the game's ``last_seq`` when asked.
        agreed: the positions that agreed so far.
        declined_by: the position that declined, or null.
        status: open, done (undone), declined, or lapsed (a move came first).
    """

    class Status(models.TextChoices):
        OPEN = "open", _("Waiting for the others")
        DONE = "done", _("Taken back")
        DECLINED = "declined", _("Declined")
        LAPSED = "lapsed", _("Lapsed")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="undo_requests")
    seat = models.PositiveSmallIntegerField()
    to = models.PositiveIntegerField()
    count = models.PositiveSmallIntegerField()
    at_seq = models.PositiveIntegerField()
    agreed = models.JSONField(default=list, blank=True)
    declined_by = models.PositiveSmallIntegerField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [models.Index(fields=["game", "status"], name="undo_request_game_idx")]

    def __str__(self) -> str:
        return f"{self.game} undo to #{self.to} by seat {self.seat}"


class GameNote(models.Model):
    """A player's private notes on one game: only their author ever sees them (``games.notes``).

    Never part of the game's record, replay, log, API or admin: a note is not
    a move and tells nothing about the game to anyone else. Kept after the
    game ends; removed with the author's account.
    """

    MAX_LENGTH = 5000

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    text = models.TextField(max_length=MAX_LENGTH, blank=True)
    updated = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "user"], name="gamenote_unique")]

    def __str__(self) -> str:
        # No text here: a row printed in a log or a shell says whose, never what.
        return f"note of user {self.user_id} on game {self.game_id}"
