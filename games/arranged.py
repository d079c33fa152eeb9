"""Games arranged by the site rather than joined from the lobby: every seat given, dealt at once.

An app above ``games`` (tournaments) decides who plays whom and in which
seat order; this module creates and starts that game through the same
start as a lobby game (``games.lifecycle``), so it is clocked, published
(``GameStarted``), emailed and rated like any other. It never imports the
app that asks for it.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.creation import check_time_control, engine_for_new_game, game_row_create
from games.engine.core import InvalidOptions
from games.lifecycle import game_abort_locked, game_start_locked, seat_forfeit_locked
from games.locking import lock_game
from games.models import Game, Seat

if TYPE_CHECKING:
    from accounts.models import User


def game_create_arranged(
    *,
    players: Sequence[User],
    kind: str,
    options: dict[str, Any],
    rated: bool,
    time_per_move: timedelta,
    clock: str = Game.Clock.MOVE,
    increment: timedelta = timedelta(0),
    announced_by: str = "",
    shuffle: bool = False,
    private: bool = False,
) -> Game:
    """Create and start a game with exactly ``players``, seated in the order given (seat 0 moves first).

    Unlike ``game_create`` + ``game_join`` nobody joins: the seats are
    filled at once, blocks between the players do not refuse the game (an
    organiser paired them, as a club's pairing card would), and the seat
    order is kept (a tournament gives colours). The game has no creator
    (nobody may cancel it as its creator) and is public unless ``private``. Runs in one
    transaction; publishes ``GameStarted`` with nobody as its starter, so
    every player gets the "game started" email, unless the arranger tells
    them itself (``announced_by``, e.g. a tournament's round email).

    Args:
        players: 2 to the engine's maximum users, distinct, in seat order.
        kind: an engine name from ``games.engine.registry``.
        options: the engine's options (made concrete at the start).
        rated: whether the result counts for ratings.
        time_per_move: the time per decision (a Fischer clock's bank).
        clock: ``Game.Clock.MOVE`` or ``Game.Clock.FISCHER``.
        increment: a Fischer clock's increment.
        announced_by: the kind of notice in which the arranger announces the
            start (``events.GameStarted.announced_by``); "" for none.
        shuffle: draw the seat order at the start, as a lobby game does
            (the matcher's tables), instead of keeping the order given.
        private: only the seated players may watch (a rematch of a private game).

    Returns:
        The Game, active.

    Raises:
        InvalidOptions: unknown kind, a bad player count or repeated player,
            bad options, or a bad time control.
    """
    users = list(players)
    engine = engine_for_new_game(kind, len(users))
    if len({u.pk for u in users}) != len(users):
        raise InvalidOptions(_("A player cannot take two seats."))
    check_time_control(time_per_move, clock, increment)
    with transaction.atomic():
        game = game_row_create(
            engine,
            kind=kind,
            options=options,
            players=len(users),
            creator=None,
            rated=rated,
            private=private,
            time_per_move=time_per_move,
            clock=clock,
            increment=increment,
        )
        Seat.objects.bulk_create(Seat(game=game, position=i, user=u) for i, u in enumerate(users))
        game_start_locked(game, engine, started_by=None, shuffle=shuffle, announced_by=announced_by)
    return game


def game_withdraw_player(*, game_id: int, user: User, by_moderator: bool = False) -> bool:
    """Forfeit ``user``'s seat in a running game because they left the event it belongs to.

    The site's forfeit rule (``games.lifecycle.seat_forfeit_locked``): the
    seat ranks last; with one other player left the game ends, with more a
    bot plays the seat to the end. Said as a resignation to the others, or
    as a moderator's forfeit when ``by_moderator``. A frozen game (its log
    no longer replays) loses the seat too: with one other player left it
    ends, so it does not hold up the event's round (``seat_forfeit_locked``).
    Nothing happens to a game that has ended or a seat already given up, so
    a repeated call is harmless.

    Returns:
        True if a seat was forfeited now.

    Raises:
        Game.DoesNotExist: no such game.
    """
    with transaction.atomic():
        game = lock_game(game_id)
        if not (game.is_active or game.is_frozen):
            return False
        seat = game.seats.filter(user=user).first()
        if seat is None or seat.given_up:
            return False
        seat_forfeit_locked(game, seat, timezone.now(), resigned=not by_moderator, by_moderator=by_moderator)
    return True


def game_cancel_arranged(*, game_id: int) -> bool:
    """Cancel a game that has not ended because the event it was arranged for was cancelled.

    Through the same abort as a moderator's (``games.lifecycle.game_abort_locked``):
    clocks stop, nobody owes a move, the game is aborted and never rated,
    and ``GameCancelled`` ("event") is published for the apps that listen.
    A game that already ended (finished or aborted) is left exactly as it
    is, so a repeated call is harmless and a finished game keeps its result
    and its rating changes.

    Returns:
        True if the game was cancelled now.

    Raises:
        Game.DoesNotExist: no such game.
    """
    with transaction.atomic():
        game = lock_game(game_id)
        if game.status not in (Game.Status.OPEN, Game.Status.ACTIVE, Game.Status.FROZEN):
            return False
        game_abort_locked(game, why="event")
    return True
