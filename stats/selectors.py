"""Read-only statistics for pages: a few dozen total rows per page, never a scan of games.

Rates are fractions in [0, 1] (None when nothing was counted); pages show
them as percentages.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.db.models import Avg, Count, Q, Sum

from stats.models import ALL_BANDS, BANDS, CardStats, CardTotal, GameStats, PlayerStats, Tally
from stats.plugin import PLAYER_COUNTS

if TYPE_CHECKING:
    from accounts.models import User
    from games.models import Game

#: The card list's sort keys (``?sort=``); "-" sorts high first, which is the default for rates.
SORTS = ("card", "presence", "bought", "win_bought", "win_not", "edge", "games")
#: How many favourite cards a profile shows.
FAVOURITES = 5


def rate(part: int, whole: int) -> float | None:
    """``part / whole``, or None when ``whole`` is 0."""
    return part / whole if whole else None


@dataclass(slots=True)
class CardRow:
    """One card's numbers over some rated games of one kind (one player count or all, one band or all).

    Attributes:
        card: the card's English name.
        games: games with it on the table; total: rated games in the same split.
        present: seats in those games; bought: seats that bought at least one.
        won_bought, won_not: buyers who won, non-buyers who won.
    """

    card: str
    games: int = 0
    total: int = 0
    present: int = 0
    bought: int = 0
    won_bought: int = 0
    won_not: int = 0

    def add(self, t: CardTotal) -> None:
        """Add a totals row's counts."""
        self.games += t.games
        self.present += t.present
        self.bought += t.bought
        self.won_bought += t.won_bought
        self.won_not += t.won_not

    @property
    def presence(self) -> float | None:
        """Share of games with the card on the table."""
        return rate(self.games, self.total)

    @property
    def bought_rate(self) -> float | None:
        """Share of seats that bought it when it was on the table."""
        return rate(self.bought, self.present)

    @property
    def win_bought(self) -> float | None:
        """Win rate of the seats that bought it."""
        return rate(self.won_bought, self.bought)

    @property
    def win_not(self) -> float | None:
        """Win rate of the seats in the same games that did not."""
        return rate(self.won_not, self.present - self.bought)

    @property
    def edge(self) -> float | None:
        """Buyers' win rate minus non-buyers' (None if either is unknown)."""
        if self.win_bought is None or self.win_not is None:
            return None
        return self.win_bought - self.win_not

    def sort_key(self, key: str) -> Any:
        """The value the list sorts by for ``key`` (unknown values last)."""
        if key == "card":
            return self.card
        value = {
            "presence": self.presence,
            "bought": self.bought_rate,
            "win_bought": self.win_bought,
            "win_not": self.win_not,
            "edge": self.edge,
            "games": self.games,
        }[key]
        return -1.0e9 if value is None else value


def rated_games(kind: str, players: int | None = None) -> int:
    """Rated finished games of ``kind`` counted in the totals (one player count, or all)."""
    rows = Tally.objects.filter(kind=kind, measure="games")
    if players is not None:
        rows = rows.filter(players=players)
    return rows.aggregate(n=Sum("seats"))["n"] or 0


def card_table(kind: str, cards: Iterable[str], *, players: int | None = None, sort: str = "edge") -> list[CardRow]:
    """A row for each of ``cards`` over rated games of ``kind`` (``players``: one count, or all), sorted.

    ``cards``: the cards the game lists (every one gets a row, counted or not); totals of other
    cards are ignored.

    ``sort``: one of :data:`SORTS`, optionally prefixed with "-" for descending
    (names ascend by default, numbers descend). Rows that tie keep the names' order, A to Z, either way.
    """
    rows = {c: CardRow(c) for c in cards}
    totals = CardTotal.objects.filter(band=ALL_BANDS)
    if players is not None:
        totals = totals.filter(players=players)
    for t in totals:
        if t.card in rows:
            rows[t.card].add(t)
    total = rated_games(kind, players)
    for r in rows.values():
        r.total = total
    key = sort.lstrip("-")
    if key not in SORTS:
        key = "edge"
    descending = key != "card"
    if sort.startswith("-"):
        descending = not descending
    by_name = sorted(rows.values(), key=lambda r: r.card, reverse=key == "card" and descending)
    if key == "card":
        return by_name
    # Python's sort is stable (reverse=True included): rows that tie on the column stay A to Z.
    return sorted(by_name, key=lambda r: r.sort_key(key), reverse=descending)


@dataclass(slots=True)
class CardDetail:
    """A card page's numbers: all rated games, each player count, each rating band."""

    overall: CardRow
    by_players: list[tuple[int, CardRow]]
    by_band: list[tuple[str, CardRow]]


def card_detail(kind: str, card: str) -> CardDetail:
    """The numbers of one card of ``kind`` (rows by player count and by band; bands over every count)."""
    overall = CardRow(card, total=rated_games(kind))
    by_players = {n: CardRow(card, total=rated_games(kind, n)) for n in PLAYER_COUNTS}
    by_band = {code: CardRow(card) for code, _lo in BANDS}
    for t in CardTotal.objects.filter(card=card):
        if t.band == ALL_BANDS:
            overall.add(t)
            if t.players in by_players:
                by_players[t.players].add(t)
        elif t.band in by_band:
            by_band[t.band].add(t)
    return CardDetail(overall, sorted(by_players.items()), list(by_band.items()))


@dataclass(slots=True)
class TallyRow:
    """Seats and wins for one value of one measure (a seat, a count...); ``label``: a name a page may give it."""

    value: str
    seats: int = 0
    wins: int = 0
    label: str = ""

    @property
    def win_rate(self) -> float | None:
        """Share of these seats that won."""
        return rate(self.wins, self.seats)


@dataclass(slots=True)
class TallyTables:
    """Rated games of one kind, and win rates by each of some measures (``by``: measure -> rows in order)."""

    games: int
    by: dict[str, list[TallyRow]] = field(default_factory=dict)


def _value_order(measure: str, value: str) -> Any:
    return (0, int(value), "") if value.lstrip("-").isdigit() else (1, 0, value)


def tally_tables(kind: str, measures: Iterable[str], *, players: int | None = None) -> TallyTables:
    """Win rates over rated games of ``kind`` by each of ``measures`` (``players``: one count, or all).

    "seat" is the platform's own (seat index); the others are what the game's part tallies
    (``stats.plugin``). Numeric values sort as numbers, before the others.
    """
    rows = Tally.objects.filter(kind=kind).exclude(measure="games")
    if players is not None:
        rows = rows.filter(players=players)
    by: dict[str, dict[str, TallyRow]] = defaultdict(dict)
    for t in rows:
        row = by[t.measure].setdefault(t.value, TallyRow(t.value))
        row.seats += t.seats
        row.wins += t.wins
    out = TallyTables(games=rated_games(kind, players))
    for measure in measures:
        values = by.get(measure, {})
        out.by[measure] = [values[v] for v in sorted(values, key=lambda v: _value_order(measure, v))]
    return out


def game_stats(game: Game) -> GameStats | None:
    """The measured numbers of a finished game, or None (not finished, not measured yet, or unreplayable)."""
    if not getattr(game, "is_finished", False):
        return None
    stats = GameStats.objects.filter(game_id=game.pk).first()
    if stats is None or stats.data.get("unreplayable"):
        return None
    return stats


def game_measured(game: Game) -> bool:
    """True once ``game`` has its row of numbers (an unreplayable game's too): one indexed query."""
    return GameStats.objects.filter(game_id=game.pk).exists()


@dataclass(slots=True)
class PlayerSummary:
    """A profile's statistics: per kind and player count; favourite cards as ``(kind, card, copies)``."""

    rows: list[dict[str, Any]]
    favourites: list[tuple[str, str, int]]


def player_summary(user: User) -> PlayerSummary:
    """Games, wins, win rate and average score per (kind, player count); the cards bought most.

    Over the user's measured finished games, rated or not (bots' games too).
    """
    rows = list(
        PlayerStats.objects.filter(user=user)
        .values("kind", "players")
        .annotate(games=Count("id"), wins=Count("id", filter=Q(won=True)), score=Avg("score"))
        .order_by("kind", "players")
    )
    for r in rows:
        r["win_rate"] = rate(r["wins"], r["games"])
    favourites = list(
        CardStats.objects.filter(user=user, bought__gt=0)
        .values("game__kind", "card")
        .annotate(copies=Sum("bought"))
        .order_by("-copies", "card")
        .values_list("game__kind", "card", "copies")[:FAVOURITES]
    )
    return PlayerSummary(rows, favourites)
