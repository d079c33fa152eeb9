"""Move clocks: who is on the clock, until when, and how much time each seat has left.

A seat's clock runs while the seat owes a decision (its own turn, or an
answer outside its turn, such as the discard another player's attack asks
for) and stops when it owes nothing. Several seats can be on the clock at
once (an attack played in a game of four), each against its own deadline.

* Fixed time per move: each stretch of owing gets ``Game.time_per_move``.
* Fischer: each seat starts with a bank of ``Game.time_per_move``; the
  deadline is when the bank runs out; when the clock stops, the time used
  is taken from the bank and ``Game.increment`` is added, capped at the
  starting bank.

Vacations (``correspondence``, asked through ``games.policy.away_until``)
push a running deadline back by their length, and a clock that starts during
a vacation starts when the vacation ends, so the bank is simply "deadline
minus the moment the clock would start running again".

Bot-played seats get a short deadline (``BOT_GRACE``) instead: if the task
that should have moved them was lost, the sweep moves them then.

Everything here is called with the game's row lock held (by the move path,
the lifecycle, vacations and moderators), and writes only Seat clock fields
and ``Game.deadline``. Times are aware UTC datetimes.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from django.db import transaction
from django.utils import timezone

from games import events, policy
from games.fanout import on_commit_fan_out
from games.locking import lock_game
from games.models import Game, Seat

if TYPE_CHECKING:
    from collections.abc import Iterable
    from collections.abc import Set as AbstractSet

#: Share of a move's time after which "you are running out of time" is sent.
WARN_FRACTION = 0.8
#: How long a bot seat may owe a decision before the sweep moves it (a lost task).
BOT_GRACE = timedelta(minutes=2)

CLOCK_FIELDS = ["owes_move", "clock_started", "clock_seq", "deadline", "warn_at", "bank"]


def vacation_ends(user_ids: Iterable[int | None], now: datetime) -> dict[int | None, datetime]:
    """Return ``{user id: when they are back}`` for those of ``user_ids`` away at ``now`` (``games.policy``).

    ``None`` (a seat nobody took) is passed over; keys are ``int | None`` so a seat's
    ``user_id`` can be looked up as it is.
    """
    ids = {u for u in user_ids if u is not None}
    if not ids:
        return {}
    return dict(policy.away_until(ids, now).items())


def allowance(game: Game, seat: Seat) -> timedelta:
    """Return the time ``seat`` gets when its clock starts: the fixed time, or its Fischer bank."""
    if game.clock == Game.Clock.FISCHER:
        return seat.bank if seat.bank is not None else game.time_per_move
    return game.time_per_move


def clocks_update(
    game: Game,
    owing: set[int],
    now: datetime,
    *,
    seats: list[Seat] | None = None,
    restart: AbstractSet[int] = frozenset(),
) -> list[Seat]:
    """Start and stop the seats' clocks so that exactly the seats in ``owing`` run.

    Writes each seat's clock fields and ``owes_move`` (true only for seats a
    person plays, so the lobby's "your move" list never shows a seat a bot
    plays), and sets ``game.deadline`` (not saved: the caller saves the game)
    to the earliest deadline of a seat a person plays.

    Args:
        game: the game, locked by the caller, with ``last_seq`` already
            advanced to the move that caused this update.
        owing: the seat positions that owe a decision now.
        now: the current time (UTC).
        seats: the game's seats, read under the lock, if the caller has
            them (else read here); updated in place.
        restart: positions whose running clock stops and starts again now
            (a new stretch of owing: an answer, then the seat's own turn).

    Returns:
        The seats played by a person whose clock started now: the players
        who just got a "your move".
    """
    if seats is None:
        seats = list(game.seats.all())
    before = [_clock_fields(s) for s in seats]
    changing = [
        s.user_id
        for s in seats
        if s.user_id and ((s.position in owing) != (s.clock_started is not None) or s.position in restart)
    ]
    away = vacation_ends(changing, now) if changing else {}
    started: list[Seat] = []
    for seat in seats:
        owes = seat.position in owing
        running = seat.clock_started is not None
        if seat.bot_played:
            seat.bank = None
            seat.warn_at = None
            if owes:
                if not running:
                    seat.clock_started, seat.clock_seq = now, game.last_seq
                seat.deadline = now + BOT_GRACE  # refreshed on each of its moves
            else:
                seat.clock_started = seat.deadline = None
        elif running and not owes:
            _stop(game, seat, now, away.get(seat.user_id))
        elif running and seat.position in restart:
            _stop(game, seat, now, away.get(seat.user_id))
            _start(game, seat, now, away.get(seat.user_id))
        elif owes and not running:
            _start(game, seat, now, away.get(seat.user_id))
            started.append(seat)
        seat.owes_move = owes and not seat.bot_played
    # Most moves leave every clock as it was (a turn is several moves): write only what changed.
    changed = [s for s, old in zip(seats, before, strict=True) if _clock_fields(s) != old]
    for seat in changed:
        # One plain UPDATE per seat (a turn changes two): bulk_update's CASE
        # expressions cost three times as much to build for so few rows.
        Seat.objects.filter(pk=seat.pk).update(**{f: getattr(seat, f) for f in CLOCK_FIELDS})
    game.deadline = min((s.deadline for s in seats if s.deadline and not s.bot_played), default=None)
    return started


def _clock_fields(seat: Seat) -> tuple:
    return tuple(getattr(seat, f) for f in CLOCK_FIELDS)


def _start(game: Game, seat: Seat, now: datetime, vacation_end: datetime | None) -> None:
    """Start ``seat``'s clock at ``now`` (or when its user's vacation ends)."""
    begin = max(now, vacation_end) if vacation_end else now
    time = allowance(game, seat)
    seat.clock_started = now
    seat.clock_seq = game.last_seq
    seat.deadline = begin + time
    seat.warn_at = begin + time * WARN_FRACTION


def _stop(game: Game, seat: Seat, now: datetime, vacation_end: datetime | None) -> None:
    """Stop ``seat``'s clock; a Fischer bank keeps what is left plus the increment."""
    if game.clock == Game.Clock.FISCHER and seat.deadline is not None:
        # The deadline already includes any vacation; time still to come on
        # vacation is not bank.
        left = seat.deadline - max(now, vacation_end or now)
        seat.bank = min(max(left, timedelta(0)) + game.increment, game.time_per_move)
    seat.clock_started = seat.deadline = seat.warn_at = None


def clocks_stop_all(seats: Iterable[Seat]) -> None:
    """Clear every clock field of ``seats`` (in memory; the caller saves), at a game's end."""
    for seat in seats:
        seat.owes_move = False
        seat.clock_started = seat.deadline = seat.warn_at = None


def clocks_shift(user_id: int, delta: timedelta) -> int:
    """Move every running deadline and warning of ``user_id``'s seats by ``delta``.

    Used when a vacation starts (``delta`` > 0: the clocks stand still) or
    ends early (``delta`` < 0: give back the unused part). Each game's row
    is locked in id order, so a timeout cannot fire half-way. Must be called
    inside a transaction.

    Returns:
        How many seats were moved.
    """
    moved = 0
    game_ids = sorted(
        Seat.objects.filter(
            user_id=user_id, bot="", deadline__isnull=False, game__status=Game.Status.ACTIVE
        ).values_list("game_id", flat=True)
    )
    for game_id in game_ids:
        game = lock_game(game_id)
        seats = list(game.seats.all())
        for seat in seats:
            if seat.user_id == user_id and seat.deadline is not None and not seat.bot_played:
                seat.deadline += delta
                if seat.warn_at is not None:
                    seat.warn_at += delta
                moved += 1
        Seat.objects.bulk_update(seats, ["deadline", "warn_at"])
        game.deadline = min((s.deadline for s in seats if s.deadline and not s.bot_played), default=None)
        game.save(update_fields=["deadline"])
    return moved


def clocks_push_back(game: Game, by: timedelta, position: int | None = None) -> list[Seat]:
    """Push the running deadlines (of seat ``position``, or of every seat) back by ``by``. Lock held.

    A moderator's extension or pause: the seats' warnings move with them and
    ``game.deadline`` is saved.

    Returns:
        The seats moved (none when no person's clock runs).
    """
    seats = list(game.seats.all())
    moved = []
    for seat in seats:
        if seat.deadline is None or seat.bot_played or (position is not None and seat.position != position):
            continue
        seat.deadline += by
        if seat.warn_at is not None:
            seat.warn_at += by
        moved.append(seat)
    if moved:
        Seat.objects.bulk_update(moved, ["deadline", "warn_at"])
        game.deadline = min((s.deadline for s in seats if s.deadline and not s.bot_played), default=None)
        game.save(update_fields=["deadline"])
    return moved


def clock_warn(*, seat_id: int, now: datetime) -> bool:
    """Claim the 80% warning of ``seat_id``'s running clock and publish ``ClockRunningLow`` (once per clock).

    Runs in its own transaction under the game's row lock; ``now`` is UTC.

    Returns:
        True if the warning was owed now (a person's seat whose ``warn_at`` had passed).

    Raises:
        LockTimeout: the game is busy (the next sweep tries again).
    """
    since = timezone.now()  # before the warning's outbox row is written
    with transaction.atomic():
        game_id = Seat.objects.filter(pk=seat_id).values_list("game_id", flat=True).first()
        if game_id is None:
            return False
        game = lock_game(game_id)
        seat = Seat.objects.get(pk=seat_id)
        if seat.warn_at is None or seat.warn_at > now:
            return False
        seat.warn_at = None
        seat.save(update_fields=["warn_at"])
        if seat.bot_played or seat.user_id is None:
            return False
        events.publish(events.ClockRunningLow(game=game, seat=seat))
        on_commit_fan_out(game, since=since, bot_to_act=False)
    return True


@dataclass(frozen=True, slots=True)
class SeatClock:
    """One seat's clock as the game page and the lobby show it.

    Attributes:
        seat: the Seat.
        running: the seat owes a decision now.
        left: time left now (running), or what it will get next (stopped).
        deadline: when it runs out (UTC), or None.
        vacation_until: end of its user's vacation (UTC), or None.
        timed_out: when it forfeited on time (UTC), or None.
        bot: the seat is played by a bot (from the start, or since a timeout).
    """

    seat: Seat
    running: bool
    left: timedelta | None
    deadline: datetime | None
    vacation_until: datetime | None
    timed_out: datetime | None
    bot: bool


def seat_clocks(game: Game, now: datetime) -> list[SeatClock]:
    """Return every seat's clock, in seat order.

    Uses ``game.seats.all()`` (prefetch it with users to save queries); reads
    the vacation table only when a running deadline was pushed back.
    """
    seats = list(game.seats.all())
    # A deadline further off than the seat's allowance was pushed back by a
    # vacation: only then is the vacation table read (pages count queries).
    shifted = [
        s.user_id
        for s in seats
        if s.deadline and s.clock_started and s.deadline - s.clock_started > allowance(game, s) + timedelta(seconds=1)
    ]
    away = vacation_ends(shifted, now) if game.is_active and shifted else {}
    out = []
    for seat in seats:
        running = seat.deadline is not None and not seat.bot_played and game.is_active
        if running and seat.deadline is not None:  # running says so; spelled out for mypy
            left: timedelta | None = max(seat.deadline - max(now, away.get(seat.user_id, now)), timedelta(0))
        elif seat.bot_played or not game.is_active:
            left = None
        else:
            left = allowance(game, seat)
        out.append(
            SeatClock(
                seat=seat,
                running=running,
                left=left,
                deadline=seat.deadline if running else None,
                vacation_until=away.get(seat.user_id),
                timed_out=seat.timed_out,
                bot=seat.bot_played,
            )
        )
    return out
