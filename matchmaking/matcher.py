"""The matcher against the database: one run at a time, the open seeks in, ordinary games out.

The rules are pure (``matchmaking.matching``); this module reads the open
seeks, ratings, bans, blocks, recent opponents and timeouts, and turns the
tables into games through ``games.services.game_create_arranged``.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from datetime import datetime

from django.db import connection, transaction
from django.utils import timezone

from accounts.models import Block
from games import policy, services
from games.models import Seat
from matchmaking import matching
from matchmaking.limits import (
    LATE_TIMEOUTS,
    LATE_WINDOW,
    MATCHER_LOCK,
    REPEAT_WINDOW,
    bannable,
    bans_of,
    options_for,
    ratings_of,
)
from matchmaking.models import Seek

log = logging.getLogger(__name__)


def _take_matcher_lock() -> None:
    """Make this transaction the only matcher running: an advisory lock on PostgreSQL, released at commit.

    On SQLite every atomic block begins ``BEGIN IMMEDIATE`` (the settings), which
    already serialises writers on the whole database.
    """
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [MATCHER_LOCK])


def _seekers(seeks: list[Seek], now: datetime) -> list[matching.Seeker]:
    """The open seeks as the matcher's rows: ratings, bans, lateness and bot flags read in a few queries."""
    users = {s.user_id for s in seeks}
    ratings = ratings_of(users, {s.kind for s in seeks}, now)
    bans = bans_of(list(users))
    own_bans = {kind: frozenset(bannable(kind)) for kind in {s.kind for s in seeks}}  # a game reads its own
    late_counts: dict[int, int] = defaultdict(int)
    late_rows = Seat.objects.filter(
        user_id__in=users, timed_out__gte=now - LATE_WINDOW, resigned=False, forfeited_by_moderator=False
    ).values_list("user_id", flat=True)
    for uid in late_rows:
        late_counts[uid] += 1
    return [
        matching.Seeker(
            seek_id=s.pk,
            user_id=s.user_id,
            pool=(s.kind, s.rated, s.clock, int(s.time_per_move.total_seconds()), int(s.increment.total_seconds())),
            sizes=s.sizes,
            rating=ratings[(s.user_id, s.kind)],
            low=s.rating_low,
            high=s.rating_high,
            waited=max(0.0, (now - s.created).total_seconds() / 60),
            bans=bans[s.user_id] & own_bans[s.kind],
            late=late_counts[s.user_id] >= LATE_TIMEOUTS,
            bot=s.user.bot_account,
            rated=s.rated,
        )
        for s in seeks
    ]


def _pairs(user_ids: set[int], now: datetime) -> tuple[set[frozenset[int]], set[frozenset[int]]]:
    """(blocked pairs, pairs who sat at a game started within ``REPEAT_WINDOW``) among ``user_ids``."""
    blocked = {
        matching.pair(a, b)
        for a, b in Block.objects.filter(blocker_id__in=user_ids, blocked_id__in=user_ids).values_list(
            "blocker_id", "blocked_id"
        )
    }
    tables: dict[int, list[int]] = defaultdict(list)
    for game_id, uid in Seat.objects.filter(user_id__in=user_ids, game__started__gte=now - REPEAT_WINDOW).values_list(
        "game_id", "user_id"
    ):
        tables[game_id].append(uid)
    met = {matching.pair(a, b) for ids in tables.values() for a in ids for b in ids if a != b}
    return blocked, met


def _eligible(seek: Seek, restricted: dict[int, bool]) -> bool:
    """False for a seek whose player may not play now (suspended, deactivated, deleted); asked once per user per run."""
    if seek.user_id not in restricted:
        user = seek.user
        restricted[seek.user_id] = not user.is_active or user.deleted is not None or policy.is_restricted(user, "join")
    return not restricted[seek.user_id]


def matcher_run(*, now: datetime | None = None) -> list[int]:
    """Seat every table the open seeks allow now (``matchmaking.matching.match``); return the new games' ids.

    One matcher at a time across every web and worker process (PostgreSQL
    advisory lock, held until commit; on SQLite the immediate transaction),
    and the open seeks are locked too, so a seek cancelled meanwhile waits
    for this run and two runs never seat one seek twice. Each table is an
    ordinary game (``games.services.game_create_arranged``, seats shuffled),
    made in a savepoint: a table that fails is logged and its seeks stay open.
    Runs on seek creation, from beat (``matchmaking.tasks.tick``, every
    minute: tolerances widen with the wait) and, without a broker, from requests.
    """
    with transaction.atomic():
        _take_matcher_lock()
        now = now or timezone.now()
        seeks = list(
            Seek.objects.select_for_update(of=("self",))
            .filter(status=Seek.Status.OPEN, expires__gt=now)
            .select_related("user")
            .order_by("pk")
        )
        restricted: dict[int, bool] = {}
        seeks = [s for s in seeks if _eligible(s, restricted)]
        if len(seeks) < 2:
            return []
        by_id = {s.pk: s for s in seeks}
        blocked, met = _pairs({s.user_id for s in seeks}, now)
        made: list[int] = []
        for table in matching.match(_seekers(seeks, now), blocked=blocked, met=met):
            first = by_id[table.seek_ids[0]]
            users = [by_id[i].user for i in table.seek_ids]
            try:
                with transaction.atomic():
                    game = services.game_create_arranged(
                        players=users,
                        kind=first.kind,
                        options=options_for(first.kind, [u.pk for u in users]),
                        rated=first.rated,
                        time_per_move=first.time_per_move,
                        clock=first.clock,
                        increment=first.increment,
                        shuffle=True,
                    )
                    Seek.objects.filter(pk__in=table.seek_ids).update(status=Seek.Status.MATCHED, game=game, ended=now)
            except (services.ServiceError, services.InvalidOptions):
                log.exception("matcher: table %s could not start", table.seek_ids)
                continue
            made.append(game.pk)
            log.info("matcher: game %s for seeks %s (spread %s)", game.pk, table.seek_ids, table.spread)
    return made
