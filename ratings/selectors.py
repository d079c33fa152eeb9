"""Read-only queries for ladders, profiles and the rating chart.

Nothing here writes. Displayed ratings depend on the moment they are read
(sigma grows with inactivity, see ``ratings.services.inflate_sigma``), so
every function takes ``now`` (aware, UTC) instead of reading the clock.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from django.conf import settings
from django.core.paginator import Page, Paginator
from django.db.models import Q

from accounts.models import User
from games import kinds
from games.models import Game, Seat
from ratings.models import Rating, RatingChange
from ratings.services import Belief

if TYPE_CHECKING:
    from accounts.models import User
    from games.models import Game

LADDER_PAGE_SIZE = 50
CHART_POINTS = 200


def ladder_kinds() -> list[str]:
    """Return the game kinds that have a ladder: every installed game (``games.kinds``), in list order."""
    return kinds.names()


@dataclass(frozen=True, slots=True)
class LadderRow:
    """One line of a leaderboard.

    Attributes:
        position: 1 for the best rating shown.
        user_id, user: the player (``user`` loaded for the rows on the page
            and for the viewer's row only).
        rating: the displayed rating now.
        games: rated games played on this ladder.
        last_played: when the last one finished (UTC).
    """

    position: int
    user_id: int
    rating: int
    games: int
    last_played: datetime
    user: User | None = None


@dataclass(frozen=True, slots=True)
class Ladder:
    """A page of a leaderboard, and where the viewer stands.

    Attributes:
        kind: the game kind.
        page: a Django Page of LadderRow (with users).
        mine: the viewer's row when they are listed (on this page or not).
        my_status: why the viewer is not listed: "provisional", "inactive",
            "unrated", or "" (listed, or anonymous).
        my_games: the viewer's rated games on this ladder.
    """

    kind: str
    page: Page
    mine: LadderRow | None
    my_status: str
    my_games: int


def ladder(*, kind: str, now: datetime, page: int | str = 1, viewer: User | None = None) -> Ladder:
    """Return a page of ``kind``'s leaderboard as of ``now``.

    Listed: players with at least ``RATING_PROVISIONAL_GAMES`` rated games,
    one of them within ``RATING_INACTIVE_DAYS`` of ``now``, whose account is
    active. Sorted by displayed rating (inactivity applied), then mu, then
    user id. The ordering needs each player's inactivity, which SQL cannot
    compute portably, so it is done in Python over three numbers per listed
    player (fine into the tens of thousands); users are loaded only for the
    page and the viewer.

    Args:
        kind: a key of ``ladder_kinds()``.
        now: the moment the ratings are shown for (aware).
        page: the page number; out-of-range or bad values give the nearest page.
        viewer: the signed-in user, or None.
    """

    since = now - timedelta(days=settings.RATING_INACTIVE_DAYS)
    rows = Rating.objects.filter(
        kind=kind,
        games__gte=settings.RATING_PROVISIONAL_GAMES,
        last_played__gte=since,
        user__is_active=True,
    ).values_list("user_id", "mu", "sigma", "games", "last_played")
    scored = sorted(
        (
            (Belief(mu, sigma, games, last).display_at(now), mu, uid, games, last)
            for uid, mu, sigma, games, last in rows
        ),
        key=lambda t: (-t[0], -t[1], t[2]),
    )
    listed = [
        LadderRow(position=i, user_id=uid, rating=disp, games=games, last_played=last)
        for i, (disp, _mu, uid, games, last) in enumerate(scored, start=1)
    ]
    paginator = Paginator(listed, LADDER_PAGE_SIZE)
    page_obj = paginator.get_page(page)
    mine = None
    status = ""
    my_games = 0
    if viewer is not None and viewer.is_authenticated:
        mine = next((r for r in listed if r.user_id == viewer.pk), None)
        if mine is None:
            own = Rating.objects.filter(kind=kind, user=viewer).only("games", "last_played").first()
            my_games = own.games if own else 0
            if own is None:
                status = "unrated"
            elif own.games < settings.RATING_PROVISIONAL_GAMES:
                status = "provisional"
            else:
                status = "inactive"
        else:
            my_games = mine.games
    wanted = {r.user_id for r in page_obj.object_list} | ({mine.user_id} if mine else set())
    users = User.objects.in_bulk(wanted)
    page_obj.object_list = [_with_user(r, users) for r in page_obj.object_list]
    if mine is not None:
        mine = _with_user(mine, users)
    return Ladder(kind=kind, page=page_obj, mine=mine, my_status=status, my_games=my_games)


def _with_user(row: LadderRow, users: dict[int, User]) -> LadderRow:
    return LadderRow(row.position, row.user_id, row.rating, row.games, row.last_played, users.get(row.user_id))


@dataclass(frozen=True, slots=True)
class ChartPoint:
    """One point of the rating chart: after a game, at (x, y) in the SVG's box."""

    x: float
    y: float
    rating: int
    at: datetime
    game_id: int


@dataclass(frozen=True, slots=True)
class Chart:
    """A server-drawn line chart of a player's displayed rating over their rated games.

    The SVG's box is ``width`` x ``height``; ``points`` is the polyline's
    ``points`` attribute; ``lo``/``hi`` label the y axis; ``baseline_y``
    is where ``RATING_DISPLAY_BASE`` (1500) falls, or None off the chart.
    """

    width: int
    height: int
    points: str
    dots: list[ChartPoint]
    lo: int
    hi: int
    baseline_y: float | None
    first: datetime
    last: datetime


def rating_chart(changes: list[RatingChange], *, width: int = 600, height: int = 180, pad: int = 28) -> Chart | None:
    """Draw ``changes`` (oldest first) as a chart: one point per game, evenly spaced.

    The first point is the rating before the first game, so one game draws
    a line. Returns None without changes. Only the last ``CHART_POINTS``
    games are drawn.
    """
    if not changes:
        return None
    changes = changes[-CHART_POINTS:]
    values = [changes[0].display_before] + [c.display_after for c in changes]
    lo, hi = min(values), max(values)
    if hi - lo < 20:  # a flat line in the middle rather than noise magnified
        mid = (hi + lo) // 2
        lo, hi = mid - 10, mid + 10
    inner_w, inner_h = width - 2 * pad, height - 2 * pad
    step = inner_w / max(1, len(values) - 1)

    def y(v: float) -> float:
        return round(pad + inner_h * (hi - v) / (hi - lo), 1)

    xs = [round(pad + i * step, 1) for i in range(len(values))]
    dots = [
        ChartPoint(x=xs[i + 1], y=y(c.display_after), rating=c.display_after, at=c.at, game_id=c.game_id)
        for i, c in enumerate(changes)
    ]
    base = settings.RATING_DISPLAY_BASE
    return Chart(
        width=width,
        height=height,
        points=" ".join(f"{x},{y(v)}" for x, v in zip(xs, values, strict=True)),
        dots=dots,
        lo=lo,
        hi=hi,
        baseline_y=y(base) if lo <= base <= hi else None,
        first=changes[0].at,
        last=changes[-1].at,
    )


@dataclass(frozen=True, slots=True)
class LadderStanding:
    """A player's standing on one ladder, for the profile.

    Attributes:
        kind: the game kind.
        rating: displayed rating now (None: never rated on this ladder).
        provisional: fewer than ``RATING_PROVISIONAL_GAMES`` rated games.
        games: rated games; last_played: when the last one finished.
        chart: the history chart, or None.
        played, won, lost, forfeited: every finished game of this kind
            (rated or casual): won = ranked first, lost = ranked lower,
            forfeited = lost on time or resigned.
    """

    kind: str
    rating: int | None
    provisional: bool
    games: int
    last_played: datetime | None
    chart: Chart | None
    played: int
    won: int
    lost: int
    forfeited: int


def standings(user: User, *, now: datetime) -> list[LadderStanding]:
    """Return ``user``'s standing on every ladder they played on (rated or not), by kind.

    Three queries whatever the number of games.
    """
    from django.db.models import Count

    finished = Q(game__status=Game.Status.FINISHED)
    records = {
        row["game__kind"]: row
        for row in Seat.objects.filter(finished, user=user)
        .values("game__kind")
        .annotate(
            played=Count("pk"),
            won=Count("pk", filter=Q(rank=1, forfeited=False)),
            lost=Count("pk", filter=Q(rank__gt=1, forfeited=False)),
            forfeited=Count("pk", filter=Q(forfeited=True)),
        )
    }
    ratings = {r.kind: r for r in Rating.objects.filter(user=user)}
    history: dict[str, list[RatingChange]] = {}
    for c in RatingChange.objects.filter(user=user, reversed__isnull=True).order_by("at", "pk"):
        history.setdefault(c.kind, []).append(c)
    out = []
    for kind in sorted(set(records) | set(ratings), key=lambda k: (k not in ratings, k)):
        r = ratings.get(kind)
        rec = records.get(kind, {})
        belief = Belief(r.mu, r.sigma, r.games, r.last_played) if r else None
        out.append(
            LadderStanding(
                kind=kind,
                rating=belief.display_at(now) if belief else None,
                provisional=belief.provisional if belief else True,
                games=r.games if r else 0,
                last_played=r.last_played if r else None,
                chart=rating_chart(history.get(kind, [])),
                played=rec.get("played", 0),
                won=rec.get("won", 0),
                lost=rec.get("lost", 0),
                forfeited=rec.get("forfeited", 0),
            )
        )
    return out


def changes_for_game(game: Game) -> dict[int, RatingChange]:
    """Return the game's rating changes by user id (empty for unrated games; one query at most)."""
    if not game.rated or game.finished is None:
        return {}
    return {rc.user_id: rc for rc in RatingChange.objects.filter(game=game, reversed__isnull=True)}


def changes_for_games(user: User, games: Iterable[Game]) -> dict[int, RatingChange]:
    """Return ``user``'s rating changes for ``games`` by game id (one query)."""
    ids = [g.pk for g in games]
    if not ids:
        return {}
    return {rc.game_id: rc for rc in RatingChange.objects.filter(user=user, game_id__in=ids, reversed__isnull=True)}
