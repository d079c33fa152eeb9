"""Everything that writes Rating and RatingChange rows.

The model is openskill's Plackett-Luce, one ladder per game kind, fed only
the finishing ranks (ties share a rank; never the score margin), so 2, 3
and 4 player games are rated alike. Forfeited seats (timeouts,
resignations) are ranked after every seat that finished.

Inactivity: a player's sigma grows with the time since their last rated
game, computed when read, never stored by a nightly job::

    sigma' = max(sigma, min(RATING_SIGMA, sqrt(sigma**2 + RATING_IDLE_TAU**2 * days)))

where ``days`` is the fractional number of days between ``last_played``
and the moment in question. When rating a game that moment is the game's
``finished`` timestamp (never "now"), so :func:`ratings_recompute` replays
history to exactly the stored values. Pages use "now".

Displayed rating: ``round(BASE + SCALE * ((mu - Z*sigma) - (MU0 - Z*SIGMA0)))``,
a conservative estimate (openskill's ordinal with ``z=RATING_DISPLAY_Z``)
shifted so that a newcomer shows ``BASE`` (1500) and scaled so that one
point of ordinal is ``SCALE`` (40) points.

All timestamps are timezone-aware UTC.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import transaction

from games.models import Game, Seat
from ratings.models import Rating, RatingChange
from ratings.skill import Belief, display_rating, inflate_sigma, model, rate_field

if TYPE_CHECKING:
    from games.events import GameFinished

__all__ = [
    "Belief",
    "RecomputeReport",
    "display_rating",
    "game_is_rateable",
    "inflate_sigma",
    "model",
    "rate_field",
    "rating_ranks",
    "rating_reverse",
    "rating_update",
    "ratings_recompute",
]


def game_is_rateable(game: Game, seats: Sequence[Seat]) -> bool:
    """True if ``game`` counts for its ladder.

    Rated games that finished normally, with two or more seats, all of them
    people, all ranked. Casual games, games with bots and cancelled games
    never count. A seat that forfeited on time and was then played out by a
    bot (``bot`` set, ``user`` kept) is still its person's, and counts.
    """

    return (
        game.rated
        and game.status == Game.Status.FINISHED
        and game.finished is not None
        and len(seats) >= 2
        and all(s.user_id is not None and (not s.bot or s.forfeited) for s in seats)
        and all(s.rank is not None or s.forfeited for s in seats)
    )


def rating_ranks(seats: Sequence[Seat]) -> list[int]:
    """Return the rank each seat is rated with, in the order of ``seats``.

    Seats that finished keep the engine's order, re-ranked among themselves
    in competition style (ties share a rank: 1, 1, 3). Forfeited seats come
    after all of them whatever the engine said (a player who timed out in a
    winning position still loses), in the order of their own ``rank`` among
    themselves (``games.autoplay`` ranks the seat that timed out last
    first); forfeited seats without a rank share the very last place.

    Raises:
        ValueError: a seat that did not forfeit has no rank (such a game is
            not rateable: ``game_is_rateable``).
    """
    if any(s.rank is None and not s.forfeited for s in seats):
        raise ValueError("a seat that did not forfeit has no rank")
    finished = [s.rank for s in seats if not s.forfeited and s.rank is not None]
    forfeits = [s.rank for s in seats if s.forfeited and s.rank is not None]
    after = len(finished) + 1

    def rank(seat: Seat) -> int:
        mine = seat.rank
        if mine is None:  # forfeited (checked above)
            return after + len(forfeits)
        if not seat.forfeited:
            return 1 + sum(1 for r in finished if r < mine)
        return after + sum(1 for r in forfeits if r < mine)

    return [rank(s) for s in seats]


@dataclass(frozen=True, slots=True)
class _Change:
    """One computed row of :class:`RatingChange` (and the resulting belief)."""

    user_id: int
    rank: int
    at: datetime
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float
    display_before: int
    display_after: int


def _compute(players: Sequence[tuple[int, int, Belief]], at: datetime) -> list[_Change]:
    """Rate one game: ``players`` are ``(user_id, rank, belief)``; ``at`` is when it finished.

    Shared by the live update and the recompute, so the two cannot drift apart.
    """
    before = [(b.mu, b.sigma_at(at)) for _u, _r, b in players]
    after = rate_field(before, [rank for _u, rank, _b in players])
    return [
        _Change(
            user_id=user_id,
            rank=rank,
            at=at,
            mu_before=mu0,
            sigma_before=s0,
            mu_after=mu1,
            sigma_after=s1,
            display_before=display_rating(mu0, s0),
            display_after=display_rating(mu1, s1),
        )
        for (user_id, rank, _b), (mu0, s0), (mu1, s1) in zip(players, before, after, strict=True)
    ]


def _rated_seats(game: Game, seats: Sequence[Seat]) -> tuple[datetime, list[tuple[int, int]]]:
    """When a rateable game finished, and its players' ``(user id, rating rank)`` in seat order.

    Raises:
        ValueError: ``game`` is not rateable (``game_is_rateable``): it has
            no finish time, an empty seat, or a finished seat without a rank.
    """
    user_ids = [s.user_id for s in seats if s.user_id is not None]
    if game.finished is None or len(user_ids) != len(seats):
        raise ValueError(f"game {game.pk} is not rateable")
    return game.finished, list(zip(user_ids, rating_ranks(seats), strict=True))


def _change_row(game: Game, c: _Change) -> RatingChange:
    return RatingChange(
        game=game,
        user_id=c.user_id,
        kind=game.kind,
        at=c.at,
        rank=c.rank,
        mu_before=c.mu_before,
        sigma_before=c.sigma_before,
        mu_after=c.mu_after,
        sigma_after=c.sigma_after,
        display_before=c.display_before,
        display_after=c.display_after,
    )


def rating_on_finish(event: GameFinished) -> None:
    """Listener of ``games.events.GameFinished``: :func:`rating_update` the game, in its transaction."""
    rating_update(game=event.game)


def rating_update(*, game: Game) -> list[RatingChange]:
    """Rate a finished game: update every seat's Rating and record a RatingChange each.

    Call it inside the transaction that finishes the game, with the game row
    locked and the seats' ``rank``/``forfeited`` already saved (that is what
    ``games.turns.finish`` does, publishing ``GameFinished``), so the result and the ratings commit
    together or not at all. The players' Rating rows are locked
    (``select_for_update``, in primary-key order, so two games sharing
    players cannot deadlock).

    Exactly once: if the game already has RatingChange rows, nothing is
    changed and those rows are returned; the (game, user) unique constraint
    backs this up. Games that are not rateable (casual, bots, cancelled,
    unranked) return ``[]`` and write nothing.

    Args:
        game: the Game, status finished, ``finished`` set (UTC).

    Returns:
        The game's RatingChange rows, in seat order.
    """

    with transaction.atomic():
        seats = list(Seat.objects.filter(game=game).order_by("position"))
        if not game_is_rateable(game, seats):
            return []
        existing = list(RatingChange.objects.filter(game=game).order_by("pk"))
        if existing:
            return existing
        at, ranked = _rated_seats(game, seats)
        user_ids = [uid for uid, _rank in ranked]
        # Newcomers get a row first (ignoring a concurrent insert of the same
        # row), so that every player's row can be locked below.
        Rating.objects.bulk_create(
            [
                Rating(user_id=uid, kind=game.kind, mu=settings.RATING_MU, sigma=settings.RATING_SIGMA, last_played=at)
                for uid in user_ids
            ],
            ignore_conflicts=True,
        )
        rows = {
            r.user_id: r
            for r in Rating.objects.select_for_update().filter(kind=game.kind, user_id__in=user_ids).order_by("pk")
        }
        players = [
            (
                uid,
                rank,
                Belief(
                    mu=rows[uid].mu,
                    sigma=rows[uid].sigma,
                    games=rows[uid].games,
                    last_played=rows[uid].last_played if rows[uid].games else None,
                ),
            )
            for uid, rank in ranked
        ]
        changes = _compute(players, at)
        for c in changes:
            row = rows[c.user_id]
            row.mu, row.sigma, row.games, row.last_played = c.mu_after, c.sigma_after, row.games + 1, at
            row.save(update_fields=["mu", "sigma", "games", "last_played"])
        return RatingChange.objects.bulk_create([_change_row(game, c) for c in changes])


@dataclass(slots=True)
class RecomputeReport:
    """What :func:`ratings_recompute` found.

    Attributes:
        games: rated games replayed.
        changes: RatingChange rows computed.
        mismatches: human-readable differences between the replay and the
            stored rows (empty when they agree exactly).
        written: whether the stored rows were replaced by the replay.
    """

    games: int = 0
    changes: int = 0
    mismatches: list[str] = field(default_factory=list)
    written: bool = False


def _rateable_games(kinds: Iterable[str] | None) -> Iterable[tuple[Game, list[Seat]]]:
    """Yield ``(game, seats)`` for every rateable game, in the order they finished."""
    from django.db.models import Prefetch

    qs = Game.objects.filter(status=Game.Status.FINISHED, rated=True, finished__isnull=False)
    if kinds is not None:
        qs = qs.filter(kind__in=list(kinds))
    qs = qs.order_by("finished", "pk").prefetch_related(Prefetch("seats", queryset=Seat.objects.order_by("position")))
    for game in qs.iterator(chunk_size=500):
        seats = list(game.seats.all())
        if game_is_rateable(game, seats):
            yield game, seats


_FIELDS = ("rank", "mu_before", "sigma_before", "mu_after", "sigma_after", "display_before", "display_after")


def ratings_recompute(*, kinds: Iterable[str] | None = None, write: bool = False) -> RecomputeReport:
    """Replay every rated game in the order they finished and compare with (or replace) the stored ratings.

    The replay uses exactly the live update's arithmetic (:func:`_compute`),
    with each game's ``finished`` timestamp for inactivity, so on an intact
    database it reproduces every stored RatingChange and Rating bit for bit.

    Args:
        kinds: the ladders to replay (default: all).
        write: replace the stored Rating and RatingChange rows of those
            ladders with the replay, in one transaction. Without it nothing
            is written.

    Returns:
        A :class:`RecomputeReport`; ``mismatches`` lists every difference
        between the replay and what was stored before.
    """
    report = RecomputeReport()
    beliefs: dict[tuple[str, int], Belief] = {}
    computed: list[tuple[Game, _Change]] = []
    # Reversed changes (see rating_reverse) are kept as a record but count for
    # nobody: the game is still computed with every player (so the others'
    # changes come out as they were), but a reversed player's belief skips it.
    reversed_rows = RatingChange.objects.filter(reversed__isnull=False)
    if kinds is not None:
        reversed_rows = reversed_rows.filter(kind__in=list(kinds))
    skipped = set(reversed_rows.values_list("game_id", "user_id"))
    for game, seats in _rateable_games(kinds):
        at, ranked = _rated_seats(game, seats)
        players = [(uid, rank, beliefs.get((game.kind, uid)) or Belief.new()) for uid, rank in ranked]
        for c in _compute(players, at):
            if (game.pk, c.user_id) in skipped:
                continue
            old = beliefs.get((game.kind, c.user_id))
            beliefs[(game.kind, c.user_id)] = Belief(c.mu_after, c.sigma_after, (old.games if old else 0) + 1, at)
            computed.append((game, c))
        report.games += 1
    report.changes = len(computed)

    stored_changes = RatingChange.objects.filter(reversed__isnull=True)
    stored_ratings = Rating.objects.all()
    if kinds is not None:
        stored_changes = stored_changes.filter(kind__in=list(kinds))
        stored_ratings = stored_ratings.filter(kind__in=list(kinds))
    stored = {(rc.game_id, rc.user_id): rc for rc in stored_changes}
    for game, c in computed:
        rc = stored.pop((game.pk, c.user_id), None)
        if rc is None:
            report.mismatches.append(f"game {game.pk} user {c.user_id}: no stored change")
            continue
        for name in _FIELDS:
            if getattr(rc, name) != getattr(c, name):
                report.mismatches.append(
                    f"game {game.pk} user {c.user_id}: {name} stored {getattr(rc, name)!r}, replay {getattr(c, name)!r}"
                )
    report.mismatches.extend(f"game {g} user {u}: stored change has no rated game" for g, u in stored)
    current = {(r.kind, r.user_id): r for r in stored_ratings}
    for key, b in beliefs.items():
        r = current.pop(key, None)
        if r is None or (r.mu, r.sigma, r.games, r.last_played) != (b.mu, b.sigma, b.games, b.last_played):
            report.mismatches.append(
                f"rating {key[0]} user {key[1]}: "
                f"stored {r and (r.mu, r.sigma, r.games)}, replay {(b.mu, b.sigma, b.games)}"
            )
    report.mismatches.extend(f"rating {k} user {u}: stored but no rated game" for k, u in current)

    if write:
        with transaction.atomic():
            stored_changes.delete()
            stored_ratings.delete()
            rows = []
            for (kind, uid), b in beliefs.items():
                assert b.last_played is not None  # every belief here comes out of a replayed game
                rows.append(
                    Rating(user_id=uid, kind=kind, mu=b.mu, sigma=b.sigma, games=b.games, last_played=b.last_played)
                )
            Rating.objects.bulk_create(rows)
            RatingChange.objects.bulk_create(_change_row(game, c) for game, c in computed)
        report.written = True
    return report


def rating_reverse(*, game: Game, users: Iterable[int] | None = None) -> list[RatingChange]:
    """Undo what ``game`` did to the ratings of ``users`` (default: every player).

    Used when a moderator aborts a rated game after it was rated, or refunds
    a game's result to the players who were cheated. Each affected
    RatingChange is marked ``reversed`` (kept as the record) and the
    player's Rating becomes what it would be had they not played the game:

    * if the game is the player's latest counted game on that ladder (the
      usual case: a game is aborted soon after it ends), the Rating goes
      back to their previous counted change (or is removed if there is
      none), which is exactly the value before the game;
    * otherwise later games were rated from a belief that included this
      one, so the whole ladder is replayed (``ratings_recompute`` with
      ``write``) with every Rating row of the ladder locked, which rewrites
      the later changes of everyone concerned.

    Either way :func:`ratings_recompute` reproduces the stored values
    afterwards. Idempotent: changes already reversed are left alone.

    Args:
        game: the rated game; its status is not changed here (the caller
            aborts it, or leaves it finished for a refund).
        users: user ids whose change to reverse; None for all of them.

    Returns:
        The RatingChange rows reversed now (empty if there were none).
    """
    from django.utils import timezone

    with transaction.atomic():
        rows = RatingChange.objects.select_for_update().filter(game=game, reversed__isnull=True)
        if users is not None:
            rows = rows.filter(user_id__in=list(users))
        changes = list(rows.order_by("pk"))
        if not changes:
            return []
        user_ids = sorted({c.user_id for c in changes})
        later = RatingChange.objects.filter(
            kind=game.kind, user_id__in=user_ids, reversed__isnull=True, at__gte=changes[0].at
        ).exclude(game=game)
        cascade = later.exists()
        locked = Rating.objects.select_for_update().filter(kind=game.kind)
        if not cascade:
            locked = locked.filter(user_id__in=user_ids)
        ratings = {r.user_id: r for r in locked.order_by("pk")}
        now = timezone.now()
        RatingChange.objects.filter(pk__in=[c.pk for c in changes]).update(reversed=now)
        for c in changes:
            c.reversed = now
        if cascade:
            ratings_recompute(kinds=[game.kind], write=True)
            return changes
        for uid in user_ids:
            counted = RatingChange.objects.filter(kind=game.kind, user_id=uid, reversed__isnull=True)
            previous = counted.order_by("-at", "-pk").first()
            rating = ratings.get(uid)
            if previous is None:
                if rating is not None:
                    rating.delete()
                continue
            if rating is None:  # cannot happen on an intact ladder; rebuild the row
                rating = Rating(user_id=uid, kind=game.kind)
            rating.mu, rating.sigma = previous.mu_after, previous.sigma_after
            rating.games, rating.last_played = counted.count(), previous.at
            rating.save()
    return changes
