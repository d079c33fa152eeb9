"""Moderators' actions on games: abort, adjudicate, forfeit a seat, extend or pause clocks, the full log, refunds.

Each locks the game (``games.locking.lock_game``) and goes through the games'
own public functions (``games.lifecycle``, ``games.clocks``), so a
moderator's change is locked, clocked, rated and notified like any other,
and writes one audit row (``moderation.trail.record``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games import clocks, lifecycle
from games.locking import lock_game
from games.models import Game, Seat
from games.replay import ReplayBroken, engine_for, replay_states
from moderation.trail import (
    PERM_GAMES,
    PERM_HIDDEN,
    PERM_USERS,
    Kind,
    ModerationError,
    reason_line,
    record,
    require,
    tell,
)
from ratings.services import rating_reverse

# ---------------------------------------------------------------------------
# Games


def _players(game: Game) -> list[int]:
    return [uid for uid in game.seats.values_list("user_id", flat=True) if uid is not None]


def game_abort(*, moderator: User, game_id: int, reason: str) -> Game:
    """Abort a game, open, running or finished: nobody's rating changes for it.

    Clocks stop; rating changes already applied (a finished rated game)
    are reversed (``ratings.services.rating_reverse``). The players are told.

    Raises:
        ModerationError: the game was already aborted.
    """
    require(moderator, PERM_GAMES)
    with transaction.atomic():
        game = lock_game(game_id)
        if game.status == Game.Status.ABORTED:
            raise ModerationError(_("This game was already cancelled."))
        was = lifecycle.game_abort_locked(game)
        reversed_ = rating_reverse(game=game) if was == Game.Status.FINISHED else []
        record(
            moderator=moderator,
            action=Kind.GAME_ABORT,
            reason=reason,
            game=game,
            data={"was": was, "ratings_reversed": [rc.user_id for rc in reversed_]},
        )
        tell(
            _players(game),
            lambda: " ".join(
                filter(
                    None,
                    [
                        _("A moderator cancelled game #%(id)s; it does not count for ratings.") % {"id": game.pk},
                        reason_line(reason),
                    ],
                )
            ),
        )
    return game


def game_adjudicate(*, moderator: User, game_id: int, ranks: Mapping[int, int], reason: str) -> Game:
    """End a stalled game with the ranks a moderator sets, then rate it like any finished game.

    Args:
        ranks: ``{seat position: rank}`` for every seat (1 = best; ties allowed).

    Raises:
        ModerationError: the game is not running, or the ranks do not cover
            every seat with numbers from 1 to the number of seats.
    """
    require(moderator, PERM_GAMES)
    with transaction.atomic():
        game = lock_game(game_id)
        # A frozen game (its log no longer replays) waits for exactly this, or an abort.
        if not (game.is_active or game.is_frozen):
            raise ModerationError(_("Only a game in progress can be adjudicated."))
        seats = list(game.seats.all())
        if set(ranks) != {s.position for s in seats} or not all(1 <= r <= len(seats) for r in ranks.values()):
            raise ModerationError(_("Give every seat a rank from 1 to %(n)d.") % {"n": len(seats)})
        # Finished, emailed and rated as any game that ends (games.events.GameFinished).
        lifecycle.game_adjudicate_locked(game, ranks)
        record(
            moderator=moderator,
            action=Kind.GAME_ADJUDICATE,
            reason=reason,
            game=game,
            data={"ranks": {str(p): r for p, r in sorted(ranks.items())}},
        )
        tell(
            _players(game),
            lambda: " ".join(
                filter(
                    None,
                    [_("A moderator ended game #%(id)s and set the result.") % {"id": game.pk}, reason_line(reason)],
                )
            ),
        )
    return game


def seat_forfeit(*, moderator: User | None, game_id: int, position: int, reason: str) -> Seat:
    """Forfeit a seat of a running game, as if its player had run out of time.

    The seat ranks last; with two or more players left a bot plays it to
    the end, else the game ends and is rated. ``moderator`` None is the
    site acting on a ban (the forfeit sweep).

    Raises:
        ModerationError: the game is not running, the seat is a bot's or
            already forfeited, or the game's engine version is gone (the game
            is frozen then).
    """
    if moderator is not None:
        require(moderator, PERM_GAMES)
    try:
        return _seat_forfeit(moderator, game_id, position, reason)
    except ReplayBroken as broken:
        # The forfeit needs the game's engine (its bot plays the seat on); the transaction has rolled
        # back, and the game stops for a moderator as on every other path (games.lifecycle.game_freeze).
        lifecycle.game_freeze(game_id=game_id, broken=broken)
        raise ModerationError(
            _("This game's log no longer replays (%(reason)s): adjudicate or cancel it.") % {"reason": broken.reason}
        ) from broken


def _seat_forfeit(moderator: User | None, game_id: int, position: int, reason: str) -> Seat:
    with transaction.atomic():
        game = lock_game(game_id)
        if not game.is_active:
            raise ModerationError(_("Only a game in progress can be forfeited."))
        seat = game.seats.select_related("user").get(position=position)
        if seat.user_id is None or seat.forfeited:
            raise ModerationError(_("This seat cannot be forfeited."))
        # The timeout rule's own code: ranked last; a bot plays on, or the game ends.
        lifecycle.seat_forfeit_locked(game, seat, timezone.now(), by_moderator=True)
        record(
            moderator=moderator,
            action=Kind.SEAT_FORFEIT,
            reason=reason,
            game=game,
            user=seat.user_id,
            data={"position": position},
        )
        tell(
            [seat.user_id],
            lambda: " ".join(
                filter(
                    None,
                    [_("A moderator forfeited your seat in game #%(id)s.") % {"id": game.pk}, reason_line(reason)],
                )
            ),
            email=moderator is not None,
        )
    return seat


def _shift_clocks(game: Game, by: timedelta, position: int | None) -> list[int]:
    """Push running deadlines (of one seat, or all) back by ``by``; return the users concerned. Lock held."""
    moved = clocks.clocks_push_back(game, by, position)
    if not moved:
        raise ModerationError(_("No clock of this game is running."))
    return [s.user_id for s in moved if s.user_id]


def deadline_extend(*, moderator: User, game_id: int, by: timedelta, reason: str, position: int | None = None) -> Game:
    """Give the running clock of one seat (``position``) or of every seat ``by`` more time.

    Raises:
        ModerationError: not running, ``by`` not positive, or no clock running.
    """
    require(moderator, PERM_GAMES)
    if by <= timedelta(0):
        raise ModerationError(_("The extension must be positive."))
    with transaction.atomic():
        game = lock_game(game_id)
        if not game.is_active:
            raise ModerationError(_("Only a game in progress has clocks."))
        users = _shift_clocks(game, by, position)
        record(
            moderator=moderator,
            action=Kind.DEADLINE_EXTEND,
            reason=reason,
            game=game,
            data={"seconds": int(by.total_seconds()), "position": position},
        )
        tell(users, lambda: _("A moderator gave you more time in game #%(id)s.") % {"id": game.pk}, email=False)
    return game


def clocks_pause(*, moderator: User, game_id: int, until: datetime, reason: str) -> Game:
    """Stop a game's running clocks until ``until``, the way a vacation does.

    Every running deadline is pushed back by the time left until ``until``,
    so the time each player had left is theirs again from then; moves made
    meanwhile are allowed and start fresh clocks as usual.

    Raises:
        ModerationError: not running, ``until`` not in the future, or no clock running.
    """
    require(moderator, PERM_GAMES)
    now = timezone.now()
    if until <= now:
        raise ModerationError(_("Pause until a time in the future."))
    with transaction.atomic():
        game = lock_game(game_id)
        if not game.is_active:
            raise ModerationError(_("Only a game in progress has clocks."))
        users = _shift_clocks(game, until - now, None)
        record(
            moderator=moderator, action=Kind.CLOCKS_PAUSE, reason=reason, game=game, data={"until": until.isoformat()}
        )
        tell(users, lambda: _("A moderator paused the clocks of game #%(id)s.") % {"id": game.pk}, email=False)
    return game


@dataclass(frozen=True, slots=True)
class FullLog:
    """A game's whole log with hidden information, for moderators.

    Attributes:
        game: the Game.
        moves: per move: ``seq``, ``seat``, ``move`` and the raw ``events``
            (``Event.to_dict``: private parts included).
        views: name -> the engine's view of the current position: one
            ``"all"`` view with everything revealed, or, for an engine
            without ``reveal_all``, the spectator's and each seat's view.
    """

    game: Game
    moves: list[dict[str, Any]]
    views: dict[str, Any]


def game_full_log(*, moderator: User, game_id: int) -> FullLog:
    """Return the full log of a game with hidden information, and record that it was opened.

    Raises:
        ModerationError: the game has not started, or the moderator plays in
            it while it runs or is frozen (they would see their opponents' hands).
    """
    require(moderator, PERM_HIDDEN)
    game = Game.objects.get(pk=game_id)
    if game.started is None:
        raise ModerationError(_("This game has not started yet."))
    # Frozen is not over: a fixed engine may let it replay and go on.
    if (game.is_active or game.is_frozen) and game.seats.filter(user=moderator).exists():
        raise ModerationError(_("You play in this game: another moderator must look at its hidden information."))
    try:
        engine = engine_for(game)
        positions = replay_states(game)
    except ReplayBroken as broken:
        raise ModerationError(
            _("This game's log no longer replays (%(reason)s): adjudicate or cancel it.") % {"reason": broken.reason}
        ) from broken
    moves = [
        {"seq": seq, "seat": seat, "move": move, "events": [e.to_dict() for e in events]}
        for seq, seat, move, _state, events in positions[1:]
    ]
    state = positions[-1][3]
    views: dict[str, Any] = {"all": engine.view(state, None, reveal_all=True)}
    with transaction.atomic():
        record(moderator=moderator, action=Kind.LOG_VIEW, game=game, data={"seq": game.last_seq})
    return FullLog(game=game, moves=moves, views=views)


def rating_refund(*, moderator: User, game_id: int, offender: User, reason: str) -> list[int]:
    """Give the rating changes of a finished rated game back to everyone but ``offender``.

    The others' ratings become as if they had not played the game (a
    cheater's victims); the offender's change stands.

    Returns:
        The ids of the users refunded.

    Raises:
        ModerationError: not a finished rated game of ``offender``, or nothing to refund.
    """
    require(moderator, PERM_USERS)
    with transaction.atomic():
        game = lock_game(game_id)
        players = _players(game)
        if not game.is_finished or not game.rated or offender.pk not in players:
            raise ModerationError(_("Choose a finished rated game of this player."))
        others = [uid for uid in players if uid != offender.pk]
        reversed_ = rating_reverse(game=game, users=others)
        if not reversed_:
            raise ModerationError(_("There are no rating changes left to refund in this game."))
        refunded = [rc.user_id for rc in reversed_]
        record(
            moderator=moderator,
            action=Kind.RATING_REFUND,
            reason=reason,
            user=offender,
            game=game,
            data={"refunded": refunded},
        )
        tell(refunded, lambda: _("A moderator refunded your rating change from game #%(id)s.") % {"id": game.pk})
    return refunded
