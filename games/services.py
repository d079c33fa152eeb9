"""Everything that writes Game, Seat, Invitation, Action and ChatMessage rows.

Views parse requests and call these functions; nothing else writes game
rows. Every function is keyword-only, runs in one transaction, and raises a
:class:`ServiceError` subclass (or the engine's ``IllegalMove`` /
``InvalidOptions``) with a sentence a player can read.

The move path (``game_submit_move``) follows Zulip's check -> do -> notify
pipeline: lock the game row, check the expected seq and whose decision is
open, apply the move through the engine, append the Action, update the
denormalised fields, and only after commit cache the new state and fan out
(``after_move``).

All timestamps are timezone-aware UTC (``django.utils.timezone.now``).
"""

from __future__ import annotations

import logging
import pickle
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.selectors import blockers_among, has_verified_email, is_blocked_by_any
from correspondence import services as correspondence
from games import autoplay, clocks
from games.engine.core import Engine, Event, IllegalMove, InvalidOptions
from games.engine.registry import get_engine
from games.locking import LockTimeout, lock_game
from games.models import Action, ChatMessage, Game, Invitation, Seat
from moderation.selectors import can_chat, is_banned
from ops.after_response import after_response
from ratings.services import rating_update

if TYPE_CHECKING:
    from accounts.models import User

__all__ = [
    "AccountRestricted",
    "CannotJoin",
    "ChatRateLimited",
    "ChatRefused",
    "GameNotActive",
    "IllegalMove",
    "InvalidOptions",
    "LockTimeout",
    "MoveResult",
    "NotYourMove",
    "ServiceError",
    "StaleMove",
    "after_move",
    "chat_post",
    "game_cancel",
    "game_create",
    "game_join",
    "game_leave",
    "game_record",
    "game_resign",
    "game_submit_move",
    "replay_states",
    "snapshot_at",
    "state_at",
]

log = logging.getLogger(__name__)

#: The time controls offered when creating a game.
TIME_CONTROLS: list[timedelta] = [
    timedelta(hours=1),
    timedelta(hours=4),
    timedelta(hours=12),
    timedelta(days=1),
    timedelta(days=2),
    timedelta(days=3),
    timedelta(days=5),
    timedelta(days=7),
    timedelta(days=14),
]

#: At most this many moves are made for a player after one of theirs (a guard: one is usual).
MAX_FORCED_MOVES = 8

#: How long a cached state lives; a miss only costs a replay.
STATE_CACHE_TIMEOUT = 7 * 24 * 3600


class ServiceError(Exception):
    """A request the rules of the site refuse; ``str(err)`` is for the player."""


class StaleMove(ServiceError):
    """The move was made against an old position (``expected_seq`` != ``last_seq``).

    Attributes:
        current_seq: the game's seq now, so the page can refresh.
    """

    def __init__(self, message: str, current_seq: int) -> None:
        super().__init__(message)
        self.current_seq = current_seq


class NotYourMove(ServiceError):
    """The user has no seat in the game, or no decision of theirs is open."""


class GameNotActive(ServiceError):
    """The game is not in the state the request needs (not open, not running...)."""


class CannotJoin(ServiceError):
    """The user may not join (or leave, or cancel) this game."""


class ChatRateLimited(ServiceError):
    """Too many chat messages from this user in a short time."""


class ChatInvalid(ServiceError):
    """An empty or over-long chat message."""


class AccountRestricted(NotYourMove):
    """The user is banned (``moderation``): no moves."""


class ChatRefused(ServiceError):
    """The user is muted or banned (``moderation``): no chat."""


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


# ---------------------------------------------------------------------------
# Creating, joining and leaving


def game_create(
    *,
    creator: User,
    kind: str,
    options: dict[str, Any],
    players: int,
    rated: bool,
    private: bool,
    invited: Iterable[User] = (),
    time_per_move: timedelta,
    bots: Sequence[str] = (),
    clock: str = Game.Clock.MOVE,
    increment: timedelta = timedelta(0),
) -> Game:
    """Create a game with ``creator`` in the first seat and start it if it is full.

    Args:
        creator: the signed-in user making the game; takes a seat.
        kind: an engine name from ``games.engine.registry``.
        options: the engine's options (for Dominion ``{"kingdom": ...}``);
            validated now, made concrete when the game starts.
        players: the number of seats, within the engine's bounds.
        rated: whether the result will count for ratings (no bots allowed).
        private: only invited users may join or watch.
        invited: users allowed to join a private game.
        time_per_move: the time allowed per decision, one of ``TIME_CONTROLS``
            (or any positive duration, for tests and admins); with a Fischer
            clock, each player's starting bank (and its cap).
        bots: bot names (from ``engine.bots``), one per bot seat.
        clock: ``Game.Clock.MOVE`` (fixed time per move) or ``Game.Clock.FISCHER``.
        increment: what a Fischer clock adds after each move (0 or more).

    Returns:
        The new Game, status open, or active if the bots filled every seat.

    Raises:
        InvalidOptions: unknown kind, bad player count, bad options, unknown
            bot, too many bots, a rated game with bots, a bad time control,
            a rated game by a user whose email is not verified.
    """
    try:
        engine = get_engine(kind)
    except (KeyError, ImportError):
        raise InvalidOptions(_("Unknown game: %(kind)s.") % {"kind": kind}) from None
    if not isinstance(players, int) or not engine.min_players <= players <= engine.max_players:
        raise InvalidOptions(
            _("This game is for %(min)d to %(max)d players.") % {"min": engine.min_players, "max": engine.max_players}
        )
    bots = list(bots)
    if len(bots) >= players:
        raise InvalidOptions(_("At least one seat must be left for a person."))
    if bots:
        known = _engine_bots(engine)
        unknown = [b for b in bots if b not in known]
        if unknown:
            raise InvalidOptions(_("Unknown bot: %(name)s.") % {"name": ", ".join(unknown)})
        if rated:
            raise InvalidOptions(_("Games with bots cannot be rated."))
    if rated and not has_verified_email(creator):
        raise InvalidOptions(_("Verify your email address before playing rated games."))
    if is_banned(creator):
        raise InvalidOptions(_("Your account is suspended."))
    if time_per_move <= timedelta(0):
        raise InvalidOptions(_("The time per move must be positive."))
    if clock not in Game.Clock.values or increment < timedelta(0):
        raise InvalidOptions(_("Unknown time control."))
    seed = secrets.randbits(63)
    # Validate now so a bad kingdom is refused on the form, not at the start.
    engine.normalize_options(options, players, seed)

    with transaction.atomic():
        game = Game.objects.create(
            kind=kind,
            options=options,
            seed=seed,
            engine_version=engine.version,
            creator=creator,
            rated=rated,
            private=private,
            time_per_move=time_per_move,
            clock=clock,
            increment=increment if clock == Game.Clock.FISCHER else timedelta(0),
            max_players=players,
        )
        Seat.objects.create(game=game, position=0, user=creator)
        Seat.objects.bulk_create(Seat(game=game, position=i, bot=name) for i, name in enumerate(bots, start=1))
        invited_by_id = {u.pk: u for u in invited if u.pk != creator.pk}
        # Players who blocked the creator are quietly left out: blocks are private.
        refused = blockers_among(creator, invited_by_id)
        Invitation.objects.bulk_create(
            Invitation(game=game, user=user) for pk, user in invited_by_id.items() if pk not in refused
        )
        if 1 + len(bots) == players:
            _game_start(game, engine, started_by=creator)
    return game


def game_join(*, game_id: int, user: User) -> Game:
    """Seat ``user`` at an open game; start the game when the last seat is taken.

    Returns:
        The Game (active if this join filled it).

    Raises:
        Game.DoesNotExist: no such game.
        GameNotActive: the game is no longer open.
        CannotJoin: private and not invited, already seated, full, a rated
            game and the user's email is not verified, or a seated player
            has blocked the user.
    """
    with transaction.atomic():
        game = lock_game(game_id)
        if not game.is_open:
            raise GameNotActive(_("This game is no longer open."))
        if game.private and not game.invitations.filter(user=user).exists() and game.creator_id != user.pk:
            raise CannotJoin(_("This game is by invitation only."))
        seats = list(game.seats.all())
        if any(s.user_id == user.pk for s in seats):
            raise CannotJoin(_("You are already playing in this game."))
        if is_banned(user):
            raise CannotJoin(_("Your account is suspended."))
        if game.rated and not has_verified_email(user):
            raise CannotJoin(_("Verify your email address before playing rated games."))
        if is_blocked_by_any(user, [s.user_id for s in seats]):
            # Deliberately vague: blocks are private.
            raise CannotJoin(_("You cannot join this game."))
        taken = {s.position for s in seats}
        free = [p for p in range(game.max_players) if p not in taken]
        if not free:
            raise CannotJoin(_("This game is full."))
        Seat.objects.create(game=game, position=free[0], user=user)
        if len(free) == 1:
            _game_start(game, get_engine(game.kind), started_by=user)
    return game


def game_leave(*, game_id: int, user: User) -> Game:
    """Give up ``user``'s seat at an open game.

    The creator cannot leave (cancel instead), and nobody leaves a running
    game this way (resigning is a move).

    Raises:
        Game.DoesNotExist: no such game.
        GameNotActive: the game is not open.
        CannotJoin: not seated, or the creator.
    """
    with transaction.atomic():
        game = lock_game(game_id)
        if not game.is_open:
            raise GameNotActive(_("You can only leave a game that has not started."))
        if game.creator_id == user.pk:
            raise CannotJoin(_("You created this game: cancel it instead."))
        deleted, _detail = game.seats.filter(user=user).delete()
        if not deleted:
            raise CannotJoin(_("You are not playing in this game."))
    return game


def game_cancel(*, game_id: int, user: User) -> Game:
    """Cancel an open game; only its creator (or staff) may.

    Returns:
        The Game, now aborted, ``finished`` set to now (UTC).

    Raises:
        Game.DoesNotExist, GameNotActive (not open), CannotJoin (not allowed).
    """
    with transaction.atomic():
        game = lock_game(game_id)
        if game.creator_id != user.pk and not user.is_staff:
            raise CannotJoin(_("Only the player who created this game can cancel it."))
        if not game.is_open:
            raise GameNotActive(_("Only a game that has not started can be cancelled."))
        game.status = Game.Status.ABORTED
        game.finished = timezone.now()
        game.save(update_fields=["status", "finished"])
    return game


def _engine_bots(engine: Engine) -> dict[str, Any]:
    """Return the engine's bots, or none while its bot module is missing."""
    try:
        return dict(engine.bots)
    except ImportError:
        return {}


def _game_start(game: Game, engine: Engine, *, started_by: User | None = None) -> None:
    """Shuffle the seats, make the options concrete and deal. Caller holds the lock.

    ``started_by``: whoever filled the last seat (or created a game against
    bots); they are looking at the game as it starts, so they get no
    "has started" email.

    Seat order is drawn with ``secrets`` (not the game's seed) so that
    nobody who learns the seed afterwards could have predicted it.
    """
    since = timezone.now()  # before any outbox row of the start is written
    seats = list(game.seats.order_by("position"))
    order = list(range(len(seats)))
    secrets.SystemRandom().shuffle(order)
    # Two steps, because (game, position) is unique at every statement.
    game.seats.update(position=F("position") + 100)
    for seat, position in zip(seats, order, strict=True):
        seat.position = position
        Seat.objects.filter(pk=seat.pk).update(position=position)
    game.options = engine.normalize_options(game.options, len(seats), game.seed)
    state = engine.new_game(game.options, len(seats), game.seed)
    game.engine_version = engine.version
    game.status = Game.Status.ACTIVE
    game.started = timezone.now()
    game.last_seq = 0
    _update_turn_fields(game, engine, state)
    game.save(update_fields=["options", "engine_version", "status", "started", "last_seq", "to_act", "deadline"])
    correspondence.notify_game_started(game=game, except_user_id=started_by.pk if started_by else None)
    _on_commit_cache_and_fan_out(game, engine, Snapshot(state, []), since=since)


# ---------------------------------------------------------------------------
# State


def _state_key(game: Game, seq: int, engine_version: int) -> str:
    # The creation time is in the key because ids restart when a database is
    # recreated (tests, a fresh dev database) while Redis keeps old entries.
    return f"herald:state:{game.pk}:{int(game.created.timestamp() * 1e6)}:{seq}:{engine_version}"


#: How many recent events the cached state keeps for the log (older ones: replay).
RECENT_EVENTS = 400


@dataclass(slots=True)
class Snapshot:
    """A game's engine state after ``seq`` moves, with its most recent events.

    Attributes:
        state: the engine state (never pass it to a template).
        events: ``(seq, Event)`` pairs for the last ``RECENT_EVENTS`` events,
            oldest first, unfiltered: filter with ``Event.for_viewer``.
    """

    state: Any
    events: list[tuple[int, Event]]


def state_at(game: Game) -> Any:
    """Return the engine state of ``game`` after its last move (``game.last_seq``).

    Read from Django's cache, keyed by (game id, seq, engine version); on a
    miss, rebuilt by replaying the Action log through the engine from
    ``new_game(options, seats, seed)`` and stored again. The result is a
    fresh object the caller may mutate (the cache holds a pickle).

    Never pass the result to a template: use ``engine.view`` on it.

    Raises:
        GameNotActive: the game has not started (no state exists yet).
    """
    return snapshot_at(game).state


def snapshot_at(game: Game) -> Snapshot:
    """Return the :class:`Snapshot` of ``game`` at ``game.last_seq`` (cache, else replay).

    Raises:
        GameNotActive: the game has not started (no state exists yet).
    """
    if game.started is None:
        raise GameNotActive(_("This game has not started yet."))
    engine = get_engine(game.kind)
    key = _state_key(game, game.last_seq, engine.version)
    blob = cache.get(key)
    if blob is not None:
        return pickle.loads(blob)  # noqa: S301 - our own cache, written by _cache_state
    snap = _replay(game, engine)
    cache.set(key, pickle.dumps(snap, pickle.HIGHEST_PROTOCOL), STATE_CACHE_TIMEOUT)
    return snap


def _replay(game: Game, engine: Engine, upto: int | None = None) -> Snapshot:
    """Rebuild the state from options, seed and the log, up to ``upto`` (default ``game.last_seq``)."""
    seats = game.seats.count()
    state = engine.new_game(game.options, seats, game.seed)
    events: list[tuple[int, Event]] = []
    last = game.last_seq if upto is None else upto
    for seq, seat, move in (
        game.actions.filter(seq__lte=last).order_by("seq").values_list("seq", "seat", "move")
    ):
        events.extend((seq, e) for e in engine.apply(state, seat, move))
        if len(events) > 2 * RECENT_EVENTS:
            del events[:-RECENT_EVENTS]
    return Snapshot(state, events[-RECENT_EVENTS:])


def replay_states(game: Game) -> list[tuple[int, int | None, dict[str, Any], Any, list[Event]]]:
    """Every position of a game: ``(seq, seat, move, state_after, events)``, seq 0 first.

    For replay viewers and moderators; it replays the whole log, so use it
    for one game at a time. States are independent copies.
    """
    engine = get_engine(game.kind)
    state = engine.new_game(game.options, game.seats.count(), game.seed)
    start = pickle.loads(pickle.dumps(state))
    out: list[tuple[int, int | None, dict[str, Any], Any, list[Event]]] = [(0, None, {}, start, [])]
    for seq, seat, move in game.actions.order_by("seq").values_list("seq", "seat", "move"):
        events = engine.apply(state, seat, move)
        out.append((seq, seat, move, pickle.loads(pickle.dumps(state)), events))
    return out


# ---------------------------------------------------------------------------
# Moves


def game_submit_move(*, game_id: int, user: User, move: dict[str, Any], expected_seq: int) -> MoveResult:
    """Apply ``user``'s ``move`` to the game, if made against the current position.

    In one transaction: lock the Game row; check ``expected_seq`` equals
    ``last_seq``; find the user's seat and check that the engine waits on it;
    apply the move through the engine; append the Action; update
    ``last_seq``, ``to_act``, ``deadline`` and the seats' ``owes_move``; if
    the game is over, write each seat's rank and score and finish the game.
    After commit, cache the new state and call :func:`after_move`.

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
        IllegalMove: the engine refused the move; nothing written.
        LockTimeout: the game stayed locked by another request too long.
    """
    if not isinstance(move, dict):
        raise IllegalMove(_("A move is an object with an 'act'."), "malformed")
    # Checked here, not in the views, so every way in (page, htmx, API) is covered.
    if is_banned(user):
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
        return _do_move(game, seat.position, move, seats=seats)


def game_resign(*, game_id: int, user: User) -> Game:
    """Give up ``user``'s seat in a running game: it ranks last, as a seat that ran out of time does.

    With one other player left the game ends (and is rated as finished);
    with more, a bot plays the seat to the end so the others can finish,
    exactly as after a timeout (``games.autoplay._forfeit``). The others are
    told by email ("... resigned").

    Returns:
        The Game after the resignation.

    Raises:
        Game.DoesNotExist: no such game.
        GameNotActive: the game is not running.
        NotYourMove: the user has no seat, or already gave it up.
    """
    with transaction.atomic():
        game = lock_game(game_id)
        if not game.is_active:
            raise GameNotActive(_("This game is not in progress."))
        seat = game.seats.filter(user=user).first()
        if seat is None:
            raise NotYourMove(_("You are not playing in this game."))
        if seat.given_up:
            raise NotYourMove(_("You no longer play this seat: a bot plays it to the end of the game."))
        engine = get_engine(game.kind)
        autoplay._forfeit(game, engine, seat, timezone.now(), resigned=True)
    return game


def _do_move(game: Game, position: int, move: dict[str, Any], *, seats: list[Seat] | None = None) -> MoveResult:
    """Apply ``move`` for seat ``position`` and record it. Caller holds the lock.

    Shared by players' moves and, later, bots, timeouts and moderators, so
    every change is logged, counted and fanned out the same way. ``seats``
    are the game's seats read under the lock, if the caller has them (else
    they are read here).
    """
    since = timezone.now()  # before any outbox row of this move is written
    engine = get_engine(game.kind)
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
        events = engine.apply(state, position, move)  # IllegalMove: nothing written yet
    except (TypeError, KeyError, ValueError, AttributeError, IndexError) as exc:
        # An engine should answer odd input with IllegalMove; if one crashes on
        # it instead, refuse the move (nothing is written) and keep the trace.
        log.exception("engine %s crashed on move %r", game.kind, move)
        raise IllegalMove(_("That move cannot be read."), "malformed") from exc
    applied = [(position, move, events)]
    # Moves that need no thought (End turn after the last Buy) are made for the
    # player at once, so nobody waits on a click: logged like any other move.
    while len(applied) <= MAX_FORCED_MOVES and not engine.is_over(state):
        forced = engine.forced_move(state)
        if forced is None:
            break
        applied.append((forced[0], forced[1], engine.apply(state, forced[0], forced[1])))
    events = [e for _seat, _move, evs in applied for e in evs]
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
    fields = ["last_seq", "to_act", "deadline"]
    if engine.is_over(state):
        _finish(game, engine, state, seats=seats)
        fields += ["status", "finished"]
    else:
        _update_turn_fields(game, engine, state, seats=seats)
    game.save(update_fields=fields)
    recent = snap.events + [(first + i, e) for i, (_seat, _m, evs) in enumerate(applied) for e in evs]
    after = Snapshot(state, recent[-RECENT_EVENTS:])
    _on_commit_cache_and_fan_out(game, engine, after, since=since, seats=seats)
    return MoveResult(game=game, seq=seq, events=events, snapshot=after, seats=seats)


def _update_turn_fields(game: Game, engine: Engine, state: Any, *, seats: list[Seat] | None = None) -> None:
    """Set ``to_act`` from ``pending``, run the clocks of exactly those seats, owe "your move" emails.

    ``games.clocks.clocks_update`` writes the seats' ``owes_move`` and clock
    fields and ``game.deadline``; each person whose clock just started is
    owed a "your move" (an outbox row in this transaction). ``seats``: the
    game's seats read under the lock, if the caller has them.
    """
    to_act = sorted({d.player for d in engine.pending(state)})
    game.to_act = to_act
    started = clocks.clocks_update(game, set(to_act), timezone.now(), seats=seats)
    correspondence.notify_your_move(game=game, seats=started)


def _finish(game: Game, engine: Engine, state: Any, *, seats: list[Seat] | None = None) -> None:
    """Write the result to the seats, mark the game finished and rate it. Caller holds the lock.

    ``seats``: the game's seats read under the lock, if the caller has them.
    """
    # ``state`` is None when a forfeit ends the game early (no engine result).
    result = engine.result(state) if state is not None else None
    game.status = Game.Status.FINISHED
    game.finished = timezone.now()
    game.to_act = []
    game.deadline = None
    if seats is None:
        seats = list(game.seats.all())
    # Forfeited seats rank last whatever their score (games.autoplay.final_ranks).
    ranks = autoplay.final_ranks(seats, result)
    clocks.clocks_stop_all(seats)
    for seat in seats:
        seat.rank = ranks[seat.position]
        if result is not None:
            seat.score = result.scores[seat.position]
        seat.save(update_fields=["rank", "score", *clocks.CLOCK_FIELDS])
    correspondence.notify_game_over(game=game)
    # In the same transaction, so the result and the ratings commit together;
    # rating_update skips casual and bot games and never rates a game twice.
    rating_update(game=game)


def _on_commit_cache_and_fan_out(
    game: Game, engine: Engine, snap: Snapshot, *, since: datetime, seats: list[Seat] | None = None
) -> None:
    """After commit: cache the snapshot at its seq and call ``after_move``.

    The pickle is taken now, so later changes to the state cannot leak in.
    ``since``: when the change began, taken before it wrote any outbox row
    (UTC); ``after_move`` queues the rows created since. With ``seats`` (as
    the change left them) ``after_move`` need not ask the database whether a
    bot is to move.
    """
    key = _state_key(game, game.last_seq, engine.version)
    blob = pickle.dumps(snap, pickle.HIGHEST_PROTOCOL)
    bot_to_act = None
    if seats is not None:
        bot_to_act = game.is_active and any(s.bot_played and s.deadline is not None for s in seats)
    transaction.on_commit(partial(_cache_and_fan_out, key, blob, game.pk, game.last_seq, since, bot_to_act))


def _cache_and_fan_out(
    key: str, blob: bytes, game_id: int, seq: int, since: datetime, bot_to_act: bool | None
) -> None:
    # The new position is cached at once: the other players' polls read it next.
    cache.set(key, blob, STATE_CACHE_TIMEOUT)
    fan_out = partial(after_move, game_id=game_id, seq=seq, since=since, bot_to_act=bot_to_act)
    if (settings.CELERY_TASK_ALWAYS_EAGER and bot_to_act is not False) or autoplay.bot_loop_active():
        # At once: without a broker a bot's turn runs inline and the mover's answer shows it
        # (games.views.game_move); a bot loop inside a request goes on by itself, and deferred past the
        # loop its moves' fan-outs would each queue another bot task (after_move checks the loop).
        fan_out()
    else:
        # Queueing emails and the bot's turn need not delay the mover's answer (ops.after_response).
        after_response(fan_out)


def after_move(*, game_id: int, seq: int, since: datetime, bot_to_act: bool | None = None) -> None:
    """Fan out after a move, a start or a timeout has been committed.

    Queues a send task for each outbox row the change wrote, and, if a bot
    seat now owes a decision, the ``bot_moves`` task (unless this runs
    inside that task's own loop, which goes on by itself). It runs after
    commit, so a task it queues always sees the move; it never raises (a
    broker outage is logged, and the periodic sweep does the work later),
    since the move is saved.

    Args:
        game_id: the game that changed.
        seq: its ``last_seq`` after the change (0 for a start).
        since: when the change began, before it wrote any outbox row (UTC):
            only pending rows created since are queued. Older ones were
            queued by their own change, or are the sweep's, so a backlog
            never slows the next move.
        bot_to_act: whether a bot-played seat owes a decision, if the caller
            knows; None asks the database.
    """
    from games.tasks import bot_moves, enqueue

    log.debug("after_move game=%s seq=%s", game_id, seq)
    try:
        correspondence.outbox_enqueue(game_id=game_id, since=since)
        if autoplay.bot_loop_active():
            return
        if bot_to_act is None:
            bot_to_act = (
                Seat.objects.filter(game_id=game_id, game__status=Game.Status.ACTIVE, deadline__isnull=False)
                .exclude(bot="")
                .exists()
            )
        if bot_to_act:
            enqueue(bot_moves, game_id)
    except Exception:  # the move is committed; the sweep catches up
        log.exception("after_move failed for game %s seq %s", game_id, seq)


# ---------------------------------------------------------------------------
# Records and chat


def game_record(game: Game) -> dict[str, Any]:
    """Return a finished game as JSON-ready data: enough to replay it exactly.

    Keys: ``kind``, ``engine_version``, ``options``, ``seed``, ``players``
    (per seat: ``seat``, ``name``, ``user``/``bot``, ``rank``, ``score``,
    ``forfeited``), ``moves`` (``seq``, ``player``, and the move's keys),
    ``started``/``finished`` (ISO 8601, UTC).

    Raises:
        GameNotActive: the game has not finished (the seed is still secret).
    """
    if not game.is_finished:
        raise GameNotActive(_("The record is available once the game has finished."))
    seats = list(game.seats.select_related("user").order_by("position"))
    return {
        "kind": game.kind,
        "engine_version": game.engine_version,
        "options": game.options,
        "seed": game.seed,
        "players": [
            {
                "seat": s.position,
                "name": str(s.name),
                "user": s.user.username if s.user_id else None,
                "bot": s.bot or None,
                "rank": s.rank,
                "score": s.score,
                "forfeited": s.forfeited,
            }
            for s in seats
        ],
        "moves": [
            {**move, "seq": seq, "player": seat}
            for seq, seat, move in game.actions.order_by("seq").values_list("seq", "seat", "move")
        ],
        "started": game.started.isoformat() if game.started else None,
        "finished": game.finished.isoformat() if game.finished else None,
    }


def chat_post(*, game_id: int, user: User, text: str) -> ChatMessage:
    """Post a line of plain text to a game's chat.

    Whitespace at the ends is dropped; the text is stored as typed and
    escaped when shown. Visibility is the caller's check (see
    ``games.selectors.can_view``).

    Raises:
        Game.DoesNotExist: no such game.
        ChatInvalid: empty, or longer than ``ChatMessage.MAX_LENGTH``.
        ChatRateLimited: more than ``settings.CHAT_RATE_LIMIT`` messages in
            ``settings.CHAT_RATE_WINDOW`` seconds from this user.
        ChatRefused: the user is muted or banned by a moderator.
    """
    if not can_chat(user):
        raise ChatRefused(_("A moderator has stopped you from chatting."))
    text = (text or "").strip()
    if not text:
        raise ChatInvalid(_("Write something first."))
    if len(text) > ChatMessage.MAX_LENGTH:
        raise ChatInvalid(_("A message can be at most %(n)d characters.") % {"n": ChatMessage.MAX_LENGTH})
    _chat_rate_check(user)
    game = Game.objects.only("pk").get(pk=game_id)
    with transaction.atomic():
        message = ChatMessage.objects.create(game=game, user=user, text=text)
        correspondence.notify_chat(message=message)
    transaction.on_commit(partial(after_response, partial(correspondence.outbox_enqueue, game_id=game.pk)))
    return message


def _chat_rate_check(user: User) -> None:
    """Count this message in a fixed window per user; refuse past the limit."""
    key = f"herald:chat-rate:{user.pk}"
    window = settings.CHAT_RATE_WINDOW
    cache.add(key, 0, window)
    try:
        count = cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, window)
        count = 1
    if count > settings.CHAT_RATE_LIMIT:
        raise ChatRateLimited(_("You are sending messages too quickly; wait a few seconds."))
