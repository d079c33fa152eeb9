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
from typing import Any

from django.db import transaction
from django.utils import timezone

from games import clocks
from games.bots import bot_move, timeout_bot
from games.fanout import in_bot_loop
from games.lifecycle import game_freeze, seat_forfeit_locked
from games.locking import lock_game
from games.models import Game
from games.moves import apply_move
from games.replay import ReplayBroken, engine_for, state_at

log = logging.getLogger(__name__)

#: How many bot moves one task makes before handing over to a fresh task.
BOT_MOVES_PER_TASK = 500
#: Times a bot thinks again, unlocked, when the game moved on while it thought (then it thinks under the lock).
RETHINKS = 3
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
    """Make one move for a bot seat that owes one; False if none does.

    The move is thought out without the game's row lock (a search level may think for seconds, and a
    person's move or chat in the game must not wait for it): the position is read, the move computed,
    and it is applied under the lock only if the game is still at that position. If the game moved on
    meanwhile, the bot thinks again; after ``RETHINKS`` tries it thinks under the lock, so it always moves.
    """
    for attempt in range(RETHINKS + 1):
        under_lock = attempt == RETHINKS
        if not under_lock:
            plan = _plan(Game.objects.get(pk=game_id))
            if plan is None:
                return False
        with transaction.atomic():
            game = lock_game(game_id)
            if under_lock:
                plan = _plan(game)
            if plan is None:
                return False
            seq, position, move = plan
            if not game.is_active or game.last_seq != seq:
                continue  # it moved on while the bot thought: think again from where it is now
            apply_move(game, position, move)
            return True
    return False


def _plan(game: Game) -> tuple[int, int, dict[str, Any]] | None:
    """Return ``(seq, seat, move)``: the move a bot seat owes in ``game`` as it stands, or None if none owes one."""
    if not game.is_active:
        return None
    bots = {s.position: s.bot for s in game.seats.all() if s.bot_played}
    due = [p for p in game.to_act if p in bots]
    if not due:
        return None
    position = due[0]
    move = bot_move(game, engine_for(game), state_at(game), position, bots[position])
    return game.last_seq, position, move


def game_timeout(*, game_id: int, position: int) -> str | None:
    """Apply the timeout rule to seat ``position`` if its deadline has passed.

    Runs in its own transaction under the game's row lock; does nothing if
    the seat moved (or the game ended) since the sweep looked.

    Returns:
        ``"answered"`` (a bot answered out-of-turn decisions), ``"forfeited"``,
        ``"bot"`` (a bot seat was late: the caller queues its moves, ``games.tasks.bot_moves``), ``"frozen"`` (its
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
    # A bot seat is late: its worker is behind or down. The caller queues its moves on the bots' own
    # queue (games.tasks.bot_moves), never making them here: the sweep runs beside mail and clocks.
    return "bot"
