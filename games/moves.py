"""The move path: a person's move, and the moves the site makes for them, applied under the game's lock.

``game_submit_move`` follows Zulip's check -> do -> notify pipeline: lock
the game row, check the expected seq and whose decision is open, apply the
move through the engine, append the Action, update the denormalised fields
(``games.turns``), publish what happened (``games.events``), and only after
commit cache the new state and fan out (``games.fanout``).

All timestamps are timezone-aware UTC (``django.utils.timezone.now``).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import events, policy, replay
from games.engine.core import Event, IllegalMove
from games.errors import AccountRestricted, GameNotActive, NotYourMove, StaleMove
from games.fanout import on_commit_cache_and_fan_out
from games.locking import lock_game
from games.models import Action, Game, Seat
from games.replay import Snapshot, engine_for, snapshot_at
from games.turns import finish, update_turn_fields

if TYPE_CHECKING:
    from accounts.models import User

log = logging.getLogger(__name__)

#: At most this many moves are made for a player after one of theirs (a guard: one is usual).
MAX_FORCED_MOVES = 8


@dataclass(frozen=True, slots=True)
class MoveResult:
    """What ``game_submit_move`` did.

    Attributes:
        game: the Game row after the move (status, last_seq, to_act updated).
        seq: the new Action's seq (the last one, when moves that needed no
            thought were made after it).
        events: the engine's events for this move and those, unfiltered: filter with
            ``Event.for_viewer`` before showing them to anyone.
        snapshot: the state after the move with its recent events, so the
            page can be drawn without reading it back from the cache.
        seats: every seat of the game after the move (users loaded), in
            position order, or None when the caller did not read them.
    """

    game: Game
    seq: int
    events: list[Event]
    snapshot: Snapshot | None = None
    seats: list[Seat] | None = None


def game_submit_move(*, game_id: int, user: User, move: dict[str, Any], expected_seq: int) -> MoveResult:
    """Apply ``user``'s ``move`` to the game, if made against the current position.

    In one transaction: lock the Game row; check ``expected_seq`` equals
    ``last_seq``; find the user's seat and check that the engine waits on it;
    apply the move through the engine; append the Action; update
    ``last_seq``, ``to_act``, ``deadline`` and the seats' ``owes_move``; if
    the game is over, write each seat's rank and score and finish the game.
    After commit, cache the new state and fan out (``games.fanout``).

    Args:
        game_id: the game's primary key.
        user: the signed-in user making the move.
        move: the move in the game's notation, without ``player``.
        expected_seq: ``last_seq`` as the user's page last saw it.

    Returns:
        A :class:`MoveResult`.

    Raises:
        Game.DoesNotExist: no such game.
        GameNotActive: the game is not running.
        StaleMove: the game moved on since the page was drawn; nothing written.
        NotYourMove: the user has no seat, or no decision open.
        AccountRestricted: the user is banned.
        IllegalMove: the engine refused the move; nothing written.
        LockTimeout: the game stayed locked by another request too long.
    """
    if not isinstance(move, dict):
        raise IllegalMove(_("A move is an object with an 'act'."), "malformed")
    # Checked here, not in the views, so every way in (page, htmx, API) is covered.
    if policy.is_restricted(user, "move"):
        raise AccountRestricted(_("Your account is suspended."))
    with transaction.atomic():
        game = lock_game(game_id)
        if not game.is_active:
            raise GameNotActive(_("This game is not in progress."))
        if expected_seq != game.last_seq:
            raise StaleMove(_("The game has moved on since this page was shown."), game.last_seq)
        # Read under the lock (a timeout may just have handed a seat to a bot);
        # the same rows then serve the clocks and the page drawn after the move.
        seats = list(game.seats.select_related("user").order_by("position"))
        seat = next((s for s in seats if s.user_id == user.pk), None)
        if seat is None:
            raise NotYourMove(_("You are not playing in this game."))
        if seat.given_up:
            # A seat that timed out (or was forfeited by a moderator) is played by
            # a bot to the end; its former player must not race the bot.
            raise NotYourMove(_("You no longer play this seat: a bot plays it to the end of the game."))
        return apply_move(game, seat.position, move, seats=seats, grace=True)


def apply_move(
    game: Game, position: int, move: dict[str, Any], *, seats: list[Seat] | None = None, grace: bool = False
) -> MoveResult:
    """Apply ``move`` for seat ``position`` and record it. Caller holds the lock (``lock_game``).

    Shared by players' moves, bots and timeouts, so every change is logged,
    counted and fanned out the same way. Moves that need no thought after
    it (``engine.forced_move``) are made for the same player and logged as
    their own Actions. ``seats`` are the game's seats read under the lock,
    if the caller has them (else they are read here). With ``grace`` (a
    person's own move), a forced move of the same player waits
    ``settings.HERALD_FORCED_MOVE_GRACE`` seconds instead (``Game.forced_due``,
    ``games.grace``), so a misclicked last Buy can be taken back.

    Raises:
        NotYourMove: the engine waits on no decision of ``position``.
        IllegalMove: the engine refused the move (or could not read it); nothing written.
        StaleMove: another writer appended to the log without the lock.
    """
    since = timezone.now()  # before any outbox row of this move is written
    engine = engine_for(game)
    # Only the notation's keys reach the engine and the log: the record of a
    # game must not carry (or be forged by) whatever else a client sent.
    keys = getattr(engine, "move_keys", None)
    if keys is not None:
        move = {k: v for k, v in move.items() if k in keys}
    snap = snapshot_at(game)
    state = snap.state
    if position not in {d.player for d in engine.pending(state)}:
        raise NotYourMove(_("It is not your move."))
    try:
        applied_events = engine.apply(state, position, move)  # IllegalMove: nothing written yet
    except (TypeError, KeyError, ValueError, AttributeError, IndexError) as exc:
        # An engine should answer odd input with IllegalMove; if one crashes on
        # it instead, refuse the move (nothing is written) and keep the trace.
        log.exception("engine %s crashed on move %r", game.kind, move)
        raise IllegalMove(_("That move cannot be read."), "malformed") from exc
    applied = [(position, move, applied_events)]
    game.forced_due = None
    wait = settings.HERALD_FORCED_MOVE_GRACE if grace else 0
    # Moves that need no thought (End turn after the last Buy) are made for the
    # player at once, so nobody waits on a click: logged like any other move;
    # after a person's own move, only once its grace is over (games.grace).
    while len(applied) <= MAX_FORCED_MOVES and not engine.is_over(state):
        forced = engine.forced_move(state)
        if forced is None:
            break
        if wait > 0 and forced[0] == position:
            game.forced_due = timezone.now() + timedelta(seconds=wait)
            break
        applied.append((forced[0], forced[1], engine.apply(state, forced[0], forced[1])))
    all_events = [e for _seat, _move, evs in applied for e in evs]
    first = game.last_seq + 1
    try:
        # No savepoint: if this fails the whole move is refused and rolled back.
        Action.objects.bulk_create(
            Action(game=game, seq=first + i, seat=seat, move=m) for i, (seat, m, _evs) in enumerate(applied)
        )
    except IntegrityError:
        # Only reachable if a writer bypassed lock_game; treat it like a race lost.
        raise StaleMove(_("The game has moved on since this page was shown."), first) from None
    seq = first + len(applied) - 1
    game.last_seq = seq
    if seats is None:
        seats = list(game.seats.select_related("user").order_by("position"))
    events.publish(events.MovesApplied(game=game, first_seq=first, moves=[(s, m) for s, m, _evs in applied]))
    fields = ["last_seq", "to_act", "deadline", "forced_due"]
    if engine.is_over(state):
        finish(game, engine, state, seats=seats)
        fields += ["status", "finished"]
    else:
        update_turn_fields(game, engine, state, seats=seats)
    game.save(update_fields=fields)
    recent = snap.events + [(first + i, e) for i, (_seat, _m, evs) in enumerate(applied) for e in evs]
    after = Snapshot(state, recent[-replay.RECENT_EVENTS :])
    on_commit_cache_and_fan_out(game, engine, after, since=since, seats=seats)
    return MoveResult(game=game, seq=seq, events=all_events, snapshot=after, seats=seats)
