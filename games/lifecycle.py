"""A game's life outside its moves: creating, joining, leaving, starting, forfeiting and ending it.

Every function that changes a game takes its row lock (``lock_game``) or
is documented as called with it held, runs in one transaction, publishes
what happened (``games.events``) and raises a ``games.errors`` error (or
the engine's ``InvalidOptions``) with a sentence a player can read.

The forfeit rule: a seat that ran out of time on its own turn, resigned,
or was forfeited by a moderator ranks last; if fewer than two unforfeited
seats, or no unforfeited person, remain, the game ends now; otherwise a bot
plays the seat to the end (``Seat.bot`` is set and ``Seat.user`` kept, so
the page can say who left).

Move 0 (lichess's abort): a player who resigns or runs out of time before
a move of their own (``games.leaving.at_move_0``) aborts the game instead:
no result, not rated, in no statistics or rating history. Not a
moderator's forfeit (a moderator decides, and may abort), nor a game whose
result an app needs (``policy.result_required``: a tournament's table).

All timestamps are timezone-aware UTC.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.selectors import blockers_among, has_verified_email, is_blocked_by_any
from games import clocks, events, live, policy
from games.bots import engine_bots, timeout_bot
from games.creation import check_time_control, engine_for_new_game, game_row_create
from games.engine.core import Engine, InvalidOptions
from games.engine.registry import get_engine
from games.errors import CannotJoin, GameNotActive, NotYourMove
from games.fanout import on_commit_cache_and_fan_out, on_commit_fan_out
from games.leaving import MOVE_0, at_move_0, seat_forfeit_frozen
from games.locking import lock_game
from games.models import Game, Invitation, Seat
from games.replay import ReplayBroken, Snapshot, engine_for
from games.turns import finish, finish_with_ranks, update_turn_fields

if TYPE_CHECKING:
    from accounts.models import User

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

#: Open games nobody filled are cancelled after this long.
OPEN_GAME_LIFETIME = timedelta(days=14)


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
        kind: an installed game's name (``games.kinds``).
        options: the engine's options (as its ``normalize_options`` takes them);
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
            a rated game by a user whose email is not verified, a suspended account.
    """
    engine = engine_for_new_game(kind, players)
    bots = list(bots)
    if len(bots) >= players:
        raise InvalidOptions(_("At least one seat must be left for a person."))
    if bots:
        known = engine_bots(engine)
        unknown = [b for b in bots if b not in known]
        if unknown:
            # Name the ones there are: a client that guessed a name learns the right ones from the refusal.
            raise InvalidOptions(
                _("Unknown bot: %(name)s. This game's bots: %(known)s.")
                % {"name": ", ".join(unknown), "known": ", ".join(sorted(known))}
            )
        if rated:
            raise InvalidOptions(_("Games with bots cannot be rated."))
    if rated and not has_verified_email(creator):
        raise InvalidOptions(_("Verify your email address before playing rated games."))
    if policy.is_restricted(creator, "create"):
        raise InvalidOptions(_("Your account is suspended."))
    check_time_control(time_per_move, clock, increment)
    since = timezone.now()  # before the invitations' outbox rows are written
    with transaction.atomic():
        game = game_row_create(
            engine,
            kind=kind,
            options=options,
            players=players,
            creator=creator,
            rated=rated,
            private=private,
            time_per_move=time_per_move,
            clock=clock,
            increment=increment,
        )
        Seat.objects.create(game=game, position=0, user=creator)
        Seat.objects.bulk_create(Seat(game=game, position=i, bot=name) for i, name in enumerate(bots, start=1))
        invited_by_id = {u.pk: u for u in invited if u.pk != creator.pk}
        # Players who blocked the creator are quietly left out: blocks are private.
        refused = blockers_among(creator, invited_by_id)
        Invitation.objects.bulk_create(
            Invitation(game=game, user=user) for pk, user in invited_by_id.items() if pk not in refused
        )
        asked = tuple(pk for pk in invited_by_id if pk not in refused)
        if asked:
            events.publish(events.PlayersInvited(game=game, user_ids=asked, by_id=creator.pk))
            on_commit_fan_out(game, since=since, bot_to_act=False)
        if 1 + len(bots) == players:
            game_start_locked(game, engine, started_by=creator)
        else:
            _seats_changed(game)
    return game


def game_join(*, game_id: int, user: User) -> Game:
    """Seat ``user`` at an open game; start the game when the last seat is taken.

    Returns:
        The Game (active if this join filled it).

    Raises:
        Game.DoesNotExist: no such game.
        GameNotActive: the game is no longer open.
        CannotJoin: private and not invited, already seated, full, a rated
            game and the user's email is not verified, a suspended account,
            a seated player has blocked the user, or a rated game would pair
            a bot account with a person (unless ``settings.HERALD_RATE_BOT_ACCOUNTS``).
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
        if policy.is_restricted(user, "join"):
            raise CannotJoin(_("Your account is suspended."))
        if game.rated and not has_verified_email(user):
            raise CannotJoin(_("Verify your email address before playing rated games."))
        if game.rated and not settings.HERALD_RATE_BOT_ACCOUNTS and _mixes_bots_and_people(seats, user):
            raise CannotJoin(_("Rated games do not pair bot accounts with people."))
        if is_blocked_by_any(user, [s.user_id for s in seats if s.user_id is not None]):
            # Deliberately vague: blocks are private.
            raise CannotJoin(_("You cannot join this game."))
        taken = {s.position for s in seats}
        free = [p for p in range(game.max_players) if p not in taken]
        if not free:
            raise CannotJoin(_("This game is full."))
        Seat.objects.create(game=game, position=free[0], user=user)
        if len(free) == 1:
            game_start_locked(game, get_engine(game.kind), started_by=user)
        else:
            _seats_changed(game)
    return game


def _seats_changed(game: Game) -> None:
    """After commit: the open game's page and the lobbies show its new seats (``games.live``)."""
    live.notify_on_commit(live.game_topic(game.pk), seq=game.last_seq)
    live.notify_on_commit(live.LOBBY)


def _mixes_bots_and_people(seats: Sequence[Seat], user: User) -> bool:
    """True if seating ``user`` beside ``seats`` would put a bot account and a person at one table."""
    flags = {user.bot_account} | {s.user.bot_account for s in seats if s.user is not None}
    return len(flags) > 1


def game_leave(*, game_id: int, user: User) -> Game:
    """Give up ``user``'s seat at an open game.

    The creator cannot leave (cancel instead), and nobody leaves a running
    game this way (resigning is :func:`game_resign`).

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
        _seats_changed(game)
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
        game.cancel_reason = "creator"
        game.finished = timezone.now()
        game.save(update_fields=["status", "cancel_reason", "finished"])
        events.publish(events.GameCancelled(game=game, why="creator", was=Game.Status.OPEN))
    return game


def game_start_locked(
    game: Game, engine: Engine, *, started_by: User | None = None, shuffle: bool = True, announced_by: str = ""
) -> None:
    """Shuffle the seats (unless ``shuffle`` is False), make the options concrete and deal. Caller holds the lock.

    ``started_by``: whoever filled the last seat (or created a game against
    bots); they are looking at the game as it starts, so they get no
    "has started" email. ``announced_by``: the notice that tells the players
    of the start instead (``events.GameStarted.announced_by``).

    Seat order is drawn with ``secrets`` (not the game's seed) so that
    nobody who learns the seed afterwards could have predicted it.
    """
    since = timezone.now()  # before any outbox row of the start is written
    seats = list(game.seats.select_related("user").order_by("position"))
    order = list(range(len(seats)))
    if shuffle:  # an arranged game (a tournament's) keeps the seat order it was given
        secrets.SystemRandom().shuffle(order)
    # Two steps, because (game, position) is unique at every statement.
    game.seats.update(position=F("position") + 100)
    for seat, position in zip(seats, order, strict=True):
        seat.position = position
        # Each player's standing answers as they are now; editable per game afterwards.
        seat.standing = dict(seat.user.standing_answers or {}) if seat.user is not None else {}
        Seat.objects.filter(pk=seat.pk).update(position=position, standing=seat.standing)
    game.options = engine.normalize_options(game.options, len(seats), game.seed)
    state = engine.new_game(game.options, len(seats), game.seed)
    game.engine_version = engine.version
    game.status = Game.Status.ACTIVE
    game.started = timezone.now()
    game.last_seq = 0
    update_turn_fields(game, engine, state)
    events.publish(
        events.GameStarted(game=game, started_by_id=started_by.pk if started_by else None, announced_by=announced_by)
    )
    game.save(update_fields=["options", "engine_version", "status", "started", "last_seq", "to_act", "deadline"])
    on_commit_cache_and_fan_out(game, engine, Snapshot(state, []), since=since)


def game_resign(*, game_id: int, user: User) -> Game:
    """Give up ``user``'s seat in a running game: it ranks last, as a seat that ran out of time does.

    With one other player left the game ends (and is rated as finished);
    with more, a bot plays the seat to the end so the others can finish,
    exactly as after a timeout (:func:`seat_forfeit_locked`). The others are
    told ("... resigned"). At move 0 (the user has not made a move of
    their own yet: ``games.leaving.at_move_0``) the game is aborted instead, unrated.

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
        seat_forfeit_locked(game, seat, timezone.now(), resigned=True)
    return game


def seat_forfeit_locked(
    game: Game, seat: Seat, now: datetime, *, resigned: bool = False, by_moderator: bool = False
) -> None:
    """Forfeit ``seat`` (on time, ``resigned`` or ``by_moderator``): rank it last; end the game or let a bot play it.

    Caller holds the game's lock; ``now`` (UTC) is when the forfeit began,
    before it wrote any row. Publishes ``SeatForfeited`` (and
    ``GameFinished`` when it ends the game).

    A seat that resigned or timed out at move 0 (``games.leaving.at_move_0``;
    not ``by_moderator``, nor a game whose result an app needs:
    ``policy.result_required``) aborts the game (:func:`game_abort_locked`,
    why ``"move_0"``), the seat still marked as it left (its clock and the
    matcher's count of timeouts say so); ``SeatForfeited`` says ``aborted``.

    A frozen game loses a seat too when its player leaves the event it
    belongs to (``games.arranged.game_withdraw_player``), without an engine:
    ``games.leaving.seat_forfeit_frozen``.
    """
    if game.is_frozen:
        seat_forfeit_frozen(game, seat, now, resigned=resigned, by_moderator=by_moderator)
        return
    seats = list(game.seats.all())
    seats = [seat if s.pk == seat.pk else s for s in seats]
    # A moderator's forfeit (or the ban sweep's) is a decision about the player, kept as one:
    # a moderator who wants no result aborts the game instead.
    abort = not by_moderator and at_move_0(game, seat) and not policy.result_required(game)
    engine = None if abort else engine_for(game)  # an abort needs no engine (no bot plays on)
    seat.forfeited = True
    seat.resigned = resigned
    seat.forfeited_by_moderator = by_moderator
    seat.timed_out = now
    seat.forfeit_seq = game.last_seq  # the log and the replay say so after this move
    seat.clock_started = seat.deadline = seat.warn_at = None
    playing = [s for s in seats if not s.forfeited]
    people = [s for s in playing if s.user_id is not None and not s.bot_played]
    keep_going = engine is not None and len(playing) >= 2 and bool(people)
    if keep_going:
        assert engine is not None  # for mypy: keep_going says so
        seat.bot = timeout_bot(engine)
    fields = [
        "forfeited",
        "resigned",
        "forfeited_by_moderator",
        "timed_out",
        "forfeit_seq",
        "clock_started",
        "deadline",
        "warn_at",
    ]
    seat.save(update_fields=[*fields, "bot"])
    how = "resigned" if resigned else "by a moderator" if by_moderator else "on time"
    log.info("game %s: seat %s forfeited (%s)%s", game.pk, seat.position, how, " at move 0" if abort else "")
    events.publish(events.SeatForfeited(game=game, seat=seat, game_over=not keep_going, aborted=abort))
    if abort:
        game_abort_locked(game, why=MOVE_0)
    elif keep_going:
        clocks.clocks_update(game, set(game.to_act), now)
        game.save(update_fields=["deadline"])
    else:
        finish(game, engine, None)
        game.save(update_fields=["status", "finished", "to_act", "deadline"])
    on_commit_fan_out(game, since=now, bot_to_act=False if abort else None)


def game_expire(*, game_id: int) -> bool:
    """Cancel an open game nobody filled within ``OPEN_GAME_LIFETIME``; publish ``GameCancelled`` ("expired").

    Returns:
        True if the game was cancelled now.
    """
    since = timezone.now()
    with transaction.atomic():
        game = lock_game(game_id)
        if not game.is_open or game.created > timezone.now() - OPEN_GAME_LIFETIME:
            return False
        game.status = Game.Status.ABORTED
        game.cancel_reason = "expired"
        game.finished = timezone.now()
        game.save(update_fields=["status", "cancel_reason", "finished"])
        events.publish(events.GameCancelled(game=game, why="expired", was=Game.Status.OPEN))
        on_commit_fan_out(game, since=since, bot_to_act=False)
    return True


def game_freeze(*, game_id: int, broken: ReplayBroken) -> bool:
    """Stop a running game whose log no longer replays: no moves, clocks stopped, until a moderator acts.

    Runs in its own transaction under the game's lock (call it after the
    transaction in which the replay failed, which rolls back). The game's
    status becomes ``frozen`` with ``broken.reason`` kept for moderators
    (``/ops/stats/`` and the admin's report queue list frozen games); they
    adjudicate or abort it with their usual tools.

    Returns:
        True if the game was frozen now (False: not running any more, or already frozen).
    """
    with transaction.atomic():
        game = lock_game(game_id)
        if not game.is_active:
            return False
        seats = list(game.seats.all())
        clocks.clocks_stop_all(seats)
        Seat.objects.bulk_update(seats, clocks.CLOCK_FIELDS)
        game.status = Game.Status.FROZEN
        game.frozen_reason = broken.reason
        game.to_act = []
        game.deadline = None
        game.save(update_fields=["status", "frozen_reason", "to_act", "deadline"])
    # An error, not a warning: a deployed rules change broke a stored game.
    log.error("game %s frozen: its log no longer replays (%s)", game_id, broken.reason)
    return True


def game_abort_locked(game: Game, why: str = "moderator") -> str:
    """Abort ``game`` whatever its status (a moderator's decision): clocks stop, no result. Lock held.

    Publishes ``GameCancelled`` (``why``: "moderator", "event" when the
    event the game belonged to was cancelled, "move_0" when a seat left it
    at move 0: :func:`seat_forfeit_locked`), and keeps ``why`` as ``Game.cancel_reason``. Reversing rating changes of a
    finished game is the caller's business (``moderation``).

    Returns:
        The status the game had before.
    """
    was = game.status
    seats = list(game.seats.all())
    clocks.clocks_stop_all(seats)
    Seat.objects.bulk_update(seats, clocks.CLOCK_FIELDS)
    game.status = Game.Status.ABORTED
    game.cancel_reason = why
    game.finished = game.finished or timezone.now()
    game.to_act = []
    game.deadline = None
    game.save(update_fields=["status", "cancel_reason", "finished", "to_act", "deadline"])
    events.publish(events.GameCancelled(game=game, why=why, was=was))
    return was


def game_adjudicate_locked(game: Game, ranks: Mapping[int, int]) -> None:
    """End a running ``game`` with the ranks a moderator set (``{position: rank}``). Lock held.

    The game is finished and rated like any other (``GameFinished``); the
    players get the "game over" email after commit. Validating the ranks is
    the caller's business.
    """
    since = timezone.now()  # before the game-over rows are written
    finish_with_ranks(game, ranks)
    on_commit_fan_out(game, since=since)


def seat_seen(*, seat: Seat | None) -> None:
    """Record that ``seat``'s player opened the game (one UPDATE per stretch of owing, at most).

    Only the first visit after it became their move is written: that is
    all the "no your-move email for a game you opened" rule needs.
    """
    if seat is None or seat.user_id is None or not seat.owes_move or seat.clock_started is None:
        return
    if seat.last_seen is not None and seat.last_seen >= seat.clock_started:
        return
    seat.last_seen = timezone.now()
    Seat.objects.filter(pk=seat.pk).update(last_seen=seat.last_seen)
