"""Moves the site makes on its own: bot seats and the timeout rule.

Every move made here goes through ``games.moves.apply_move`` under the
game's row lock, exactly like a person's move, so it is logged in the
Action table, cached, clocked and published the same way.

The timeout rule, engine-agnostic (it looks only at ``Decision.out_of_turn``):

* a decision owed outside the seat's own turn (an answer to another
  player's attack, say) that runs out of time is answered by a bot (the
  game's ``GameKind.timeout_bot``, ``games.bots.timeout_bot``) and the game
  goes on;
* a seat whose own turn runs out of time forfeits
  (``games.lifecycle.seat_forfeit_locked``).

Times are aware UTC datetimes.
"""

from __future__ import annotations

import logging

from django.db import transaction
from django.utils import timezone

from games import clocks
from games.bots import bot_move, timeout_bot
from games.fanout import in_bot_loop
from games.lifecycle import game_freeze, seat_forfeit_locked
from games.locking import lock_game
from games.moves import apply_move
from games.replay import ReplayBroken, engine_for, state_at

log = logging.getLogger(__name__)

#: How many bot moves one task makes before handing over to a fresh task.
BOT_MOVES_PER_TASK = 500
#: Out-of-turn answers a timeout may make in a row for one seat.
TIMEOUT_ANSWERS = 20


def game_bot_moves(*, game_id: int, limit: int = BOT_MOVES_PER_TASK) -> int:
    """Make the moves the game's bot seats owe, one transaction per move.

    Stops when a person owes the next decision, the game ends, or after
    ``limit`` moves (the caller queues another task then). Safe to run twice
    at once or after a lost task: each move is made under the row lock
    against the position it finds.

    Returns:
        The number of moves made.
    """
    made = 0
    with in_bot_loop():
        try:
            while made < limit and _bot_move_once(game_id):
                made += 1
        except ReplayBroken as broken:
            game_freeze(game_id=game_id, broken=broken)
    return made


def _bot_move_once(game_id: int) -> bool:
    """Make one move for a bot seat that owes one; False if none does."""
    with transaction.atomic():
        game = lock_game(game_id)
        if not game.is_active:
            return False
        bots = {s.position: s.bot for s in game.seats.all() if s.bot_played}
        due = [p for p in game.to_act if p in bots]
        if not due:
            return False
        engine = engine_for(game)
        state = state_at(game)
        position = due[0]
        move = bot_move(game, engine, state, position, bots[position])
        apply_move(game, position, move)
    return True


def game_timeout(*, game_id: int, position: int) -> str | None:
    """Apply the timeout rule to seat ``position`` if its deadline has passed.

    Runs in its own transaction under the game's row lock; does nothing if
    the seat moved (or the game ended) since the sweep looked.

    Returns:
        ``"answered"`` (a bot answered out-of-turn decisions), ``"forfeited"``,
        ``"bot"`` (a bot seat was late: its moves were made), ``"frozen"`` (its
        log no longer replays: it waits for a moderator), or None.
    """
    try:
        return _timeout(game_id, position)
    except ReplayBroken as broken:
        game_freeze(game_id=game_id, broken=broken)
        return "frozen"


def _timeout(game_id: int, position: int) -> str | None:
    with transaction.atomic():
        game = lock_game(game_id)
        if not game.is_active:
            return None
        seat = game.seats.get(position=position)
        now = timezone.now()
        if seat.deadline is None or seat.deadline > now:
            return None
        if not seat.bot_played:
            engine = engine_for(game)
            state = state_at(game)
            mine = [d for d in engine.pending(state) if d.player == position]
            if mine and all(d.out_of_turn for d in mine):
                bot = timeout_bot(engine)
                for _ in range(TIMEOUT_ANSWERS):
                    apply_move(game, position, bot_move(game, engine, state, position, bot))
                    state = state_at(game)
                    mine = [d for d in engine.pending(state) if d.player == position]
                    if not mine or not all(d.out_of_turn for d in mine):
                        break
                log.info("game %s: seat %s late on an out-of-turn decision; %s answered", game.pk, position, bot)
                return "answered"
            if mine:
                seat_forfeit_locked(game, seat, now)
                return "forfeited"
            # The clock ran for a seat that owes nothing: a stale field; repair it.
            clocks.clocks_update(game, set(game.to_act), now)
            game.save(update_fields=["deadline"])
            return None
    game_bot_moves(game_id=game_id)
    return "bot"
