"""Everything that writes statistics rows.

A finished game is measured once (:func:`stats_record_game`, run by a
Celery task queued after the commit that finished it, and by the sweep
:func:`stats_catch_up` for any game a lost task left out): its log is
replayed through the engine and measured by its game's ``stats`` part
(``stats.compute``, ``stats.plugin``), and its rows are written
together with its share of the running totals, in one transaction, exactly
once (``GameStats`` is keyed by the game). A finished game a moderator later
aborts is taken out again (:func:`stats_forget_game`). ``manage.py
rebuild_stats`` (:func:`stats_rebuild`) throws everything away and measures
every finished game again.

The totals are sums over the stored rows (:func:`totals_of`), so the live
update, the removal and the rebuild cannot disagree.
"""

from __future__ import annotations

import logging
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.db.models import F

from games.engine.core import EngineError
from games.models import Action, Game, Seat
from games.replay import ReplayBroken, engine_for
from ratings.models import RatingChange
from ratings.services import game_is_rateable, rating_ranks
from stats.compute import game_numbers, measured
from stats.models import ALL_BANDS, CardStats, CardTotal, GameStats, PlayerStats, Tally, band_of
from stats.plugin import GameNumbers, part_of

log = logging.getLogger(__name__)

#: Games one sweep measures at most.
CATCH_UP_BATCH = 200


@dataclass(slots=True)
class GameRows:
    """The rows one finished game gets (not saved yet)."""

    game: GameStats
    players: list[PlayerStats]
    cards: list[CardStats]


def measure(game: Game, players: int | None = None, moves: list[tuple[int, dict]] | None = None) -> GameNumbers | None:
    """Replay ``game``'s log and return its numbers; None if it does not replay (logged) or is not measured.

    A game is measured when its kind is installed with a ``stats`` part (``stats.plugin``).

    ``players`` and ``moves`` (``(seat, move)`` in log order), when the caller
    already read them, save a query each.
    """
    if not measured(game.kind):
        return None
    if moves is None:
        moves = list(game.actions.order_by("seq").values_list("seat", "move"))
    if players is None:
        players = game.seats.count()
    try:
        engine = engine_for(game)
        return game_numbers(game.kind, engine, game.options, players, game.seed, moves)
    except (ReplayBroken, EngineError, ValueError, LookupError) as exc:
        log.warning("statistics: game %s does not replay: %r", game.pk, exc)
        return None


def _winners(seats: list[Seat]) -> list[bool]:
    """Who ranked first, forfeits last (as the ratings count it); nobody if a rank is missing."""
    if any(s.rank is None and not s.forfeited for s in seats):
        return [False] * len(seats)
    return [r == 1 for r in rating_ranks(seats)]


def build_rows(game: Game, seats: list[Seat], numbers: GameNumbers | None, bands: dict[int, int]) -> GameRows:
    """Return the rows of a finished ``game`` (``seats`` in order; ``bands``: user id -> rating before it)."""
    rated = game_is_rateable(game, seats) and numbers is not None
    n = len(seats)
    won = _winners(seats)
    stats = GameStats(
        game=game,
        kind=game.kind,
        players=n,
        rated=rated,
        finished=game.finished or game.started or game.created,  # never null, even for a hand-made row
        turns=numbers.turns if numbers else 0,
        data=numbers.as_data() if numbers else {"unreplayable": True},
        counted=rated,
    )
    players = []
    cards = []
    for i, s in enumerate(seats):
        before = bands.get(s.user_id) if s.user_id is not None else None
        band = band_of(before) if rated else ""
        common = {"game": game, "position": s.position, "user_id": s.user_id, "players": n, "rated": rated}
        players.append(
            PlayerStats(
                **common,
                kind=game.kind,
                rank=s.rank,
                won=won[i],
                score=s.score,
                band=band,
            )
        )
        if numbers and numbers.cards:
            for card in numbers.cards:
                cards.append(
                    CardStats(
                        **common,
                        card=card,
                        band=band,
                        won=won[i],
                        bought=numbers.bought[i].get(card, 0),
                        gained=numbers.gained[i].get(card, 0),
                        first=numbers.first[i].get(card),
                    )
                )
    return GameRows(stats, players, cards)


def totals_of(rows: GameRows) -> tuple[Counter, Counter]:
    """Return one counted game's share of the totals: ``(card deltas, tally deltas)``.

    Card keys are ``(card, players, band, field)``; tally keys
    ``(kind, measure, value, players, field)``; values are counts to add.
    Every counted game is tallied by "games" and by "seat"; its game's part
    adds its own measures (``tallies``, ``stats.plugin``), read from the
    stored ``data`` so that adding and taking away always agree.
    """
    cards: Counter = Counter()
    tally: Counter = Counter()
    g = rows.game
    if not g.counted:
        return cards, tally
    n = g.players
    tally[(g.kind, "games", "", n, "seats")] += 1
    part_tallies = getattr(part_of(g.kind), "tallies", None)
    for p in rows.players:
        pairs = [("seat", str(p.position))]
        if part_tallies is not None:
            pairs += list(part_tallies(g.data, p.position))
        for measure_, value in pairs:
            tally[(g.kind, measure_, value, n, "seats")] += 1
            tally[(g.kind, measure_, value, n, "wins")] += p.won
    seen: set[str] = set()
    for c in rows.cards:
        if c.card not in seen:
            seen.add(c.card)
            cards[(c.card, n, ALL_BANDS, "games")] += 1
        bought = c.bought > 0
        for band in {c.band, ALL_BANDS} - {""}:
            cards[(c.card, n, band, "present")] += 1
            cards[(c.card, n, band, "bought")] += bought
            cards[(c.card, n, band, "won_bought")] += c.won and bought
            cards[(c.card, n, band, "won_not")] += c.won and not bought
    return cards, tally


def _apply_totals(cards: Counter, tally: Counter, sign: int = 1) -> None:
    """Add (``sign`` 1) or take away (-1) deltas, row by row in key order (no deadlock between two games)."""
    card_rows: dict[tuple, dict[str, int]] = defaultdict(dict)
    for (card, n, band, field_), v in cards.items():
        if v:
            card_rows[(card, n, band)][field_] = v
    tally_rows: dict[tuple, dict[str, int]] = defaultdict(dict)
    for (kind, measure_, value, n, field_), v in tally.items():
        if v:
            tally_rows[(kind, measure_, value, n)][field_] = v
    CardTotal.objects.bulk_create(
        [CardTotal(card=c, players=n, band=b) for c, n, b in sorted(card_rows)], ignore_conflicts=True
    )
    Tally.objects.bulk_create(
        [Tally(kind=k, measure=m, value=v, players=n) for k, m, v, n in sorted(tally_rows)], ignore_conflicts=True
    )
    for (c, n, b), fields in sorted(card_rows.items()):
        CardTotal.objects.filter(card=c, players=n, band=b).update(**{f: F(f) + sign * v for f, v in fields.items()})
    for (k, m, v, n), fields in sorted(tally_rows.items()):
        Tally.objects.filter(kind=k, measure=m, value=v, players=n).update(
            **{f: F(f) + sign * x for f, x in fields.items()}
        )


def _rating_before(game: Game) -> dict[int, int]:
    return dict(RatingChange.objects.filter(game=game).values_list("user_id", "display_before"))


def stats_record_game(*, game_id: int) -> bool:
    """Measure finished game ``game_id`` and write its rows and its share of the totals, once.

    The replay runs before the transaction (no lock held meanwhile); the
    rows and the totals then commit together. A game already measured, or
    not finished, is left alone. A game whose log does not replay gets its
    ``GameStats`` (marked ``unreplayable``) and seat rows, and counts in no total.

    Returns:
        True if this call wrote the game's rows.
    """
    game = Game.objects.filter(pk=game_id, status=Game.Status.FINISHED).first()
    if game is None or GameStats.objects.filter(game_id=game_id).exists():
        return False
    seats = list(game.seats.order_by("position"))
    numbers = measure(game, len(seats))
    rows = build_rows(game, seats, numbers, _rating_before(game))
    try:
        with transaction.atomic():
            rows.game.save(force_insert=True)
            PlayerStats.objects.bulk_create(rows.players)
            CardStats.objects.bulk_create(rows.cards)
            _apply_totals(*totals_of(rows))
    except IntegrityError:  # another task measured it meanwhile
        return False
    return True


def stats_forget_game(*, game_id: int) -> bool:
    """Take a game that is no longer finished (a moderator aborted it) out of the statistics.

    Returns:
        True if it had rows, which are now gone (and its share of the totals with them).
    """
    with transaction.atomic():
        stats = GameStats.objects.select_for_update().filter(game_id=game_id).first()
        if stats is None:
            return False
        rows = GameRows(
            stats,
            list(PlayerStats.objects.filter(game_id=game_id).order_by("position")),
            list(CardStats.objects.filter(game_id=game_id)),
        )
        _apply_totals(*totals_of(rows), sign=-1)
        CardStats.objects.filter(game_id=game_id).delete()
        PlayerStats.objects.filter(game_id=game_id).delete()
        stats.delete()
    return True


def stats_catch_up(*, limit: int = CATCH_UP_BATCH) -> int:
    """The sweep: measure finished games that have no rows yet, forget aborted ones. Returns games changed."""
    done = 0
    for pk in GameStats.objects.exclude(game__status=Game.Status.FINISHED).values_list("game_id", flat=True)[:limit]:
        done += stats_forget_game(game_id=pk)
    missing = (
        Game.objects.filter(status=Game.Status.FINISHED, stats__isnull=True)
        .order_by("finished", "pk")
        .values_list("pk", flat=True)[:limit]
    )
    for pk in missing:
        done += stats_record_game(game_id=pk)
    return done


def rows_for_games(game_ids: Iterable[int]) -> Iterator[GameRows]:
    """Measure the finished games among ``game_ids`` (a rebuild worker's share); yields unsaved rows."""
    games = Game.objects.filter(pk__in=list(game_ids), status=Game.Status.FINISHED).order_by("pk")
    seats: dict[int, list[Seat]] = defaultdict(list)
    for s in Seat.objects.filter(game__in=games).order_by("game_id", "position"):
        seats[s.game_id].append(s)
    bands: dict[int, dict[int, int]] = defaultdict(dict)
    for gid, uid, before in RatingChange.objects.filter(game__in=games).values_list(
        "game_id", "user_id", "display_before"
    ):
        bands[gid][uid] = before
    moves: dict[int, list[tuple[int, dict]]] = defaultdict(list)
    for gid, seat, move in (
        Action.objects.filter(game__in=games).order_by("game_id", "seq").values_list("game_id", "seat", "move")
    ):
        moves[gid].append((seat, move))
    for game in games:
        yield build_rows(game, seats[game.pk], measure(game, len(seats[game.pk]), moves[game.pk]), bands[game.pk])


def stats_write_rows(batch: list[GameRows]) -> tuple[Counter, Counter]:
    """Save a rebuild's batch of rows (no totals); return the batch's share of the totals."""
    cards: Counter = Counter()
    tally: Counter = Counter()
    with transaction.atomic():
        GameStats.objects.bulk_create([r.game for r in batch])
        PlayerStats.objects.bulk_create([p for r in batch for p in r.players], batch_size=2000)
        CardStats.objects.bulk_create([c for r in batch for c in r.cards], batch_size=5000)
    for r in batch:
        c, t = totals_of(r)
        cards.update(c)
        tally.update(t)
    return cards, tally


def stats_clear() -> None:
    """Delete every statistics row (the start of a rebuild)."""
    with transaction.atomic():
        for model in (CardStats, PlayerStats, GameStats, CardTotal, Tally):
            model.objects.all().delete()


def stats_write_totals(cards: Counter, tally: Counter) -> None:
    """Write a rebuild's totals into empty total tables."""
    _apply_totals(cards, tally)


def finished_game_ids() -> list[int]:
    """Every finished game's id, oldest first (what a rebuild measures)."""
    return list(Game.objects.filter(status=Game.Status.FINISHED).order_by("pk").values_list("pk", flat=True))
