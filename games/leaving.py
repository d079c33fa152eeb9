"""A player leaving a game: whether they leave it at move 0, and forfeiting a seat of a frozen game.

Helpers of ``games.lifecycle.seat_forfeit_locked`` (the forfeit rule), kept
apart so that module stays readable. Both are called with the game's row
lock held.
"""

from __future__ import annotations

import logging
from datetime import datetime

from games import events
from games.fanout import on_commit_fan_out
from games.models import Action, Game, Seat
from games.turns import finish

log = logging.getLogger(__name__)

#: ``Game.cancel_reason`` (and ``GameCancelled.why``) of a game a player left at move 0 (:func:`at_move_0`).
MOVE_0 = "move_0"


def at_move_0(game: Game, seat: Seat) -> bool:
    """True while ``seat`` is at "move 0": its player has not made a move of their own in ``game``.

    A move of their own is an entry of the seat in the log (``Action``)
    other than a standing answer (``Action.standing``: the site answered
    for them); the moves the site makes right after a move of theirs (End
    turn after the last Buy) follow one. Out-of-turn answers the timeout
    rule makes for a seat count too, but neither game asks one of a player
    before their first turn. A seat played by a bot from the start is never
    at move 0. One indexed query.

    A player who resigns or runs out of time at move 0 aborts the game
    (``games.lifecycle.seat_forfeit_locked``), as lichess aborts a game a player leaves
    before their first move: such a game never really began for them.
    """
    if seat.user_id is None:
        return False
    return not Action.objects.filter(game=game, seat=seat.position, standing=False).exists()


def seat_forfeit_frozen(game: Game, seat: Seat, now: datetime, *, resigned: bool, by_moderator: bool) -> None:
    """``games.lifecycle.seat_forfeit_locked`` for a frozen game: mark the seat; end the game if too few are left.

    Lock held. No engine is needed (no bot can play on in a game whose log
    no longer replays): with fewer than two players (or no person) left the
    game ends by the forfeit rule, the seats still in tied; otherwise it
    stays frozen, the seat ranked last, until a moderator settles it.
    """
    seat.forfeited = True
    seat.resigned = resigned
    seat.forfeited_by_moderator = by_moderator
    seat.timed_out = now
    seat.forfeit_seq = game.last_seq
    seat.save(update_fields=["forfeited", "resigned", "forfeited_by_moderator", "timed_out", "forfeit_seq"])
    playing = [s for s in game.seats.all() if not s.forfeited and s.pk != seat.pk]
    game_over = len(playing) < 2 or not any(s.user_id is not None and not s.bot_played for s in playing)
    log.info("game %s (frozen): seat %s forfeited", game.pk, seat.position)
    events.publish(events.SeatForfeited(game=game, seat=seat, game_over=game_over))
    if game_over:
        finish(game, None, None)  # no state: the seats still in tie, the forfeited rank last
        game.save(update_fields=["status", "finished", "to_act", "deadline"])
    on_commit_fan_out(game, since=now, bot_to_act=False)
