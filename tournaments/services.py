"""Everything that writes tournament rows: sign-up, withdrawal, the start, the rounds and the results.

Each public function is keyword-only, runs in one transaction and raises
:class:`TournamentError` (a sentence for the player) for a refused request.
Games are made and forfeited only through ``games.services``
(``game_create_arranged``, ``game_withdraw_player``): a table's game is an
ordinary game, clocked, emailed and rated like any other, and a player who
times out, resigns or withdraws is handled by the site's forfeit rule.

How a tournament moves: ``tournaments.tasks.tick`` (Celery beat, every
minute) starts a tournament whose start time came; a finished game's
result is recorded by the ``GameFinished`` listener in the game's own
transaction, which queues :func:`tournament_advance` after commit; that
makes the next round (or ends the tournament) once every table of the
round has its result. ``tick`` also advances any tournament whose round is
complete, so a lost task loses nothing. All times are aware UTC.
"""

from __future__ import annotations

import logging
import secrets
from datetime import datetime
from typing import TYPE_CHECKING

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.selectors import has_verified_email
from games import live, policy
from games import services as games
from games.engine.registry import get_engine
from games.models import Game, Seat
from ratings.models import Rating
from ratings.services import display_rating
from tournaments import notify
from tournaments.models import Entry, Round, Table, TableSeat, Tournament
from tournaments.pairing import multi_table_round, place_points, round_robin_rounds, swiss_round
from tournaments.standings import past_groups, standings, swiss_history

if TYPE_CHECKING:
    from accounts.models import User

log = logging.getLogger(__name__)

System = Tournament.System
Status = Tournament.Status


class TournamentError(Exception):
    """A refused request; ``str(err)`` is a sentence for the person asking."""


def lock_tournament(tournament_id: int) -> Tournament:
    """The tournament, its row locked until the transaction ends (PostgreSQL; SQLite locks the database)."""
    try:
        return Tournament.objects.select_for_update().get(pk=tournament_id)
    except Tournament.DoesNotExist:
        raise TournamentError(_("There is no such tournament.")) from None


def rating_of(user: User, kind: str) -> int:
    """The user's displayed rating in ``kind`` (1500 for a newcomer): entry limits and seeding."""
    row = Rating.objects.filter(user=user, kind=kind).first()
    return display_rating(row.mu, row.sigma) if row else 1500


def signup_refusal(tournament: Tournament, user: User, now: datetime | None = None) -> str:
    """Why ``user`` may not sign up to ``tournament`` now, as a sentence, or "" if they may."""
    now = now or timezone.now()
    if not tournament.is_signup or now >= tournament.signup_closes:
        return _("Sign-up for this tournament is closed.")
    if tournament.entries.filter(user=user).exists():
        return _("You have already signed up.")
    if policy.is_restricted(user, "join"):
        return _("Your account is suspended.")
    if (tournament.rated or tournament.verified_only) and not has_verified_email(user):
        return _("Verify your email address before signing up.")
    if tournament.rated and user.bot_account and not settings.HERALD_RATE_BOT_ACCOUNTS:
        # Its games would pair the bot with people, rated (games.lifecycle refuses that for a join).
        return _("Rated games do not pair bot accounts with people.")
    if tournament.max_players and tournament.entries.count() >= tournament.max_players:
        return _("This tournament is full.")
    if tournament.min_rating is not None or tournament.max_rating is not None:
        rating = rating_of(user, tournament.kind)
        if tournament.min_rating is not None and rating < tournament.min_rating:
            return _("Your rating is below this tournament's limit (%(limit)d).") % {"limit": tournament.min_rating}
        if tournament.max_rating is not None and rating > tournament.max_rating:
            return _("Your rating is above this tournament's limit (%(limit)d).") % {"limit": tournament.max_rating}
    if tournament.min_games:
        done = Seat.objects.filter(user=user, game__status=Game.Status.FINISHED).count()
        if done < tournament.min_games:
            return _("This tournament needs %(n)d finished games on the site first.") % {"n": tournament.min_games}
    return ""


def tournament_signup(*, tournament_id: int, user: User) -> Entry:
    """Sign ``user`` up to an open tournament.

    Raises:
        TournamentError: closed, already in, full, outside the rating range,
            too few games, no verified email (rated or verified-only), suspended.
    """
    with transaction.atomic():
        tournament = lock_tournament(tournament_id)
        refusal = signup_refusal(tournament, user)
        if refusal:
            raise TournamentError(refusal)
        return Entry.objects.create(tournament=tournament, user=user)


def tournament_withdraw(*, tournament_id: int, user: User, by_moderator: bool = False) -> Entry | None:
    """Take ``user`` out of a tournament: before the start, cancel the entry; after, withdraw them.

    A withdrawn player is not paired again, and each of their running games
    in the tournament is forfeited by the site's forfeit rule (ranked last;
    a two-player game ends, a bot plays on at a larger table), said as a
    resignation (or a moderator's forfeit when ``by_moderator``). Their
    frozen games too (``games.services.game_withdraw_player``): a frozen
    two-player game ends with the other player first, so it does not hold
    up the round; a frozen larger table waits for a moderator, as it would anyway.

    Returns:
        The withdrawn Entry, or None when the entry was simply removed before the start.

    Raises:
        TournamentError: not signed up, already withdrawn, or the tournament is over.
    """
    with transaction.atomic():
        tournament = lock_tournament(tournament_id)
        entry = tournament.entries.filter(user=user).first()
        if entry is None:
            raise TournamentError(_("You are not playing in this tournament."))
        if tournament.is_signup:
            entry.delete()
            return None
        if not tournament.is_running:
            raise TournamentError(_("This tournament is over."))
        if entry.withdrawn is not None:
            raise TournamentError(_("You have already withdrawn."))
        entry.withdrawn = timezone.now()
        entry.removed = by_moderator
        entry.save(update_fields=["withdrawn", "removed"])
        running = Game.objects.filter(
            tournament_table__round__tournament=tournament,
            status__in=[Game.Status.ACTIVE, Game.Status.FROZEN],
            seats__user=user,
        ).values_list("pk", flat=True)
        for game_id in list(running):
            games.game_withdraw_player(game_id=game_id, user=user, by_moderator=by_moderator)
    return entry


def is_tournament_game(game: Game) -> bool:
    """True for a game played at a tournament's table (``games.policy.result_required``).

    Such a game ends with a result whoever leaves it, even at move 0 where
    other games are aborted: a table needs its result, and a player who
    never moves loses (as in lichess's Swiss), so the opponent who came is
    not left with nothing.
    """
    return Table.objects.filter(game_id=game.pk).exists()


def left_the_site(user: User) -> bool:
    """True for an account deleted (``accounts.services.user_delete``) or deactivated: it plays no more games."""
    return not user.is_active or user.deleted is not None


def tournament_start(*, tournament_id: int, now: datetime | None = None) -> bool:
    """Start a tournament whose start time has come: seed the players and make the first round (all, for round robin).

    A sign-up whose account was deleted (or deactivated) since is dropped,
    as if withdrawn before the start. Fewer than two players: the
    tournament is cancelled instead.

    Returns:
        True if it started (or was cancelled) now.
    """
    now = now or timezone.now()
    with transaction.atomic():
        tournament = lock_tournament(tournament_id)
        if not tournament.is_signup or tournament.starts > now:
            return False
        entries = list(tournament.entries.select_related("user"))
        gone = [e.pk for e in entries if left_the_site(e.user)]
        if gone:
            Entry.objects.filter(pk__in=gone).delete()
            entries = [e for e in entries if e.pk not in gone]
        if len(entries) < 2:
            tournament.status = Status.CANCELLED
            tournament.finished = now
            tournament.save(update_fields=["status", "finished"])
            log.info("tournament %s cancelled: %d player(s)", tournament.pk, len(entries))
            return True
        for entry in entries:
            entry.rating = rating_of(entry.user, tournament.kind)
        entries.sort(key=lambda e: (-e.rating, e.joined, e.pk))
        for number, entry in enumerate(entries, start=1):
            entry.number = number
        Entry.objects.bulk_update(entries, ["rating", "number"])
        tournament.status = Status.RUNNING
        tournament.started = now
        if tournament.system == System.ROUND_ROBIN:
            schedule = round_robin_rounds([e.pk for e in entries], double=tournament.double_round_robin)
            tournament.rounds = len(schedule)
            for number, pairs in enumerate(schedule, start=1):
                _make_round(tournament, number, [[a, b] if b is not None else [a] for a, b in pairs], now)
            tournament.current_round = len(schedule)
        else:
            _next_round(tournament, now)
        tournament.save(update_fields=["status", "started", "rounds", "current_round"])
        notify.started(tournament)
    return True


def _next_round(tournament: Tournament, now: datetime) -> bool:
    """Pair and make round ``current_round + 1`` (tournament locked). False if nobody can be paired.

    A player whose account was deleted since the last round is withdrawn
    now (their games all ended: the round is complete), so they are not
    paired with someone who would only win by their timeout, nor emailed.
    """
    active = list(tournament.entries.filter(withdrawn__isnull=True).select_related("user").order_by("number"))
    gone = [e.pk for e in active if left_the_site(e.user)]
    if gone:
        Entry.objects.filter(pk__in=gone).update(withdrawn=now)
        active = [e for e in active if e.pk not in gone]
    # A suspended (banned) player sits the round out: their seats would only be forfeited.
    active = [e for e in active if not policy.is_restricted(e.user, "join")]
    if len(active) < 2:
        return False
    number = tournament.current_round + 1
    if tournament.system == System.SWISS:
        players, met = swiss_history(tournament, active)
        pairs = swiss_round(players, met, number, tournament.rounds)
        if any(b is not None and (min(a, b), max(a, b)) in met for a, b in pairs):
            log.warning(
                "tournament %s round %s: the pairing repeats a game; the tournament ends", tournament.pk, number
            )
            return False
        groups = [[a, b] if b is not None else [a] for a, b in pairs]
        final = False
    else:
        by_standing = {r.entry.pk: i for i, r in enumerate(standings(tournament))}
        order = sorted((e.pk for e in active), key=lambda pk: by_standing.get(pk, 0))
        final = tournament.final_table and number == tournament.rounds and len(order) > tournament.players_per_table
        groups = multi_table_round(order, tournament.players_per_table, past_groups(tournament), final_table=final)
    _make_round(tournament, number, groups, now, final=final)
    tournament.current_round = number
    return True


def _make_round(
    tournament: Tournament, number: int, groups: list[list[int]], now: datetime, final: bool = False
) -> Round:
    """Write a round's tables and start their games (seat order as given). Tournament locked."""
    rnd = Round.objects.create(tournament=tournament, number=number, started=now)
    entries = {e.pk: e for e in tournament.entries.select_related("user")}
    # Every table of a round plays the same setup: a random kingdom is drawn once per round
    # (from a seed of its own), so a round is fair across tables.
    engine = get_engine(tournament.kind)
    round_seed = secrets.randbits(63)
    for table_number, group in enumerate(groups, start=1):
        table = Table(round=rnd, number=table_number, final=final and table_number == 1)
        if len(group) == 1:
            table.done = True  # a bye: a point and no game
        else:
            table.game = games.game_create_arranged(
                players=[entries[pk].user for pk in group],
                kind=tournament.kind,
                options=engine.normalize_options(dict(tournament.options), len(group), round_seed),
                rated=tournament.rated,
                time_per_move=tournament.time_per_move,
                clock=tournament.clock,
                increment=tournament.increment,
                announced_by=notify.KIND,  # the round's email lists the game: no separate "game started"
            )
        table.save()
        # A Swiss bye is a point (FIDE's pairing-allocated bye); a round robin's sits out, once
        # for everyone, and scores nothing.
        bye_points = 1.0 if tournament.system != System.ROUND_ROBIN else 0.0
        TableSeat.objects.bulk_create(
            TableSeat(
                table=table,
                entry_id=pk,
                position=i,
                place=1 if len(group) == 1 and bye_points else None,
                points=bye_points if len(group) == 1 else None,
            )
            for i, pk in enumerate(group)
        )
    return rnd


def tournament_games_cancel(tournament: Tournament) -> list[int]:
    """Cancel every game of ``tournament`` that has not ended (the tournament is locked and being cancelled).

    Each through ``games.services.game_cancel_arranged`` (the game locked,
    aborted, ``GameCancelled`` published), so it is never rated and its
    players owe no more moves; its table is closed with no points by
    :func:`result_record`. Finished games are left as they are.

    Returns:
        The ids of the games cancelled now.
    """
    unfinished = Game.objects.filter(
        tournament_table__round__tournament=tournament,
        status__in=[Game.Status.OPEN, Game.Status.ACTIVE, Game.Status.FROZEN],
    ).order_by("pk")
    return [pk for pk in list(unfinished.values_list("pk", flat=True)) if games.game_cancel_arranged(game_id=pk)]


def result_record(game: Game, seats: list[Seat] | None = None) -> int | None:
    """Record a tournament game's result at its table (called in the game's transaction, lock held).

    Places come from the seats' ranks (a forfeited seat ranks last, as
    everywhere); tournament points from :func:`tournaments.pairing.place_points`.
    A game that ended without ranks (cancelled by a moderator) gives
    everyone 0, which a moderator may adjust; a game cancelled with its
    cancelled tournament gives no points at all (the table is only closed).
    The caller queues the
    tournament's advance after commit (``tournaments.listeners``).

    Returns:
        The tournament's id if the game belonged to one of its tables, else None.
    """
    table = Table.objects.filter(game_id=game.pk).select_related("round__tournament").first()
    if table is None:
        return None
    if table.done:
        return table.round.tournament_id
    if table.round.tournament.status == Status.CANCELLED:
        table.done = True
        table.save(update_fields=["done"])
        return table.round.tournament_id
    seats = seats if seats is not None else list(game.seats.all())
    rank_of = {s.user_id: s.rank for s in seats}
    table_seats = list(table.seats.select_related("entry"))
    places = {ts.pk: rank_of.get(ts.entry.user_id) for ts in table_seats}
    ranked = {pk: place for pk, place in places.items() if place is not None}
    if game.status == Game.Status.FINISHED and len(ranked) == len(places):
        points = place_points(ranked)
    else:
        points = dict.fromkeys(places, 0.0)
    for ts in table_seats:
        if not ts.adjusted:
            ts.place = places[ts.pk]
            ts.points = points[ts.pk]
    TableSeat.objects.bulk_update(table_seats, ["place", "points"])
    table.done = True
    table.save(update_fields=["done"])
    return table.round.tournament_id


def round_complete(tournament: Tournament) -> bool:
    """True when every table of every round made so far has its result."""
    return not Table.objects.filter(round__tournament=tournament, done=False).exists()


def tournament_advance(*, tournament_id: int, now: datetime | None = None) -> str:
    """Make the next round, or end the tournament, if every table of the rounds so far is done.

    Safe to call any time and twice (the tournament row is locked and the
    state re-read): the ``GameFinished`` listener's task and the beat's tick both call it.

    Returns:
        ``"round"`` (a round was made), ``"finished"``, or ``""`` (nothing to do).
    """
    now = now or timezone.now()
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
        if tournament is None or not tournament.is_running or not round_complete(tournament):
            return ""
        Round.objects.filter(tournament=tournament, finished__isnull=True).update(finished=now)
        live.notify_on_commit(live.tournament_topic(tournament.pk))
        if tournament.current_round < tournament.rounds and _next_round(tournament, now):
            tournament.save(update_fields=["current_round"])
            notify.round_started(tournament, tournament.current_round)
            return "round"
        tournament.status = Status.FINISHED
        tournament.finished = now
        tournament.save(update_fields=["status", "finished"])
        notify.finished(tournament, standings(tournament))
    return "finished"


def tick(now: datetime | None = None) -> dict[str, int]:
    """The beat's work: start the tournaments whose time came, advance those whose round is complete.

    Returns:
        Counts: ``{"started": n, "advanced": n}``.
    """
    now = now or timezone.now()
    started = advanced = 0
    for pk in Tournament.objects.filter(status=Status.SIGNUP, starts__lte=now).values_list("pk", flat=True):
        started += tournament_start(tournament_id=pk, now=now)
    running = Tournament.objects.filter(status=Status.RUNNING).exclude(round_set__tables__done=False)
    for pk in running.values_list("pk", flat=True).distinct():
        advanced += bool(tournament_advance(tournament_id=pk, now=now))
    return {"started": started, "advanced": advanced}


#: Without beat, :func:`tick` runs from tournament page requests at most this often (seconds).
REQUEST_TICK_INTERVAL = 30


def tick_on_request() -> None:
    """Run :func:`tick` from a web request when there is no Celery beat (``make run`` without Redis).

    Only when ``settings.HERALD_SWEEP_ON_REQUEST`` is on, at most once per
    ``REQUEST_TICK_INTERVAL`` seconds per cache, as correspondence's sweep
    does. Never raises: the page matters more.
    """
    if not getattr(settings, "HERALD_SWEEP_ON_REQUEST", False):
        return
    if not cache.add("herald:tournament-tick", 1, REQUEST_TICK_INTERVAL):
        return
    try:
        tick()
    except Exception:
        log.exception("tournament tick from a request failed")
