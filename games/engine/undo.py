"""Taking moves back: undo entries in a log, replaying a log that holds them, and what may be taken back.

A game's log is append-only. A player who takes moves back appends an
**undo** entry, ``{"act": "undo", "to": N}`` (optionally ``"agreed": [seats]``,
the players who consented), which says: from here on, the position is the
one after move ``N``; the moves after ``N`` are **retracted**. Replaying a
log applies every move as it happened (so the log reads as it was played:
the misclicked Buy, then the undo) and, at an undo entry, goes back to the
position after move ``N``. An undo entry is never passed to an engine's
``apply``: it is not a move of any game's notation.

What may be taken back without anyone's consent is the engine's to say,
from the events a move produced (``Engine.undo_barrier``): a move that
showed anyone something hidden (a card drawn, a shuffle, a reveal, a card
taken from a hidden deck) or ended a turn is a barrier. This module holds
the shared part (:func:`barrier_of`); the site adds what it knows of the
table (whether another player answered or is being asked).

Pure Python: no Django, no I/O, no clock.
"""

from __future__ import annotations

import pickle
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from games.engine.core import Engine, Event, IllegalMove

#: The ``act`` of an undo entry.
UNDO = "undo"

#: Barrier codes (``Engine.undo_barrier``): the turn ended (nothing before it can be taken back),
#: or something hidden was shown (only the others' consent allows taking it back).
TURN = "turn"
REVEALED = "revealed"


def is_undo(move: Any) -> bool:
    """True when ``move`` is an undo entry rather than a move of the game."""
    return isinstance(move, dict) and move.get("act") == UNDO


def undo_entry(to: int, agreed: Iterable[int] = ()) -> dict[str, Any]:
    """The log entry that takes the position back to after move ``to`` (``agreed``: who consented)."""
    entry: dict[str, Any] = {"act": UNDO, "to": int(to)}
    agreed = sorted(agreed)
    if agreed:
        entry["agreed"] = agreed
    return entry


def undo_targets(moves: Iterable[Any]) -> set[int]:
    """The seqs that undo entries among ``moves`` go back to (the positions a replay must keep)."""
    return {m["to"] for m in moves if is_undo(m) and isinstance(m.get("to"), int)}


def retracted_seqs(rows: Iterable[tuple[int, Any]]) -> dict[int, int]:
    """Which moves of a log were taken back: ``{retracted seq: seq of the undo entry that retracted it}``.

    ``rows``: ``(seq, move)`` in seq order. Undo entries are never retracted
    themselves (they stay in the record of what happened).
    """
    live: list[int] = []
    out: dict[int, int] = {}
    for seq, move in rows:
        if is_undo(move):
            to = move.get("to")
            while live and isinstance(to, int) and live[-1] > to:
                out[live.pop()] = seq
        else:
            live.append(seq)
    return out


class Rewinder:
    """Replays a log that may hold undo entries, through one engine.

    ``state`` is the position after the moves applied so far (a new object
    after an undo). Keeps a copy of each position an undo of the log goes
    back to (``targets``, from :func:`undo_targets`), so replaying costs one
    pickle per undo entry.
    """

    __slots__ = ("engine", "state", "targets", "_saved", "_live")

    def __init__(self, engine: Engine, state: Any, targets: set[int]) -> None:
        self.engine = engine
        self.state = state
        self.targets = targets
        self._saved: dict[int, bytes] = {}
        self._live: list[int] = []
        if 0 in targets:
            self._saved[0] = pickle.dumps(state, pickle.HIGHEST_PROTOCOL)

    def apply(self, seq: int, seat: int, move: dict[str, Any]) -> list[Event]:
        """Apply the log entry ``seq`` (a move of ``seat``, or an undo entry) and return its events.

        An undo entry's one event is ``undo`` (``{"to": N, "count": moves
        taken back}``, plus ``agreed`` when others consented), public.

        Raises:
            IllegalMove: the engine refused the move, or an undo entry goes
                back to a position that is not in this log (``undo_target``).
        """
        if is_undo(move):
            to = move.get("to")
            blob = self._saved.get(to) if isinstance(to, int) else None
            if blob is None or (to != 0 and to not in self._live):  # a position since taken back is gone
                raise IllegalMove(
                    f"The undo goes back to move {to!r}, which is not a position of this game.", "undo_target"
                )
            self.state = pickle.loads(blob)  # noqa: S301 - our own copy, made just above
            taken = [s for s in self._live if s > to]
            del self._live[len(self._live) - len(taken) :]
            data: dict[str, Any] = {"to": to, "count": len(taken)}
            if move.get("agreed"):
                data["agreed"] = list(move["agreed"])
            return [Event(UNDO, seat, data)]
        events = self.engine.apply(self.state, seat, move)
        self._live.append(seq)
        if seq in self.targets:
            self._saved[seq] = pickle.dumps(self.state, pickle.HIGHEST_PROTOCOL)
        return events


def barrier_of(
    player: int, events: Iterable[Event], *, turn: frozenset[str], open_kinds: frozenset[str], shared: frozenset[str]
) -> str | None:
    """What a move's events say about taking it back (the shared part of ``Engine.undo_barrier``).

    Args:
        player: the seat that made the move.
        events: the move's events, unfiltered.
        turn: event kinds that end a turn or the game: the move can never be
            taken back (:data:`TURN`).
        open_kinds: event kinds that show nothing hidden when public (a
            play from one's hand, a buy, a gain from the supply).
        shared: those of ``open_kinds`` that may concern another seat and
            still show nothing hidden (a card an attack makes its victim gain from the supply).

    Returns:
        :data:`TURN`, :data:`REVEALED` (a private event, an event kind not in
        ``open_kinds``, or one about another seat that is not ``shared``), or
        None when the move may be taken back freely.
    """
    found = None
    for e in events:
        if e.kind in turn:
            return TURN
        if (
            e.private_to is not None
            or e.kind not in open_kinds
            or (e.player not in (player, None) and e.kind not in shared)
        ):
            found = REVEALED
    return found


#: Why an undo needs the others' consent (``Plan.why``): something hidden was shown, or another player
#: was asked something (answered, or still to answer).
ASKED = "asked"


@dataclass(frozen=True, slots=True)
class Plan:
    """What taking back a player's last move would do.

    Attributes:
        to: the log entry to go back to (the position after it; 0 = the deal).
        count: the moves taken back (the player's last move and every move after it).
        why: "" when the player may do it alone; else :data:`REVEALED` or :data:`ASKED`,
            and only every other player's consent allows it.
    """

    to: int
    count: int
    why: str

    @property
    def free(self) -> bool:
        """True when no consent is needed."""
        return not self.why


def plan(
    engine: Engine,
    state: Any,
    player: int,
    rows: list[tuple[int, int, Any]],
    events: list[tuple[int, Event]],
    *,
    complete: bool,
    pending_at: Callable[[int], list[Any]] | None = None,
    state_at: Callable[[int], Any] | None = None,
) -> Plan:
    """Plan taking back ``player``'s last move of the current turn, with every move made after it.

    Args:
        engine: the game's engine (``turn_player``, ``pending``, ``undo_barrier``).
        state: the position now.
        player: the seat asking.
        rows: the log's last entries ``(seq, seat, move)``, oldest first, through the last one.
        events: ``(seq, Event)`` of the log's last entries, oldest first, unfiltered.
        complete: ``rows`` start at the log's first entry (seq 1), and ``events``
            hold every event of those rows.
        pending_at: the decisions the game waited on after move N (``engine.pending``
            of that position), if the caller can tell: another player's open
            question that was already open before the move taken back was not
            asked since (an attack's answer owed while the attacker plays on,
            in a game whose rules allow it), so it does not need that player's consent.
        state_at: the position after move N, as a fresh copy this function may
            change (a replay, or an unpickled cached snapshot), if the caller
            can tell. With it, a move that answered a question owed outside
            its seat's turn is found (:func:`answers_out_of_turn`) and makes
            the undo impossible (``undo_answer_final``); without it, that
            rule is not checked.

    Returns:
        A :class:`Plan`.

    Raises:
        IllegalMove: nothing may be taken back, with a reason and a code:
            ``undo_not_your_turn``, ``undo_nothing`` (no move of this player in
            this turn), ``undo_turn_over`` (the move ended the turn),
            ``undo_answer_final`` (a move to take back answered a question
            asked outside its player's turn: an answer to another player's
            attack; final once made, even with everyone's consent), or
            ``undo_too_far`` (the log kept in hand does not reach back to it).
    """
    if engine.turn_player(state) != player:
        raise IllegalMove("Only the player whose turn it is can take moves back.", "undo_not_your_turn")
    gone = retracted_seqs((seq, move) for seq, _seat, move in rows)
    live = [(seq, seat, move) for seq, seat, move in rows if not is_undo(move) and seq not in gone]
    mine = [i for i, (_seq, seat, _move) in enumerate(live) if seat == player]
    if not mine:
        raise IllegalMove("You have made no move to take back.", "undo_nothing")
    last = mine[-1]
    if last > 0:
        to = live[last - 1][0]
    elif complete:
        to = 0
    else:
        raise IllegalMove("That move is too far back to take back.", "undo_too_far")
    first_event = events[0][0] if events else None
    # Every event of every move after ``to`` must be in hand (the oldest seq may have lost some).
    if not complete and (first_event is None or first_event > to):
        raise IllegalMove("That move is too far back to take back.", "undo_too_far")
    by_seq: dict[int, list[Event]] = {}
    for seq, e in events:
        by_seq.setdefault(seq, []).append(e)
    why = ""
    for seq, seat, _move in live[last:]:
        barrier = engine.undo_barrier(seat, by_seq.get(seq, []))
        if barrier == TURN:
            raise IllegalMove("Your turn has ended: its moves can no longer be taken back.", "undo_turn_over")
        if seat != player:
            why = why or ASKED
        elif barrier == REVEALED:
            why = REVEALED
    taken = [(seat, move) for _seq, seat, move in live[last:]]
    if state_at is not None and _may_answer(engine, taken) and answers_out_of_turn(engine, state_at(to), taken):
        raise IllegalMove(
            "An answer to a question asked outside its player's turn is final once made: it cannot be taken back.",
            "undo_answer_final",
        )
    others = [d for d in engine.pending(state) if d.player != player] if not why else []
    if others and (pending_at is None or others != [d for d in pending_at(to) if d.player != player]):
        why = ASKED
    return Plan(to=to, count=len(live) - last, why=why)


def _may_answer(engine: Any, moves: list[tuple[int, Any]]) -> bool:
    """False when no move of ``moves`` can be an answer (the engine's ``answer_acts``), so no position is needed."""
    acts = getattr(engine, "answer_acts", None)
    return acts is None or any(isinstance(m, dict) and m.get("act") in acts for _seat, m in moves)


def answers_out_of_turn(engine: Any, state: Any, moves: list[tuple[int, Any]]) -> list[int]:
    """Which of ``moves`` answered a question its seat owed outside its own turn.

    Rule (docs/rules-notes.md, "An answer is final"): at a table, an answer
    to another player's attack (revealing a reaction or not, discarding,
    putting a card back) is final once made: the others have seen its
    effect. A move is such an answer when, in the position just before it,
    the engine waited on its seat for a decision marked ``out_of_turn``.

    Args:
        engine: the game's engine (``pending``, ``apply``).
        state: the position before the first of ``moves``; changed here (pass a copy).
        moves: ``(seat, move)`` in log order, undo entries excluded.

    Returns:
        The indexes in ``moves`` of those answers (empty when none).

    Raises:
        IllegalMove: a move no longer applies (the log does not replay).
    """
    found: list[int] = []
    for i, (seat, move) in enumerate(moves):
        if any(d.player == seat and d.out_of_turn for d in engine.pending(state)):
            found.append(i)
        if i + 1 < len(moves):
            engine.apply(state, seat, move)
    return found
