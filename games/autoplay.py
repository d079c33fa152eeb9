"""Moves the site makes on its own: bot seats, the timeout rule, and expiring open games.

Every move made here goes through ``games.services._do_move`` under the
game's row lock, exactly like a person's move, so it is logged in the
Action table, cached, clocked and notified the same way.

The timeout rule, engine-agnostic (it looks only at ``Decision.out_of_turn``):

* a decision owed outside the seat's own turn (a Moat reveal, a Militia
  discard, a Bureaucrat topdeck) that runs out of time is answered by a bot
  (``TIMEOUT_BOTS``: Dominion's ``smart``, Domaine's ``greedy``) and the game
  goes on;
* a seat whose own turn runs out of time forfeits: it is ranked last; if
  fewer than two unforfeited seats, or no unforfeited person, remain, the
  game ends now; otherwise a bot plays the seat to the end (``Seat.bot`` is
  set and ``Seat.user`` kept, so the page can say who timed out).

Times are aware UTC datetimes.
"""

from __future__ import annotations

import contextvars
import logging
import random
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from django.db import transaction
from django.utils import timezone

from games import clocks
from games.engine.core import Engine, Result, ranks_from_keys
from games.engine.registry import get_engine
from games.locking import lock_game
from games.models import Game, Seat

log = logging.getLogger(__name__)

#: Bots that answer for a late player, first one the engine has wins.
TIMEOUT_BOTS = ("smart", "greedy")
#: How many bot moves one task makes before handing over to a fresh task.
BOT_MOVES_PER_TASK = 500
#: Out-of-turn answers a timeout may make in a row for one seat.
TIMEOUT_ANSWERS = 20
#: Open games nobody filled are cancelled after this long.
OPEN_GAME_LIFETIME = timedelta(days=14)

_bot_loop: contextvars.ContextVar[bool] = contextvars.ContextVar("herald_bot_loop", default=False)


def bot_loop_active() -> bool:
    """True while ``game_bot_moves`` runs in this context, so ``after_move`` need not queue another."""
    return _bot_loop.get()


@contextmanager
def _in_bot_loop() -> Iterator[None]:
    token = _bot_loop.set(True)
    try:
        yield
    finally:
        _bot_loop.reset(token)


def timeout_bot(engine: Engine) -> str:
    """Return the name of the bot that plays for late players in ``engine``'s game.

    Raises:
        LookupError: the engine has no bot at all.
    """
    bots = dict(engine.bots)
    for name in TIMEOUT_BOTS:
        if name in bots:
            return name
    if not bots:
        raise LookupError(f"{engine.kind} has no bot to play for a late player")
    return next(iter(bots))


def bot_move(game: Game, engine: Engine, state: Any, position: int, bot: str) -> dict[str, Any]:
    """Return the move bot ``bot`` makes for seat ``position`` in ``state``.

    The bot's randomness comes from its own generator, seeded from the game
    and the position in the log, so a retried task makes the same move.
    """
    rng = random.Random(f"herald-bot:{game.pk}:{game.seed}:{game.last_seq}:{position}")
    return engine.bots[bot](engine.player_view(state, position), rng)


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
    with _in_bot_loop():
        while made < limit and _bot_move_once(game_id):
            made += 1
    return made


def _bot_move_once(game_id: int) -> bool:
    """Make one move for a bot seat that owes one; False if none does."""
    from games.services import _do_move, state_at

    with transaction.atomic():
        game = lock_game(game_id)
        if not game.is_active:
            return False
        bots = {s.position: s.bot for s in game.seats.all() if s.bot_played}
        due = [p for p in game.to_act if p in bots]
        if not due:
            return False
        engine = get_engine(game.kind)
        state = state_at(game)
        position = due[0]
        move = bot_move(game, engine, state, position, bots[position])
        _do_move(game, position, move)
    return True


def game_timeout(*, game_id: int, position: int) -> str | None:
    """Apply the timeout rule to seat ``position`` if its deadline has passed.

    Runs in its own transaction under the game's row lock; does nothing if
    the seat moved (or the game ended) since the sweep looked.

    Returns:
        ``"answered"`` (a bot answered out-of-turn decisions), ``"forfeited"``,
        ``"bot"`` (a bot seat was late: its moves were made), or None.
    """
    from games.services import _do_move, state_at

    with transaction.atomic():
        game = lock_game(game_id)
        if not game.is_active:
            return None
        seat = game.seats.get(position=position)
        now = timezone.now()
        if seat.deadline is None or seat.deadline > now:
            return None
        if not seat.bot_played:
            engine = get_engine(game.kind)
            state = state_at(game)
            mine = [d for d in engine.pending(state) if d.player == position]
            if mine and all(d.out_of_turn for d in mine):
                bot = timeout_bot(engine)
                for _ in range(TIMEOUT_ANSWERS):
                    _do_move(game, position, bot_move(game, engine, state, position, bot))
                    state = state_at(game)
                    mine = [d for d in engine.pending(state) if d.player == position]
                    if not mine or not all(d.out_of_turn for d in mine):
                        break
                log.info("game %s: seat %s late on an out-of-turn decision; %s answered", game.pk, position, bot)
                return "answered"
            if mine:
                _forfeit(game, engine, seat, now)
                return "forfeited"
            # The clock ran for a seat that owes nothing: a stale field; repair it.
            clocks.clocks_update(game, set(game.to_act), now)
            game.save(update_fields=["deadline"])
            return None
    game_bot_moves(game_id=game_id)
    return "bot"


def _forfeit(
    game: Game, engine: Engine, seat: Seat, now: datetime, *, resigned: bool = False, by_moderator: bool = False
) -> None:
    """Forfeit ``seat`` (on time, ``resigned`` or ``by_moderator``): rank it last; end the game or let a bot play it."""
    from correspondence import services as notify
    from games.services import _finish, after_move

    seat.forfeited = True
    seat.resigned = resigned
    seat.forfeited_by_moderator = by_moderator
    seat.timed_out = now
    seat.clock_started = seat.deadline = seat.warn_at = None
    seats = list(game.seats.all())
    seats = [seat if s.pk == seat.pk else s for s in seats]
    playing = [s for s in seats if not s.forfeited]
    people = [s for s in playing if s.user_id is not None and not s.bot_played]
    keep_going = len(playing) >= 2 and bool(people)
    if keep_going:
        seat.bot = timeout_bot(engine)
    fields = ["forfeited", "resigned", "forfeited_by_moderator", "timed_out", "clock_started", "deadline", "warn_at"]
    seat.save(update_fields=[*fields, "bot"])
    how = "resigned" if resigned else "by a moderator" if by_moderator else "on time"
    log.info("game %s: seat %s forfeited (%s)", game.pk, seat.position, how)
    notify.notify_timed_out(game=game, seat=seat, game_over=not keep_going)
    if keep_going:
        clocks.clocks_update(game, set(game.to_act), now)
        game.save(update_fields=["deadline"])
    else:
        _finish(game, engine, None)
        game.save(update_fields=["status", "finished", "to_act", "deadline"])
    # ``now`` was taken before this forfeit wrote any outbox row.
    transaction.on_commit(partial(after_move, game_id=game.pk, seq=game.last_seq, since=now))


def final_ranks(seats: list[Seat], result: Result | None) -> dict[int, int]:
    """Return ``{position: rank}`` with forfeited seats ranked after everyone else.

    Seats still playing keep the engine's order (``result.ranks``; all tied
    at 1 when the game ended early, without a result), re-ranked among
    themselves; forfeited seats follow, the one that timed out last first.
    """
    playing = [s for s in seats if not s.forfeited]
    keys = [(-(result.ranks[s.position]) if result is not None else 0,) for s in playing]
    ranks = {s.position: r for s, r in zip(playing, ranks_from_keys(keys), strict=True)}
    gone = sorted(
        (s for s in seats if s.forfeited),
        key=lambda s: s.timed_out or datetime.min.replace(tzinfo=timezone.get_current_timezone()),
        reverse=True,
    )
    for i, s in enumerate(gone):
        ranks[s.position] = len(playing) + 1 + i
    return ranks


def game_expire(*, game_id: int) -> bool:
    """Cancel an open game nobody filled within ``OPEN_GAME_LIFETIME`` and tell its creator.

    Returns:
        True if the game was cancelled now.
    """
    from correspondence import services as notify

    with transaction.atomic():
        game = lock_game(game_id)
        if not game.is_open or game.created > timezone.now() - OPEN_GAME_LIFETIME:
            return False
        game.status = Game.Status.ABORTED
        game.finished = timezone.now()
        game.save(update_fields=["status", "finished"])
        notify.notify_cancelled(game=game)
        transaction.on_commit(partial(notify.outbox_enqueue, game_id=game.pk))
    return True
