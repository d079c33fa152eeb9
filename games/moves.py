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
from games.crossing import crossing_applies
from games.engine.core import Event, IllegalMove, automatic_move, canonical_move
from games.errors import AccountRestricted, GameNotActive, NotYourMove, StaleMove
from games.fanout import on_commit_cache_and_fan_out
from games.locking import lock_game
from games.models import Action, Game, Seat
from games.replay import Snapshot, engine_for, snapshot_at
from games.turns import answering_only, finish, update_turn_fields

if TYPE_CHECKING:
    from accounts.models import User

log = logging.getLogger(__name__)

#: At most this many moves are made for the players after one move (a guard: a few standing
#: answers of each victim of a Throne-Roomed attack, then End turn).
MAX_FORCED_MOVES = 32


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
    ``last_seq``, or that nothing the move rests on changed since
    (``games.crossing.crossing_applies``: moves that cross); find the
    user's seat and check that the engine waits on it; apply the move through the engine; append the Action; update
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
        StaleMove: the game moved on since the page was drawn and something the move rests on
            changed (``games.crossing``), or the seat moved since (a form sent twice); nothing written.
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
        # Read under the lock (a timeout may just have handed a seat to a bot);
        # the same rows then serve the clocks and the page drawn after the move.
        seats = list(game.seats.select_related("user").order_by("position"))
        seat = next((s for s in seats if s.user_id == user.pk), None)
        if expected_seq != game.last_seq and (
            seat is None or not crossing_applies(game, seat.position, expected_seq, move)
        ):
            raise StaleMove(_("The game has moved on since this page was shown."), game.last_seq)
        if seat is None:
            raise NotYourMove(_("You are not playing in this game."))
        if seat.given_up:
            # A seat that timed out (or was forfeited by a moderator) is played by
            # a bot to the end; its former player must not race the bot.
            raise NotYourMove(_("You no longer play this seat: a bot plays it to the end of the game."))
        return apply_move(game, seat.position, move, seats=seats, grace=True)


def automatic_moves(
    engine: Any,
    state: Any,
    seats: list[Seat],
    applied: list[Any],
    *,
    game: Game | None = None,
    grace_for: int | None = None,
    running: Any = None,
) -> set[int]:
    """Make the moves nobody needs to think about, appending ``(seat, move, events)`` to ``applied``.

    ``core.automatic_move`` decides (the same function ``bench/waits.py``
    measures): moves that need no thought (End turn after the last Buy), and
    each seat's standing answers (``Seat.standing``; a seat played by a bot
    has the engine's defaults, the answers its bot would give). A seat that
    gave up is played by a bot: it keeps the defaults too.

    ``grace_for``: the seat of the person who just moved. A move that needs
    no thought of theirs (End turn after their last Buy) is not made: it
    waits ``settings.HERALD_FORCED_MOVE_GRACE`` seconds (``game.forced_due``,
    ``games.grace``), so a misclicked Buy can be taken back before the
    clean-up draws the next hand.

    ``running``: when another player's grace was still running before this
    change (the old ``game.forced_due``, UTC), their forced move keeps
    waiting until then: a victim's late answer to an attack (version 3)
    must not end the attacker's turn inside the attacker's grace.

    Returns:
        The indexes in ``applied`` of the moves made as standing answers.
    """
    standing = {s.position: ({} if s.bot_played else s.standing) for s in seats}
    marked: set[int] = set()
    start = len(applied)
    held = False  # the forced move waits out a grace: only standing answers are made meanwhile
    while len(applied) - start < MAX_FORCED_MOVES and not engine.is_over(state):
        auto = automatic_move(engine, state, standing, forced=not held)
        if auto is None:
            break
        seat, move, is_standing = auto
        move = canonical_move(engine, move)  # the engine's own moves are canonical already: a no-op
        if game is not None and grace_for == seat and not is_standing and settings.HERALD_FORCED_MOVE_GRACE > 0:
            game.forced_due = timezone.now() + timedelta(seconds=settings.HERALD_FORCED_MOVE_GRACE)
            held = True
            continue
        if game is not None and running is not None and not is_standing and seat != grace_for:
            game.forced_due = running  # someone else's grace, still running: it keeps its end
            held = True
            continue
        if is_standing:
            marked.add(len(applied))
        applied.append((seat, move, engine.apply(state, seat, move)))
    return marked


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
        IllegalMove: the engine refused the move, or its shape (``core.canonical_move``: a part
            its act does not have, a value of the wrong type), or could not read it; nothing written.
        StaleMove: another writer appended to the log without the lock.
    """
    since = timezone.now()  # before any outbox row of this move is written
    engine = engine_for(game)
    # Only the move's canonical form reaches the engine and the log: the record of
    # a game must not carry (or be forged by) whatever else a client sent.
    move = canonical_move(engine, move)  # IllegalMove: nothing written
    snap = snapshot_at(game)
    state = snap.state
    before = engine.pending(state)
    if position not in {d.player for d in before}:
        raise NotYourMove(_("It is not your move."))
    try:
        applied_events = engine.apply(state, position, move)  # IllegalMove: nothing written yet
    except (TypeError, KeyError, ValueError, AttributeError, IndexError) as exc:
        # An engine should answer odd input with IllegalMove; if one crashes on
        # it instead, refuse the move (nothing is written) and keep the trace.
        log.exception("engine %s crashed on move %r", game.kind, move)
        raise IllegalMove(_("That move cannot be read."), "malformed") from exc
    if seats is None:
        seats = list(game.seats.select_related("user").order_by("position"))
    applied = [(position, move, applied_events)]
    running = game.forced_due if game.forced_due is not None and game.forced_due > timezone.now() else None
    game.forced_due = None
    standing_seqs = automatic_moves(
        engine, state, seats, applied, game=game, grace_for=position if grace else None, running=running
    )
    return _record(game, engine, snap, applied, standing_seqs, seats, since, answering_only(before))


def _record(
    game: Game,
    engine: Any,
    snap: Snapshot,
    applied: list[Any],
    standing_seqs: set[int],
    seats: list[Seat],
    since: Any,
    answering: set[int],
) -> MoveResult:
    """Append the ``applied`` moves (made on ``snap.state``) to the log, update the turn and clocks, publish.

    ``answering``: the seats that owed only out-of-turn answers before these moves
    (``turns.answering_only``): their own turn, if it now starts, gets its own time.
    """
    state = snap.state
    all_events = [e for _seat, _move, evs in applied for e in evs]
    first = game.last_seq + 1
    try:
        # No savepoint: if this fails the whole move is refused and rolled back.
        Action.objects.bulk_create(
            Action(game=game, seq=first + i, seat=seat, move=m, standing=i in standing_seqs)
            for i, (seat, m, _evs) in enumerate(applied)
        )
    except IntegrityError:
        # Only reachable if a writer bypassed lock_game; treat it like a race lost.
        raise StaleMove(_("The game has moved on since this page was shown."), first) from None
    seq = first + len(applied) - 1
    game.last_seq = seq
    events.publish(events.MovesApplied(game=game, first_seq=first, moves=[(s, m) for s, m, _evs in applied]))
    fields = ["last_seq", "to_act", "deadline", "forced_due"]
    if engine.is_over(state):
        finish(game, engine, state, seats=seats)
        fields += ["status", "finished"]
    else:
        update_turn_fields(game, engine, state, seats=seats, answering=answering)
    game.save(update_fields=fields)
    recent = snap.events + [(first + i, e) for i, (_seat, _m, evs) in enumerate(applied) for e in evs]
    after = Snapshot(state, recent[-replay.RECENT_EVENTS :])
    on_commit_cache_and_fan_out(game, engine, after, since=since, seats=seats)
    return MoveResult(game=game, seq=seq, events=all_events, snapshot=after, seats=seats)


def game_standing_set(*, game_id: int, user: User, settings: dict[str, Any]) -> MoveResult | None:
    """Set ``user``'s standing answers for this game (``Seat.standing``) and apply them at once.

    If the seat owes a question the new answers settle, they are made now,
    logged as standing answers, exactly as if the question came next.

    Returns:
        The moves made (a :class:`MoveResult`), or None when none was due.

    Raises:
        Game.DoesNotExist: no such game.
        GameNotActive: the game is over or has not started.
        NotYourMove: the user has no seat in it, or gave it up.
        AccountRestricted: the user is suspended (the answers would be moves).
    """
    if policy.is_restricted(user, "move"):
        raise AccountRestricted(_("Your account is suspended."))
    with transaction.atomic():
        game = lock_game(game_id)
        if not game.is_active:
            raise GameNotActive(_("This game is not in progress."))
        seats = list(game.seats.select_related("user").order_by("position"))
        seat = next((s for s in seats if s.user_id == user.pk), None)
        if seat is None:
            raise NotYourMove(_("You are not playing in this game."))
        if seat.given_up:
            raise NotYourMove(_("You no longer play this seat: a bot plays it to the end of the game."))
        seat.standing = dict(settings)
        seat.save(update_fields=["standing"])
        since = timezone.now()
        engine = engine_for(game)
        snap = snapshot_at(game)
        answering = answering_only(engine.pending(snap.state))
        applied: list[Any] = []
        running = game.forced_due if game.forced_due is not None and game.forced_due > timezone.now() else None
        marked = automatic_moves(engine, snap.state, seats, applied, game=game, running=running)
        if not applied:
            return None
        return _record(game, engine, snap, applied, marked, seats, since, answering)
