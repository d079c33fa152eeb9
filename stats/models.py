"""Statistics rows: per game, per game and player, per game, player and card; and running totals.

No game is named here: what a game measures is its ``stats`` part's
(``stats.plugin``); these rows hold it (``GameStats.data``) and the counts
every game shares.

Only ``stats.services`` writes them. The per-game rows are what the log
says (``stats.compute``), written once when a game finishes; the totals
are sums over those rows, kept up to date by the same write (and rebuilt
from them by ``manage.py rebuild_stats``), so a statistics page reads a few
dozen rows and never scans games.

"Won" means rank 1 (ties share it). A player's rating band is the band of
their displayed rating going into the game (``ratings.RatingChange.display_before``);
only rated games have one and only rated games count for the card totals.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

#: Rating bands: (code, lowest displayed rating in it). Newcomers show 1500.
BANDS: tuple[tuple[str, int], ...] = (("a", -10_000), ("b", 1400), ("c", 1600), ("d", 1800))
#: The code of the totals row that sums every band (and counts games).
ALL_BANDS = "*"


def band_of(rating: int | None) -> str:
    """Return the band code of a displayed rating ("" for none: an unrated game)."""
    if rating is None:
        return ""
    code = BANDS[0][0]
    for c, lo in BANDS:
        if rating >= lo:
            code = c
    return code


class GameStats(models.Model):
    """One finished game's numbers (``stats.plugin.GameNumbers``).

    Attributes:
        game: the game (also the primary key).
        kind, players, rated, finished: copied from the game, for the lists.
        turns: the game's length in turns, as its ``stats`` part counts them.
        data: what the game's part measured (JSON: per-turn series and the like), read back only by
            that part; ``{"unreplayable": true}`` for a game whose log does not replay.
        counted: the game's rows are in the totals (``CardTotal``, ``Tally``).
    """

    game = models.OneToOneField("games.Game", primary_key=True, on_delete=models.CASCADE, related_name="stats")
    kind = models.CharField(max_length=20)
    players = models.PositiveSmallIntegerField()
    rated = models.BooleanField(default=False)
    finished = models.DateTimeField()
    turns = models.PositiveIntegerField(default=0)
    data = models.JSONField(default=dict)
    counted = models.BooleanField(default=False)

    def __str__(self) -> str:
        return f"stats of game {self.game_id}"


class PlayerStats(models.Model):
    """One seat of one finished game.

    Attributes:
        position: the seat index (0 moves first).
        user: the seat's person, or null for a bot's seat.
        won: ranked first (ties share it).
        band: the rating band going into the game ("" if unrated).

    A game's own per-seat numbers are in its ``GameStats.data`` (``stats.plugin``).
    """

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="player_stats")
    position = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="player_stats"
    )
    kind = models.CharField(max_length=20)
    players = models.PositiveSmallIntegerField()
    rated = models.BooleanField(default=False)
    rank = models.PositiveSmallIntegerField(null=True)
    won = models.BooleanField(default=False)
    score = models.IntegerField(null=True)
    band = models.CharField(max_length=1, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "position"], name="playerstats_unique_seat")]
        indexes = [models.Index(fields=["user", "kind"], name="playerstats_user_idx")]

    def __str__(self) -> str:
        return f"game {self.game_id} seat {self.position}"


class CardStats(models.Model):
    """One card on the table of one finished game, for one seat (the cards its ``GameNumbers.cards`` lists).

    Attributes:
        bought: copies the seat bought; gained: copies it gained otherwise.
        first: the turn it first gained one (null: never).
    """

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="card_stats")
    position = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="card_stats"
    )
    card = models.CharField(max_length=30)
    players = models.PositiveSmallIntegerField()
    rated = models.BooleanField(default=False)
    band = models.CharField(max_length=1, blank=True)
    won = models.BooleanField(default=False)
    bought = models.PositiveSmallIntegerField(default=0)
    gained = models.PositiveSmallIntegerField(default=0)
    first = models.PositiveSmallIntegerField(null=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "position", "card"], name="cardstats_unique_seat_card")]
        indexes = [models.Index(fields=["user", "card"], name="cardstats_user_idx")]

    def __str__(self) -> str:
        return f"game {self.game_id} seat {self.position} {self.card}"


class CardTotal(models.Model):
    """Running sums over rated finished games, for one card, player count and band.

    A row per (card, players, band), plus ``band`` "*" summing every band.
    Counts are of player-games (a seat in a game with the card on the
    table), except ``games``, which the "*" row alone keeps.

    Attributes:
        games: games with the card on the table ("*" rows only).
        present: seats in those games; bought: seats that bought it.
        won_bought: buyers who won; won_not: non-buyers who won.
    """

    card = models.CharField(max_length=30)
    players = models.PositiveSmallIntegerField()
    band = models.CharField(max_length=1)
    games = models.PositiveIntegerField(default=0)
    present = models.PositiveIntegerField(default=0)
    bought = models.PositiveIntegerField(default=0)
    won_bought = models.PositiveIntegerField(default=0)
    won_not = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["card", "players", "band"], name="cardtotal_unique")]

    def __str__(self) -> str:
        return f"{self.card} {self.players}p {self.band}"


class Tally(models.Model):
    """Running sums over rated finished games of one kind: seats and wins, by one measure.

    ``measure`` "games" with value "" counts games (``seats``: games,
    ``wins``: unused); "seat" by seat index; and whatever measures the
    game's ``stats`` part tallies (``tallies``, ``stats.plugin``).
    """

    kind = models.CharField(max_length=20)
    measure = models.CharField(max_length=10)
    value = models.CharField(max_length=20, blank=True)
    players = models.PositiveSmallIntegerField()
    seats = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["kind", "measure", "value", "players"], name="tally_unique")]

    def __str__(self) -> str:
        return f"{self.kind} {self.measure}={self.value} {self.players}p"


#: Names of the bands for pages.
BAND_NAMES = {"a": _("under 1400"), "b": _("1400–1599"), "c": _("1600–1799"), "d": _("1800 and over")}
