"""What happened in a game: the one list of events the other apps listen to.

``games`` never imports the apps that react to games (correspondence,
ratings, moderation, and later tournaments and statistics). It says what
happened by publishing one of the events below; those apps subscribe in
their ``AppConfig.ready``. This module is the whole list, in the spirit of
Zulip's documented event list: add an event here, with its payload and its
listeners, before anything publishes it.

Two moments:

* **In the transaction.** Every event but :class:`ChangesCommitted` is
  published inside the transaction that made the change, while the game's
  row lock is held, so a listener that writes rows (an outbox row, a rating
  change) commits or rolls back with the move. Such a listener must not do
  network I/O (no mail, no broker, no cache writes that must not be lost):
  it writes rows, and sends after commit. An exception it raises refuses the
  whole change.
* **After commit.** :class:`ChangesCommitted` is published once the change
  is committed (and, in a request, after the answer was sent). Its
  listeners queue work (emails, the bots' turn); one that raises is logged
  and the others still run, since the change is saved and the periodic
  sweep catches up.

The events and who listens (``docs/architecture.md`` draws the same list):

=====================  ===================================================  ==========================================
event                  published when                                       listeners
=====================  ===================================================  ==========================================
GameStarted            the last seat is taken and the cards are dealt       correspondence: "game started" emails
MovesApplied           moves were appended to the log (a person's, the      api: the event stream
                       forced moves after it, a bot's, a timeout answer,
                       an undo entry: ``games.engine.undo.is_undo``)
DecisionsOwed          clocks started for seats that now owe a decision     correspondence: "your move" emails
ClockRunningLow        a running clock passed 80% of its time               correspondence: "time low" email
SeatForfeited          a seat timed out, resigned or was forfeited          correspondence: the others' email
GameFinished           a game ended with ranks (by the rules, a forfeit     correspondence: "game over" emails;
                       or a moderator's adjudication)                       ratings: the rating update;
                                                                            tournaments: the table's result;
                                                                            stats: queue its measuring after commit
GameCancelled          an open game was cancelled or expired, a             correspondence: the creator's email
                       moderator aborted a game, or its tournament was      (expired games); tournaments: the
                       cancelled                                            aborted table scores 0; stats: take an
                                                                            aborted finished game out, after commit
ChatPosted             a chat line was posted                               correspondence: chat emails
UndoAsked              a player asked the others to let them take moves     correspondence: "allow it?" emails
                       back (``games.undo``)
PlayersInvited         a private game was created with invitations         correspondence: "invited" notices
ChangesCommitted       after commit of any of the above                     correspondence: queue the outbox rows;
                                                                            games.tasks: queue the bots' turn
=====================  ===================================================  ==========================================

Payloads carry the rows as the change left them (``Game``, ``Seat``,
``ChatMessage``), never an engine state: listeners read what they need
from the database or from these rows. All times are aware UTC datetimes.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from games.models import ChatMessage, Game, Seat

log = logging.getLogger(__name__)

E = TypeVar("E")


@dataclass(frozen=True, slots=True)
class GameStarted:
    """A game filled its last seat and was dealt.

    Attributes:
        game: the Game, now active (``last_seq`` 0).
        started_by_id: the user who took the last seat (or created a game
            against bots): they watch the start, so they need no email. None
            when nobody did.
        announced_by: the kind of notice (a ``correspondence`` notification
            kind, e.g. ``"tournament"``) in which whoever arranged the game
            tells its players of the start, with the game's link (a
            tournament's "round N: your games"); "" for none. A player who
            gets that notice needs no separate "game started" email.
    """

    game: Game
    started_by_id: int | None
    announced_by: str = ""


@dataclass(frozen=True, slots=True)
class MovesApplied:
    """Moves were appended to a game's log.

    Attributes:
        game: the Game after the moves (``last_seq`` is the last one's seq).
        first_seq: the seq of the first of ``moves``.
        moves: ``(seat position, move)`` pairs in log order, as stored.
    """

    game: Game
    first_seq: int
    moves: list[tuple[int, dict[str, Any]]]


@dataclass(frozen=True, slots=True)
class DecisionsOwed:
    """Clocks started for seats that now owe a decision.

    Attributes:
        game: the Game.
        seats: the seats whose clock just started (bot-played ones
            included; ``Seat.clock_seq`` is the seq the clock started at).
    """

    game: Game
    seats: list[Seat]


@dataclass(frozen=True, slots=True)
class ClockRunningLow:
    """A seat's running clock passed ``games.clocks.WARN_FRACTION`` of its time (once per clock).

    Attributes:
        game: the Game (locked).
        seat: the seat whose clock runs low; a person's, never a bot's.
    """

    game: Game
    seat: Seat


@dataclass(frozen=True, slots=True)
class SeatForfeited:
    """A seat gave up: ran out of time, resigned, or was forfeited by a moderator (or a ban).

    Attributes:
        game: the Game after the forfeit.
        seat: the seat, with ``resigned`` / ``forfeited_by_moderator`` saying why.
        game_over: whether the forfeit ended the game (else a bot plays the seat).
        aborted: the seat resigned or timed out at move 0, before a move of its
            own (``games.leaving.at_move_0``), so the forfeit aborted the game
            (``GameCancelled`` follows, why ``"move_0"``): no result, not rated,
            in no statistics.
    """

    game: Game
    seat: Seat
    game_over: bool
    aborted: bool = False


@dataclass(frozen=True, slots=True)
class GameFinished:
    """A game ended with a result: ``Seat.rank`` (and ``score``, if any) are written.

    Attributes:
        game: the Game, now finished.
        seats: every seat, with its rank.
        adjudicated: True when a moderator set the ranks.
    """

    game: Game
    seats: list[Seat]
    adjudicated: bool = False


@dataclass(frozen=True, slots=True)
class GameCancelled:
    """A game ended without a result.

    Attributes:
        game: the Game, now aborted.
        why: ``"creator"`` (cancelled before it started), ``"expired"`` (nobody
            joined in ``games.lifecycle.OPEN_GAME_LIFETIME``), ``"moderator"``,
            ``"event"`` (the tournament it was arranged for was cancelled:
            ``games.arranged.game_cancel_arranged``), or ``"move_0"`` (a seat
            resigned or timed out at move 0, before a move of its own:
            ``games.leaving.at_move_0``). Kept as ``Game.cancel_reason``.
        was: the status it had before.
    """

    game: Game
    why: str
    was: str


@dataclass(frozen=True, slots=True)
class ChatPosted:
    """A line was posted to a game's chat.

    Attributes:
        message: the ChatMessage (saved).
    """

    message: ChatMessage


@dataclass(frozen=True, slots=True)
class UndoAsked:
    """A player asked the other players to let them take back moves (``games.undo``).

    Attributes:
        game: the Game (``last_seq``: the position the request is open at).
        request_id: the ``UndoRequest``'s id.
        seat: the position asking.
        voters: the seats whose person must answer, users loaded.
    """

    game: Game
    request_id: int
    seat: int
    voters: list[Seat]


@dataclass(frozen=True, slots=True)
class PlayersInvited:
    """Users were invited to an open (private) game.

    Attributes:
        game: the Game, open.
        user_ids: the users invited (players who blocked the creator are not among them).
        by_id: who invited them (the game's creator).
    """

    game: Game
    user_ids: tuple[int, ...]
    by_id: int


@dataclass(frozen=True, slots=True)
class ChangesCommitted:
    """After commit of a change to a game: the moment to queue work about it.

    Attributes:
        game_id: the game.
        seq: its ``last_seq`` after the change.
        since: when the change began, before it wrote any row (UTC):
            listeners queue only what was written since.
        bot_to_act: whether a bot-played seat owes a decision now, if the
            publisher knows; None asks the database; False for changes that
            cannot give a bot a turn (chat).
    """

    game_id: int
    seq: int
    since: datetime
    bot_to_act: bool | None = None


#: Every event type, in the order of the table above.
EVENTS: tuple[type, ...] = (
    GameStarted,
    MovesApplied,
    DecisionsOwed,
    ClockRunningLow,
    SeatForfeited,
    GameFinished,
    GameCancelled,
    ChatPosted,
    UndoAsked,
    PlayersInvited,
    ChangesCommitted,
)

_listeners: dict[type, list[Callable[[Any], None]]] = defaultdict(list)


def subscribe(event_type: type[E], listener: Callable[[E], None]) -> None:
    """Call ``listener(event)`` for every ``event_type`` published from now on (idempotent).

    Call it from an ``AppConfig.ready``. Listeners run in subscription order.

    Raises:
        TypeError: ``event_type`` is not one of :data:`EVENTS`.
    """
    if event_type not in EVENTS:
        raise TypeError(f"{event_type!r} is not a game event (see games.events.EVENTS)")
    if listener not in _listeners[event_type]:
        _listeners[event_type].append(listener)


def unsubscribe(event_type: type, listener: Callable[[Any], None]) -> None:
    """Stop calling ``listener`` for ``event_type`` (tests; nothing if it was not subscribed)."""
    if listener in _listeners[event_type]:
        _listeners[event_type].remove(listener)


def listeners(event_type: type) -> list[Callable[[Any], None]]:
    """The listeners subscribed to ``event_type``, in order (a copy)."""
    return list(_listeners[event_type])


def publish(event: object) -> None:
    """Hand ``event`` to its listeners.

    In-transaction events: a listener's exception propagates (the change is
    refused and rolled back). :class:`ChangesCommitted`: each listener's
    exception is logged and the next listener still runs.
    """
    if isinstance(event, ChangesCommitted):
        for listener in _listeners[ChangesCommitted]:
            try:
                listener(event)
            except Exception:  # the change is committed; the sweep catches up
                log.exception("a listener of %s failed for game %s", type(event).__name__, event.game_id)
        return
    for listener in _listeners[type(event)]:
        listener(event)
