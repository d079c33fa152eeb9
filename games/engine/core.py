"""The interface every Herald rules engine implements, and what engines share.

An engine is pure Python: no Django, no I/O, no clock, no global random.
The site, the bots, the clocks and the tests only ever talk to a game
through an :class:`Engine` object (see ``games.engine.registry``), so a new
game plugs in without a branch anywhere else.

Shape, in the spirit of OpenSpiel's ``State``:

* ``new_game(options, players, seed) -> state``
* ``pending(state) -> list[Decision]``: who must answer what now.
* ``legal_moves(state, player) -> list[dict]``: one source of legality.
* ``check(state, player, move)``: raises :class:`IllegalMove`.
* ``apply(state, player, move) -> list[Event]``: atomic; an illegal move
  raises and leaves the state exactly as it was.
* ``view(state, viewer, reveal_all=False) -> dict``: what that seat
  (``None`` = spectator) may know; after the game ends, or with
  ``reveal_all`` (replays of finished games, moderators), everything.
* ``result(state) -> Result | None``.

Optional, where a game needs it: ``targets(state, player, partial)``
answers which squares, edges or cards may come next in a move being built
(plays made of several parts, one click at a time). For such games ``legal_moves`` may list only
the moves' first parts, since the full set is combinatorial.

Moves are JSON objects in the notation of ``shared/rules/<game>-moves.md``;
the ``player`` key of the notation is passed separately as ``player``.

Versions: a game is its log replayed through the engine, so a stored game
must replay to the same position for as long as the site exists.

* Each engine declares ``version`` (the rules new games are made with) and
  ``versions`` (every version it can still replay *and* play on, oldest
  first). ``registry.get_engine(kind, version)`` returns the engine object
  for one of them; an unknown version raises :class:`UnsupportedVersion`.
* A state made by ``new_game`` remembers its version, and ``pending``,
  ``legal_moves``, ``check``, ``apply`` and ``view`` follow the rules that
  state started with, whichever engine object they are called on.
* Changing a rule (a cost, a legality check, an end condition, anything a
  stored log or a recorded view could notice) is a version bump: add the
  new number to ``versions`` and keep the old behaviour behind a check of
  the state's version (or keep the old code path). Never edit a rule in
  place: that silently changes games already played. Bug fixes are rule
  changes too when a stored log might depend on the bug.
* Pure refactors and speed-ups keep every version's results; the golden
  corpus (``tests/golden``) and the rules vectors prove it.
* A version is dropped from ``versions`` only once no stored game uses it
  (``manage.py check_replays`` says so).
"""

from __future__ import annotations

import math
import random
from _random import Random as _MersenneTwister
from dataclasses import dataclass, field
from typing import Any, Protocol

Move = dict[str, Any]

#: Seat index used for spectators in ``view``.
SPECTATOR: None = None


class EngineError(Exception):
    """Base class of every error an engine raises on purpose."""


class InvalidOptions(EngineError, ValueError):
    """Game options outside the rules (player count, kingdom, ...).

    ``str(err)`` is a sentence a player can read.
    """


class UnsupportedVersion(EngineError, LookupError):
    """An engine version this code cannot replay or play (``registry.get_engine``).

    Attributes:
        kind: the game's kind.
        version: the version asked for.
        supported: the versions the engine has, oldest first.
    """

    def __init__(self, kind: str, version: object, supported: tuple[int, ...]) -> None:
        listed = ", ".join(str(v) for v in supported)
        super().__init__(f"{kind} has no engine version {version!r} (this code has {listed}).")
        self.kind = kind
        self.version = version
        self.supported = supported


class IllegalMove(EngineError):
    """A move the rules do not allow now; the state is unchanged.

    Attributes:
        reason: a sentence, in English, that a player understands
            ("You have no action left to play that card.").
        code: a short machine-readable tag ("no_actions", "not_your_decision")
            that pages and translations can key on.
    """

    def __init__(self, reason: str, code: str = "illegal") -> None:
        super().__init__(reason)
        self.reason = reason
        self.code = code


@dataclass(slots=True)
class Decision:
    """One open question the game waits on.

    Attributes:
        player: the seat that must answer.
        kind: what is asked ("turn", "discard", "trash", "gain", "reveal_moat",
            "yes_no", ...); engines document their kinds.
        prompt: an English sentence for logs and tests; pages translate from
            ``kind``, ``source`` and ``params`` instead.
        options: the legal answers' material: card names (a multiset, for
            choices from a hand), pile names (for gains), ``["yes", "no"]``.
        min, max: how many of ``options`` a ``choose`` answer must name.
        source: the card or rule that asks (a card's name).
        params: extra data for the prompt (``{"limit": 4}``).
        out_of_turn: true when the seat answers outside its own turn
            (an answer to another player's attack): the clock rules treat such
            decisions differently from the turn itself.
        answer: the move that answers it: "move" (any turn move of the
            notation), "choose" (a multiset of ``options``), "gain" (one of
            ``options``), "yes_no"; engines may add their own.
    """

    player: int
    kind: str
    prompt: str
    options: list[str] = field(default_factory=list)
    min: int = 0
    max: int = 0
    source: str = ""
    params: dict[str, Any] = field(default_factory=dict)
    out_of_turn: bool = False
    answer: str = "move"

    def to_dict(self) -> dict[str, Any]:
        """Return the decision as plain JSON-ready data."""
        return {
            "player": self.player,
            "kind": self.kind,
            "prompt": self.prompt,
            "options": list(self.options),
            "min": self.min,
            "max": self.max,
            "source": self.source,
            "params": dict(self.params),
            "out_of_turn": self.out_of_turn,
            "answer": self.answer,
        }


@dataclass(slots=True)
class Event:
    """Something that happened, in language-free form.

    Attributes:
        kind: "draw", "gain", "trash", "play", "buy", "shuffle", ...
        player: the seat it concerns, or ``None`` for the game itself.
        data: details (``{"cards": [...]}``: card names).
        private_to: ``None`` when every viewer may see ``data``; otherwise
            the only seat that may, while everyone else sees ``redacted``.
        redacted: what the other viewers see of a private event
            (``{"count": 2}``), or ``None`` to hide the event from them.
    """

    kind: str
    player: int | None
    data: dict[str, Any] = field(default_factory=dict)
    private_to: int | None = None
    redacted: dict[str, Any] | None = None

    def for_viewer(self, viewer: int | None, reveal_all: bool = False) -> dict[str, Any] | None:
        """Return the event as ``viewer`` may see it, or ``None`` if hidden.

        Args:
            viewer: a seat index, or ``None`` for a spectator.
            reveal_all: true once the game is over and nothing is secret.
        """
        if self.private_to is None or reveal_all or viewer == self.private_to:
            return {"kind": self.kind, "player": self.player, **self.data}
        if self.redacted is None:
            return None
        return {"kind": self.kind, "player": self.player, **self.redacted}

    def to_dict(self) -> dict[str, Any]:
        """Return the full event (for storage; never send it to a viewer)."""
        return {
            "kind": self.kind,
            "player": self.player,
            "data": self.data,
            "private_to": self.private_to,
            "redacted": self.redacted,
        }


@dataclass(slots=True)
class Result:
    """The outcome of a finished game.

    Attributes:
        scores: final score per seat (index = seat).
        ranks: 1-based finishing rank per seat; tied seats share a rank.
        winners: seats ranked 1.
        details: game-specific extras (turns taken, tie-break values).
    """

    scores: list[int]
    ranks: list[int]
    winners: list[int]
    details: dict[str, Any] = field(default_factory=dict)


def ranks_from_keys(keys: list[tuple[Any, ...]]) -> list[int]:
    """Rank seats by a sort key, higher keys first; equal keys share a rank.

    ``keys[i]`` is seat i's key, e.g. ``(score, -turns)``. Returns the
    1-based competition ranks ("1, 1, 3").
    """
    order = sorted(range(len(keys)), key=lambda i: keys[i], reverse=True)
    ranks = [0] * len(keys)
    for pos, seat in enumerate(order):
        if pos and keys[seat] == keys[order[pos - 1]]:
            ranks[seat] = ranks[order[pos - 1]]
        else:
            ranks[seat] = pos + 1
    return ranks


class Rng:
    """The game's only source of randomness, held in the state.

    Each draw uses a generator derived from ``(seed, counter)``, so one new
    draw never shifts any later one's sequence except by its position, the
    same seed and draws give the same results in every process (no hash
    randomisation is involved), and the object pickles as two integers.
    """

    __slots__ = ("seed", "counter")

    def __init__(self, seed: int, counter: int = 0) -> None:
        if not isinstance(seed, int) or seed < 0:
            raise InvalidOptions("The seed must be a non-negative integer.")
        self.seed = seed
        self.counter = counter

    def _next(self) -> random.Random:
        self.counter += 1
        return random.Random((self.seed << 24) ^ self.counter)

    def shuffle(self, items: list[Any]) -> None:
        """Shuffle ``items`` in place.

        The same draws and swaps as ``random.Random(...).shuffle`` (Fisher-Yates
        from the last item down, each index drawn by rejection from
        ``getrandbits``), written out here because a simulated game shuffles
        often and the library's method call per item, and its Python-level
        seeding, were a tenth of the game's time. The generator seeded with
        the same number is the same Mersenne Twister (``tests/engine/test_rng.py``
        compares both on many seeds and lengths).
        """
        self.counter += 1
        getrandbits = _MersenneTwister((self.seed << 24) ^ self.counter).getrandbits
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            k = n.bit_length()
            j = getrandbits(k)
            while j >= n:
                j = getrandbits(k)
            items[i], items[j] = items[j], items[i]

    def randrange(self, n: int) -> int:
        """Return an integer in ``[0, n)``."""
        return self._next().randrange(n)

    def sample(self, items: list[Any], k: int) -> list[Any]:
        """Return ``k`` distinct items of ``items`` in random order."""
        return self._next().sample(items, k)

    def __getstate__(self) -> tuple[int, int]:
        return (self.seed, self.counter)

    def __setstate__(self, st: tuple[int, int]) -> None:
        self.seed, self.counter = st

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rng) and (self.seed, self.counter) == (other.seed, other.counter)

    def __repr__(self) -> str:
        return f"Rng(seed={self.seed}, counter={self.counter})"


class VersionedEngine:
    """What both engines share about versions: one engine object per rules version, looked up by number.

    A subclass sets ``kind``, ``version``, ``versions`` and, once its engines
    exist, ``by_version`` (version -> engine).
    """

    kind: str
    version: int
    versions: tuple[int, ...]
    by_version: dict[int, Any] = {}

    def at_version(self, version: int) -> Any:
        """Return the engine for rules ``version`` (see :class:`Engine`).

        Raises:
            UnsupportedVersion: not one of ``versions``.
        """
        if version == self.version:
            return self
        try:
            return self.by_version[version]
        except (KeyError, TypeError):
            raise UnsupportedVersion(self.kind, version, self.versions) from None


class Engine(Protocol):
    """What every game engine provides; see the module docstring.

    ``kind`` names the game (its ``Game.kind``); ``version`` is stored with each
    game so recorded logs are replayed by the engine they were made with;
    ``versions`` lists every version this code can still replay and play
    (see "Versions" in the module docstring), and ``at_version(v)`` returns
    the engine object whose ``new_game`` makes version-``v`` games.
    ``bots`` maps a bot name to a function ``(view, rng) -> move`` where
    ``view`` is what ``player_view`` returns for the bot's seat.
    """

    kind: str
    version: int
    versions: tuple[int, ...]
    min_players: int
    max_players: int
    bots: dict[str, Any]

    def at_version(self, version: int) -> Engine:
        """The engine for rules ``version`` (one of ``versions``); raises :class:`UnsupportedVersion`."""
        ...

    def new_game(self, options: dict[str, Any], players: int, seed: int) -> Any: ...

    def canonical_move(self, move: Any) -> Move:
        """``move`` (anything a client sent, without ``player``) in its canonical form: only the parts
        its act uses, with their types, each written one way; a canonical move comes back equal.

        Not a rule: replays never call it, so it may refuse more than ``apply``
        but never changes what an accepted move means. See :func:`canonical_move`.

        Raises:
            IllegalMove: a part the act does not have, a missing one, or a value of the wrong type.
        """
        ...

    def pending(self, state: Any) -> list[Decision]: ...

    def legal_moves(self, state: Any, player: int) -> list[Move]: ...

    def forced_move(self, state: Any) -> tuple[int, Move] | None:
        """``(player, move)`` when the game waits on one player who has exactly one legal move, else None.

        A move that needs no thought (ending a turn once nothing is left to do in it).
        The engine never makes it by itself: the notation leaves that to the
        user interface, so the site makes it for the player and logs it like
        any other move.
        """
        ...

    def check(self, state: Any, player: int, move: Move) -> None: ...

    def apply(self, state: Any, player: int, move: Move) -> list[Event]: ...

    def view(self, state: Any, viewer: int | None, reveal_all: bool = False) -> dict[str, Any]: ...

    def player_view(self, state: Any, player: int) -> Any: ...

    def result(self, state: Any) -> Result | None: ...

    def is_over(self, state: Any) -> bool: ...

    def turn_player(self, state: Any) -> int | None:
        """The seat whose turn it is, or None (set-up, game over): only that seat may take moves back."""
        ...

    def undo_barrier(self, player: int, events: list[Event]) -> str | None:
        """Whether ``player``'s move that produced ``events`` may be taken back freely.

        None: it showed nothing hidden; ``"revealed"``: it did (a draw, a
        shuffle, a reveal); ``"turn"``: it ended a turn. See ``games.engine.undo``.
        """
        ...

    def normalize_options(self, options: dict[str, Any], players: int, seed: int) -> dict[str, Any]: ...


def canonical_move(engine: Any, move: Any) -> Move:
    """The form in which the site stores ``move`` in a game's log (and passes it to ``apply``).

    A game's log is its truth forever, so it holds only what each move
    means: the engine's ``canonical_move`` when it has one (both games do),
    else the move as given (the site's own test engine). Applied to every
    move on the way in (people, bots, timeouts, standing answers, moves
    that need no thought: ``games.moves``), never in a replay, so stored
    games replay unchanged.

    Raises:
        IllegalMove: the engine refused the move's shape (its reason and code); nothing is changed.
    """
    own = getattr(engine, "canonical_move", None)
    if own is not None:
        canonical: dict[str, Any] = own(move)
        return canonical
    if not isinstance(move, dict):
        raise IllegalMove("A move is an object with an 'act'.", "malformed")
    return dict(move)


def move_basis(engine: Any, state: Any, player: int, move: Any) -> Any:
    """What ``player``'s ``move`` depends on in ``state``: JSON data, equal when nothing the move rests on changed.

    The site applies a move made on a page older than the game's last move
    when this is the same for the page's position and now
    (``games.crossing``). An engine may say precisely what its moves rest
    on with its own ``move_basis(state, player, move)`` (for instance the
    seat's own cards and turn, not the card a victim of its attack just gained);
    otherwise it is the seat's open decisions and everything the seat sees
    (``view``), so any visible change refuses the crossing move. Pure: the
    state is not changed. ``move`` may be anything a client sent (not yet
    checked).
    """
    own = getattr(engine, "move_basis", None)
    if own is not None:
        return own(state, player, move)
    return {
        "decisions": [d.to_dict() for d in engine.pending(state) if d.player == player],
        "view": engine.view(state, player),
    }


def automatic_move(
    engine: Any, state: Any, standing: dict[int, Any], *, forced: bool = True
) -> tuple[int, Move, bool] | None:
    """The next move the site makes without asking anyone, or None.

    Shared by the site's move path (``games.moves``) and ``bench/waits.py``,
    so what is measured is what players get. First a move that needs no
    thought (``engine.forced_move``); else, for each pending decision in
    order, the standing answer of its seat (``engine.standing_move``, for
    engines that have standing answers) when ``standing`` has settings for
    that seat.

    Args:
        engine: the game's engine.
        state: the state now (not changed here).
        standing: seat -> that seat's standing-answer settings (JSON data).
        forced: False while the move that needs no thought waits (the site's
            grace before End turn): only standing answers are made then.

    Returns:
        ``(seat, move, is_standing_answer)`` or None.
    """
    if forced:
        move = engine.forced_move(state)
        if move is not None:
            return move[0], move[1], False
    answer = getattr(engine, "standing_move", None)
    if answer is None or not standing:
        return None
    for d in engine.pending(state):
        if d.player in standing:
            move = answer(state, d.player, standing[d.player])
            if move is not None:
                return d.player, move, True
    return None


def mean(xs: list[float]) -> float:
    """The mean of ``xs`` (0.0 for none): the search bots' estimate of a move's value."""
    return sum(xs) / len(xs) if xs else 0.0


def stderr(xs: list[float]) -> float:
    """The standard error of the mean of ``xs`` (infinite for fewer than two), by the sample variance."""
    k = len(xs)
    if k < 2:
        return math.inf
    m = mean(xs)
    return math.sqrt(sum((x - m) ** 2 for x in xs) / (k - 1) / k)
