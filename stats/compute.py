"""A finished game's numbers, computed by replaying its log through the engine.

No Django here beyond nothing at all: the input is what a game row holds
(kind, engine, options, seed, seat count and the moves in order), the output
a :class:`GameNumbers` of plain lists and dicts, which ``stats.services``
stores as rows (so a page never replays a game to show its charts).

Dominion, per player (seat index ``p``):

* ``series[p][t] = [vp, money, cards]`` after ``p`` completed ``t`` turns
  (``t = 0`` is the deal): victory points as the rules score them now
  (rules section 10, Gardens included), the coins of all the Treasures
  ``p`` owns, and how many cards ``p`` owns (every zone).
* ``first[p][card]``: the turn in which ``p`` first gained ``card``,
  bought or otherwise; a turn is numbered by the turn being played at the
  time (the first player's turn 3 and the others' turn 3 are all "turn 3"),
  so a Curse from a Witch played in turn 5 counts as gained in turn 5.
* ``bought[p][card]``, ``gained[p][card]``: how many copies ``p`` bought,
  and gained without buying (Workshop, Feast, Remodel, Mine, Thief, Witch's
  Curses, Bureaucrat's Silver).
* ``decks[p]``: every card ``p`` owns at the end, with counts.

Domaine, per player: ``series[p][i] = [score, gold, knights]`` at the start
of the game's ``i + 1``-th turn of play (after that turn's income), and one
last point at the end (the score with the end's gold bonuses); ``castles[p]``: ``p``'s
castles that stand in a domain at the end; ``played[p]``: cards ``p`` played,
and ``actions[p][kind]``: how many of those used each action kind
(borders, knights, expand, desertion, alliance).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from games.engine.core import Engine
from games.engine.dominion.cards import COINS, TREASURES
from games.engine.dominion.engine import score as dominion_score
from games.engine.undo import is_undo, retracted_seqs

#: The kinds of game measured (any other kind gets seat rows only).
KINDS = ("dominion", "domaine")


@dataclass(slots=True)
class GameNumbers:
    """What one finished game's log says, per seat (see the module docstring).

    Attributes:
        kind: "dominion" or "domaine".
        players: the number of seats.
        turns: Dominion: the most turns any seat completed; Domaine: turns of play.
        series: per seat, one ``[a, b, c]`` point per turn (the three measures of the game's kind).
        kingdom: Dominion's ten kingdom cards (empty for Domaine).
        first, bought, gained, decks: Dominion, per seat: card -> turn, copies, copies, copies.
        castles, played: Domaine, per seat: castles in domains at the end, cards played.
        actions: Domaine, per seat: action kind -> plays that used it.
    """

    kind: str
    players: int
    turns: int = 0
    series: list[list[list[int]]] = field(default_factory=list)
    kingdom: list[str] = field(default_factory=list)
    first: list[dict[str, int]] = field(default_factory=list)
    bought: list[dict[str, int]] = field(default_factory=list)
    gained: list[dict[str, int]] = field(default_factory=list)
    decks: list[dict[str, int]] = field(default_factory=list)
    castles: list[int] = field(default_factory=list)
    played: list[int] = field(default_factory=list)
    actions: list[dict[str, int]] = field(default_factory=list)

    def as_data(self) -> dict[str, Any]:
        """Return the JSON stored in ``GameStats.data`` (everything but kind and players)."""
        keys = ("series", "kingdom", "first", "bought", "gained", "decks", "castles", "played", "actions")
        return {k: getattr(self, k) for k in keys}


def game_numbers(
    kind: str, engine: Engine, options: dict[str, Any], players: int, seed: int, moves: list[tuple[int, dict]]
) -> GameNumbers:
    """Replay ``moves`` (``(seat, move)`` in log order) from the deal and measure the game.

    Raises:
        games.engine.core.EngineError: a move does not replay (the caller skips such a game).
        ValueError: an unknown kind.
    """
    state = engine.new_game(options, players, seed)
    moves = live_moves(moves)
    if kind == "dominion":
        return _dominion(state, engine, moves)
    if kind == "domaine":
        return _domaine(state, engine, moves)
    raise ValueError(f"no statistics for {kind!r}")


def live_moves(moves: list[tuple[int, dict]]) -> list[tuple[int, dict]]:
    """The moves that stand (``(seat, move)`` in log order): undo entries and the moves they took back dropped.

    A log's seqs are 1, 2, ... in order (append-only), so the n-th entry is move ``n``
    (the numbering an undo entry's ``to`` uses, ``games.engine.undo``).
    """
    gone = retracted_seqs((seq, move) for seq, (_seat, move) in enumerate(moves, 1))
    return [(seat, move) for seq, (seat, move) in enumerate(moves, 1) if seq not in gone and not is_undo(move)]


def _dominion_point(st: Any, p: int) -> list[int]:
    owned = st.owned(p)
    return [dominion_score(st, p), sum(COINS[c] for c in owned if c in TREASURES), len(owned)]


def _dominion(st: Any, engine: Engine, moves: list[tuple[int, dict]]) -> GameNumbers:
    n = st.n
    out = GameNumbers(kind="dominion", players=n, kingdom=list(st.kingdom))
    out.series = [[_dominion_point(st, p)] for p in range(n)]
    first: list[dict[str, int]] = [{} for _ in range(n)]
    bought: list[Counter[str]] = [Counter() for _ in range(n)]
    gained: list[Counter[str]] = [Counter() for _ in range(n)]
    for seat, move in moves:
        turn = st.turns[st.current] + 1  # the turn being played when the move was made
        before = list(st.turns)
        for e in engine.apply(st, seat, move):
            if e.kind in ("buy", "gain") and e.player is not None:
                card = e.data["card"]
                first[e.player].setdefault(card, turn)
                (bought if e.kind == "buy" else gained)[e.player][card] += 1
        for p in range(n):
            if st.turns[p] != before[p]:
                out.series[p].append(_dominion_point(st, p))
    out.turns = max(st.turns)
    out.first = first
    out.bought = [dict(c) for c in bought]
    out.gained = [dict(c) for c in gained]
    out.decks = [dict(Counter(st.owned(p))) for p in range(n)]
    return out


def _domaine_point(st: Any, p: int, scores: list[int]) -> list[int]:
    return [scores[p], st.players[p].gold, sum(1 for k in st.board.knight if k == p)]


def _domaine(st: Any, engine: Engine, moves: list[tuple[int, dict]]) -> GameNumbers:
    n = st.n
    out = GameNumbers(kind="domaine", players=n)
    out.series = [[] for _ in range(n)]
    played = [0] * n
    actions: list[Counter[str]] = [Counter() for _ in range(n)]
    for seat, move in moves:
        for e in engine.apply(st, seat, move):
            if e.kind == "turn":
                scores = st.scores()
                for p in range(n):
                    out.series[p].append(_domaine_point(st, p, scores))
            elif e.kind == "play" and e.player is not None:
                played[e.player] += 1
                actions[e.player][e.data.get("action", "")] += 1
    scores = st.scores()
    for p in range(n):
        out.series[p].append(_domaine_point(st, p, scores))
    derived = st.board.derived()
    out.castles = [sum(1 for d in derived.domains.values() if d.owner == p) for p in range(n)]
    out.turns = st.turns
    out.played = played
    out.actions = [dict(c) for c in actions]
    return out
