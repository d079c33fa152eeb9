"""The state of a Domaine game: plain, picklable data, cheap to copy.

Areas, domains, neutral zones and scores are not in here: they follow from
``board`` (see ``board.Board.derived``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.engine.core import Rng
from games.engine.domaine import rules
from games.engine.domaine.board import Board

SETUP, PLAY, TAKE, OVER = "setup", "play", "take", "over"


@dataclass(slots=True)
class PlayerState:
    """One seat's gold and (secret) hand of card ids."""

    gold: int = rules.START_GOLD
    hand: list[str] = field(default_factory=list)


@dataclass(slots=True)
class State:
    """Everything about a game in progress.

    Attributes:
        n: number of players (seats 0..n-1, in placement order).
        board: terrain, castles, knights, borders.
        players: gold and hand per seat.
        deck: card ids, top card first (secret).
        display: the opportunity display, in the order cards arrived.
        alliances: allied pairs of castle squares, each (smaller, larger).
        turn_player: the seat to move (the placer during setup).
        step: "setup", "play", "take" or "over".
        sold: the card id sold this turn (it may not be taken back), or None.
        last_own_placer: seat that placed the last own castle (moves first).
        turns: turns of play begun so far.
        target: the target score.
        castles_per_player: castles each colour places.
        bonuses: gold bonuses per seat, once the game has ended.
        end: why the game ended ("target" or "cards"), or "".
        rng: the game's randomness (used at the deal).
        seed: the seed the game was dealt from.
        version: the engine version (rules) the game started with; every
            rule that differs between versions reads ``rules`` (below).
    """

    n: int
    board: Board
    players: list[PlayerState]
    deck: list[str]
    display: list[str]
    alliances: list[tuple[int, int]]
    turn_player: int
    step: str
    rng: Rng
    seed: int
    target: int
    castles_per_player: int
    sold: str | None = None
    last_own_placer: int = -1
    turns: int = 0
    bonuses: list[int] = field(default_factory=list)
    end: str = ""
    version: int = 1

    def copy(self) -> State:
        """Return an independent copy (the terrain string is shared, it never changes).

        Built field by field on a bare object rather than through the
        dataclass's keyword ``__init__``: every bot move copies the state
        (``PlayerView``), and the search copies it for each rollout.
        """
        st = State.__new__(State)
        st.n = self.n
        st.board = self.board.copy()
        players = []
        for p in self.players:
            q = PlayerState.__new__(PlayerState)
            q.gold = p.gold
            q.hand = p.hand[:]
            players.append(q)
        st.players = players
        st.deck = self.deck[:]
        st.display = self.display[:]
        st.alliances = self.alliances[:]
        st.turn_player = self.turn_player
        st.step = self.step
        rng = Rng.__new__(Rng)
        rng.seed, rng.counter = self.rng.seed, self.rng.counter
        st.rng = rng
        st.seed = self.seed
        st.target = self.target
        st.castles_per_player = self.castles_per_player
        st.sold = self.sold
        st.last_own_placer = self.last_own_placer
        st.turns = self.turns
        st.bonuses = self.bonuses[:]
        st.end = self.end
        st.version = self.version
        return st

    def __setstate__(self, st: Any) -> None:
        """Unpickle, also a state pickled before states had a ``version``.

        Such a pickle (a cached snapshot from before version 2 existed) can
        only be a version-1 game, so the missing field is read as 1.
        """
        slots = st[1] if isinstance(st, tuple) else st
        for name, value in slots.items():
            object.__setattr__(self, name, value)
        if "version" not in slots:
            self.version = 1

    @property
    def rules(self) -> rules.Ruleset:
        """The rules of this game's engine version (``rules.RULESETS``)."""
        return rules.RULESETS[self.version]

    def key(self) -> tuple[Any, ...]:
        """Return a value that two equal positions share (for replay and atomicity tests).

        Every part is a copy (tuples, bytes), never a live list of the state:
        a key taken before a move must not change with the move, or comparing
        it afterwards would compare the state with itself.
        """
        b = self.board
        return (
            self.n,
            (b.terrain, tuple(b.castle), tuple(b.knight), bytes(b.border), b.borders_on_board),
            tuple((p.gold, tuple(p.hand)) for p in self.players),
            tuple(self.deck),
            tuple(self.display),
            tuple(self.alliances),
            self.turn_player,
            self.step,
            self.sold,
            self.turns,
            tuple(self.bonuses),
            self.end,
            self.version,
        )

    @property
    def over(self) -> bool:
        """True once the game has ended."""
        return self.step == OVER

    def allied(self, c1: int, c2: int) -> bool:
        """True if the castles on squares c1 and c2 are allied."""
        return ((c1, c2) if c1 < c2 else (c2, c1)) in self.alliances

    def scores(self) -> list[int]:
        """Return the score per seat: live from the board, plus gold bonuses
        once the game is over; all 0 during setup (no domains yet)."""
        if self.step == SETUP:
            return [0] * self.n
        live = self.board.derived().scores
        bonus = self.bonuses or [0] * self.n
        return [live[i] + bonus[i] for i in range(self.n)]
