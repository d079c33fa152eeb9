"""Play one game twice: in the rulebook order (version 2) and with deferral (version 3).

Shared by ``test_deferral.py`` (a few thousand short games) and
``bench/deferral_bench.py`` (many more). Each seat plays by a random policy
whose k-th choice depends only on (game seed, seat, k) and on the question
or the legal turn moves, so both runs make the same choices if and only if
every seat faces the same questions and turn moves; a scheduler then lets the
attacker of the deferred run go on while its victims answer at random later
moments. After every turn (and at the end) where nothing is owed, the two
states must be equal.
"""

from __future__ import annotations

import random
from typing import Any

from games.engine.dominion.effects import _single_answer
from games.engine.dominion.engine import ENGINE, new_state, open_decision, turn_open
from games.engine.dominion.state import DominionState

KINGDOMS = [
    # The kingdom.
    ["Militia", "Moat", "Witch", "Bureaucrat", "Spy", "Thief", "Library", "Throne Room", "Market", "Village"],
    # Council Room after attacks, Curses gained and bought, Throne-Roomed attacks.
    ["Council Room", "Witch", "Militia", "Moat", "Bureaucrat", "Workshop", "Feast", "Remodel", "Throne Room", "Chapel"],
    ["Militia", "Moat", "Witch", "Gardens", "Cellar", "Chancellor", "Adventurer", "Mine", "Moneylender", "Festival"],
]


def snapshot(st: DominionState) -> tuple[Any, ...]:
    """Everything the rules can observe, in exact order (discard piles and decks included)."""
    return (
        dict(st.supply),
        list(st.trash),
        [list(z) for z in st.hands],
        [list(z) for z in st.decks],
        [list(z) for z in st.discards],
        [list(z) for z in st.plays],
        [list(z) for z in st.asides],
        list(st.turns),
        st.current,
        st.phase,
        st.actions,
        st.buys,
        st.coins,
        st.bought,
        st.rng.counter,
        st.game_over,
    )


def _policy(st: DominionState, p: int, seed: int, k: int) -> dict[str, Any]:
    """Seat ``p``'s k-th thought-out move: random, from (seed, p, k) and what is legal."""
    rng = random.Random(seed * 1_000_003 + p * 10_007 + k)
    d = open_decision(st, p)
    if d is not None:
        if d.answer == "yes_no":
            return {"act": "yes" if rng.randrange(2) else "no"}
        if d.answer == "gain":
            return {"act": "gain", "card": sorted(d.options)[rng.randrange(len(d.options))]}
        size = d.min + rng.randrange(d.max - d.min + 1)
        return {"act": "choose", "cards": rng.sample(sorted(d.options), size)}
    moves = ENGINE.legal_moves(st, p)
    return moves[rng.randrange(len(moves))]


def _obvious(st: DominionState, p: int) -> dict[str, Any] | None:
    """The answer to a question with one possible answer (asked only with hidden reactions):
    the one the rulebook-order engine takes by itself, so it counts as no choice."""
    d = open_decision(st, p)
    if d is None:
        return None
    if d.answer == "yes_no" and d.options == ["no"]:
        return {"act": "no"}
    if d.answer == "choose":
        only = _single_answer(list(d.options), d.min, d.max)
        if only is not None:
            return {"act": "choose", "cards": only}
    return None


def play(
    players: int, seed: int, kingdom: list[str], deferred: bool, hidden: bool = False, max_turns: int = 40
) -> tuple[dict[tuple[int, ...], tuple[Any, ...]], tuple[Any, ...], int]:
    """Play one game; return (state at each rest point keyed by choices per seat, final state, moves).

    A rest point is a moment when a seat may make a turn move and nothing is
    owed. ``deferred``: version 3 with a scheduler that lets the attacker go
    on; else version 2 in its only order. ``hidden``: version 3's hidden
    reactions (every victim asked).
    """
    st = new_state(players, kingdom, seed, 3 if deferred else 2)
    st.ask_all = hidden
    st.record = False
    sched = random.Random(seed ^ 0x5EED)
    counts = [0] * players
    rests: dict[tuple[int, ...], tuple[Any, ...]] = {}
    moves = 0
    while not st.game_over and sum(st.turns) < max_turns:
        if turn_open(st) and not st.owed:
            rests.setdefault(tuple(counts), snapshot(st))
        seats = list(dict.fromkeys(d.player for d in ENGINE.pending(st)))
        first = seats[0]
        if len(seats) > 1 and (first != st.current or sched.random() < 0.4):
            p = seats[1 + sched.randrange(len(seats) - 1)]  # a victim answers now, the attacker later
        else:
            p = first
        move = _obvious(st, p)
        if move is None:
            move = _policy(st, p, seed, counts[p])
            counts[p] += 1
        ENGINE.apply(st, p, move)
        moves += 1
    while st.owed:  # the turn limit came first: let the victims answer
        p = st.owed[0][0].player
        move = _obvious(st, p)
        if move is None:
            move = _policy(st, p, seed, counts[p])
            counts[p] += 1
        ENGINE.apply(st, p, move)
    return rests, snapshot(st), moves
