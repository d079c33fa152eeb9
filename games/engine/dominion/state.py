"""The Dominion game state: plain data, cheap to pickle and copy.

Zones are lists of card names. A deck's **top is the end of its list** so
that drawing is ``list.pop()``; everything that shows a deck (the scenario
runner, the end-of-game view) reverses it to "top first".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.engine.core import Decision, Event, Rng

#: The rules version new games are dealt under; what each version changed
#: is listed in ``engine``'s docstring.
VERSION = 3
#: Every version this code replays and plays, oldest first.
VERSIONS: tuple[int, ...] = (1, 2, 3)


@dataclass(slots=True)
class DominionState:
    """Everything about one Dominion game at one moment.

    Attributes:
        n: number of players (2-4); seat 0 takes the first turn.
        kingdom: the 10 kingdom card names.
        supply: pile name -> cards left, basic piles first.
        trash: the Trash (public).
        hands, decks, discards, plays, asides: per seat; decks top = last.
        turns: turns each seat has completed.
        current: the seat whose turn it is.
        phase: "action" or "buy".
        actions, buys, coins: the current turn's counters.
        bought: a card was bought this turn, so no more Treasures may be played.
        stack: effect frames still to resolve (last = next); each a tuple
            ``(op, *args)`` interpreted by ``engine._OPS``.
        open: decisions asked and not yet all answered (a group answered
            together, e.g. every Militia victim's discard).
        answers: seat -> answer for the open group.
        resume: ``(op, *args)`` run once every open decision is answered.
        scratch: per-effect working data keyed by an id (Thief's trashed cards).
        gone: ids of played cards that left play (a Throne-Roomed Feast).
        next_id: the next play id.
        game_over: set by the end-of-turn check (rules section 9).
        rng: the only randomness.
        record: build events for the log (off for fast simulations).
        events: events of the move being applied (drained by ``apply``).
        moves: how many moves have been applied.
        start_counts: name -> copies at the start (card conservation).
        version: the engine version (rules) the game started with; see
            ``engine.VERSIONS`` for what each changed.
        owed: version 3: answers owed by an attack's victims that the
            attacker does not wait for (``deferral``), each
            ``[Decision, resume]``, at most one per seat.
        reserved: version 3: Curses a Witch will give to victims whose Moat
            answer is still owed (they stay in the pile until then).
        ask_all: version 3 option "hidden reactions": every victim of an
            attack is asked the Moat question and every Bureaucrat victim is
            asked, whatever the hand holds, so whom the game waits on tells
            nothing about a hand (off: only Moat holders are asked, as the
            notation says).
    """

    n: int
    kingdom: list[str]
    supply: dict[str, int]
    trash: list[str]
    hands: list[list[str]]
    decks: list[list[str]]
    discards: list[list[str]]
    plays: list[list[str]]
    asides: list[list[str]]
    turns: list[int]
    rng: Rng
    current: int = 0
    phase: str = "action"
    actions: int = 1
    buys: int = 1
    coins: int = 0
    bought: bool = False
    stack: list[tuple[Any, ...]] = field(default_factory=list)
    open: list[Decision] = field(default_factory=list)
    answers: dict[int, Any] = field(default_factory=dict)
    resume: tuple[Any, ...] | None = None
    scratch: dict[int, list[str]] = field(default_factory=dict)
    gone: list[int] = field(default_factory=list)
    next_id: int = 0
    game_over: bool = False
    record: bool = True
    events: list[Event] = field(default_factory=list)
    moves: int = 0
    start_counts: dict[str, int] = field(default_factory=dict)
    version: int = 1
    owed: list[list[Any]] = field(default_factory=list)
    reserved: int = 0
    ask_all: bool = False

    def __setstate__(self, st: Any) -> None:
        """Unpickle, also a state pickled before states had a ``version``
        (a cached snapshot from then can only be a version-1 game)."""
        slots = st[1] if isinstance(st, tuple) else st
        for name, value in slots.items():
            object.__setattr__(self, name, value)
        if "version" not in slots:
            self.version = 1
        for name, empty in (("owed", list), ("reserved", int), ("ask_all", bool)):
            if name not in slots:  # pickled before version 3 existed
                object.__setattr__(self, name, empty())

    def owned(self, p: int) -> list[str]:
        """Return every card seat ``p`` owns (all its zones), unordered."""
        return self.hands[p] + self.decks[p] + self.discards[p] + self.plays[p] + self.asides[p]

    def card_counts(self) -> dict[str, int]:
        """Return name -> copies in the whole game (supply, trash, every zone).

        Card conservation (rules section 13) says this never changes.
        """
        counts = dict(self.supply)
        for zone in [self.trash, *(self.owned(p) for p in range(self.n))]:
            for c in zone:
                counts[c] = counts.get(c, 0) + 1
        return counts
