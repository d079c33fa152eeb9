"""Moderators' actions on tournaments: create, cancel, remove a player, adjust a result.

Each runs in one transaction, needs the Moderators' games permission
(``moderation.moderate_games``), and writes exactly one
``ModerationAction`` through ``moderation.trail.record``, as every other
moderator action does; the player concerned is told by an on-site notice
(and email) through ``moderation.trail.tell``. Refusals raise
``TournamentError`` (a sentence for the moderator); a user without the
permission gets ``PermissionDenied``.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.engine.core import InvalidOptions
from games.engine.registry import get_engine
from moderation.trail import PERM_GAMES, Kind, reason_line, record, require, tell
from tournaments.models import TableSeat, Tournament
from tournaments.services import TournamentError, lock_tournament, tournament_games_cancel, tournament_withdraw

if TYPE_CHECKING:
    from accounts.models import User

System = Tournament.System


def tournament_create(
    *,
    moderator: User,
    name: str,
    kind: str,
    system: str,
    signup_closes: datetime,
    starts: datetime,
    options: dict[str, Any] | None = None,
    players_per_table: int = 2,
    rounds: int = 5,
    time_per_move: timedelta = timedelta(days=2),
    rated: bool = True,
    double_round_robin: bool = False,
    final_table: bool = False,
    max_players: int = 0,
    min_rating: int | None = None,
    max_rating: int | None = None,
    min_games: int = 0,
    verified_only: bool = True,
    reason: str = "",
) -> Tournament:
    """Create a tournament open for sign-up (times UTC); audited as ``tournament_create``.

    Raises:
        PermissionDenied: not a moderator.
        TournamentError: unknown game or options, a table size the system or
            the game does not allow, no rounds, sign-up closing after the start.
    """
    require(moderator, PERM_GAMES)
    try:
        engine = get_engine(kind)
        engine.normalize_options(dict(options or {}), players_per_table, 0)
    except (KeyError, ImportError):
        raise TournamentError(_("Unknown game: %(kind)s.") % {"kind": kind}) from None
    except InvalidOptions as exc:
        raise TournamentError(str(exc)) from None
    if system not in System.values:
        raise TournamentError(_("Unknown tournament system."))
    if system in (System.SWISS, System.ROUND_ROBIN) and players_per_table != 2:
        raise TournamentError(_("Round robin and Swiss are for two-player games."))
    if system == System.MULTI_TABLE and players_per_table not in (3, 4):
        raise TournamentError(_("Multi-table rounds seat 3 or 4 players a table."))
    if not 1 <= rounds <= 30:
        raise TournamentError(_("A tournament has 1 to 30 rounds."))
    if signup_closes > starts:
        raise TournamentError(_("Sign-up must close before the tournament starts."))
    if time_per_move <= timedelta(0):
        raise TournamentError(_("The time per move must be positive."))
    with transaction.atomic():
        tournament = Tournament.objects.create(
            name=name.strip()[:100] or _("Tournament"),
            kind=kind,
            options=dict(options or {}),
            system=system,
            players_per_table=players_per_table,
            rounds=rounds,
            time_per_move=time_per_move,
            rated=rated,
            double_round_robin=double_round_robin and system == System.ROUND_ROBIN,
            final_table=final_table and system == System.MULTI_TABLE,
            signup_closes=signup_closes,
            starts=starts,
            max_players=max_players,
            min_rating=min_rating,
            max_rating=max_rating,
            min_games=min_games,
            verified_only=verified_only,
            created_by=moderator,
        )
        record(moderator=moderator, action=Kind.TOURNAMENT_CREATE, reason=reason, data={"tournament": tournament.pk})
    return tournament


def tournament_cancel(*, moderator: User, tournament_id: int, reason: str = "") -> Tournament:
    """Cancel a tournament not yet over; audited as ``tournament_cancel``; its players are told.

    What players expect of a cancelled tournament: it is over, for every
    game in it. So no further round is made, and each of its games that
    has not ended is cancelled too (``services.tournament_games_cancel``,
    through the games' own locked abort, which publishes ``GameCancelled``):
    clocks stop, nobody owes a move, and the game is never rated, as it
    was only being played for the tournament. Games that already finished
    keep their result and their rating changes: they were played out in
    full, and undoing them is a moderator's separate decision per game
    (``moderation.game_actions.game_abort``). The audit record lists the
    games cancelled (``games_cancelled``); the players are told by a
    notice, and the tournament page shows it cancelled, with those games
    marked cancelled. Organisers are moderators (only they create
    tournaments), so this one service serves both.

    Raises:
        PermissionDenied, TournamentError (already over).
    """
    require(moderator, PERM_GAMES)
    with transaction.atomic():
        tournament = lock_tournament(tournament_id)
        if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
            raise TournamentError(_("This tournament is already over."))
        was = tournament.status
        tournament.status = Tournament.Status.CANCELLED
        tournament.finished = timezone.now()
        tournament.save(update_fields=["status", "finished"])
        cancelled = tournament_games_cancel(tournament)
        record(
            moderator=moderator,
            action=Kind.TOURNAMENT_CANCEL,
            reason=reason,
            data={"tournament": tournament.pk, "was": was, "games_cancelled": cancelled},
        )
        name = tournament.name
        tell(
            tournament.entries.values_list("user_id", flat=True),
            lambda: " ".join(
                filter(
                    None,
                    [
                        _("A moderator cancelled the tournament %(name)s.") % {"name": name},
                        _("Its unfinished games are cancelled and do not count for ratings.") if cancelled else "",
                        reason_line(reason),
                    ],
                )
            ),
        )
    return tournament


def entry_remove(*, moderator: User, tournament_id: int, user: User, reason: str = "") -> None:
    """Remove a player: withdrawn with their running games forfeited by a moderator; audited as ``tournament_remove``.

    Raises:
        PermissionDenied, TournamentError (not in it, already out, over).
    """
    require(moderator, PERM_GAMES)
    with transaction.atomic():
        entry = tournament_withdraw(tournament_id=tournament_id, user=user, by_moderator=True)
        record(
            moderator=moderator,
            action=Kind.TOURNAMENT_REMOVE,
            reason=reason,
            user=user,
            data={"tournament": tournament_id, "before_start": entry is None},
        )
        name = Tournament.objects.get(pk=tournament_id).name
        tell(
            [user],
            lambda: " ".join(
                filter(
                    None,
                    [_("A moderator removed you from the tournament %(name)s.") % {"name": name}, reason_line(reason)],
                )
            ),
        )


def result_adjust(*, moderator: User, tournament_id: int, seat_id: int, points: float, reason: str = "") -> TableSeat:
    """Set the tournament points a player got at one table; audited as ``tournament_adjust``.

    The game's own result (and rating) is unchanged: this corrects the
    tournament's score only (a moderator adjudicates the game itself on its
    moderate page). A table still running is marked done for that seat only
    when every seat has points.

    Raises:
        PermissionDenied, TournamentError (no such seat in ``tournament_id``, points outside 0..1,
            tournament cancelled, the seat of a bye).
    """
    require(moderator, PERM_GAMES)
    if not 0 <= points <= 1:
        raise TournamentError(_("Points at a table are between 0 and 1."))
    with transaction.atomic():
        # Of the tournament whose page the moderator acted on: a seat id from another is "no such result".
        seat = (
            TableSeat.objects.select_related("table__round__tournament", "entry")
            .filter(pk=seat_id, table__round__tournament_id=tournament_id)
            .first()
        )
        if seat is None:
            raise TournamentError(_("There is no such result."))
        tournament = lock_tournament(seat.table.round.tournament_id)
        if tournament.status == Tournament.Status.CANCELLED:
            raise TournamentError(_("This tournament was cancelled."))
        if seat.table.is_bye:
            # A bye is no result: its point comes from the pairing rules, and no game backs another number.
            raise TournamentError(_("A bye is not a result: it always scores 1 point."))
        before = seat.points
        seat.points = points
        seat.adjusted = True
        seat.save(update_fields=["points", "adjusted"])
        record(
            moderator=moderator,
            action=Kind.TOURNAMENT_ADJUST,
            reason=reason,
            user=seat.entry.user_id,
            game=seat.table.game,
            data={"tournament": tournament.pk, "round": seat.table.round.number, "before": before, "after": points},
        )
    return seat
