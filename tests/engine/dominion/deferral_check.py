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

from games.engine.dominion.effects import _single_answer, curse_buy_waits
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


CURSE_BUY = {"act": "buy", "card": "Curse"}
CURSE_CHANCE = 0.03  # seldom: small Curse piles last until the Witches hand out the last ones

#: Turn moves made while a Curse buy waited for owed Moat answers (version 3), over all games:
#: the tests check that the harness met that case.
HELD = {"moves": 0, "waits": 0}


def _policy(st: DominionState, p: int, seed: int, k: int) -> dict[str, Any] | None:
    """Seat ``p``'s k-th thought-out move: random, from (seed, p, k) and what is legal.

    A turn move is drawn among the moves other than buying a Curse, or else (``CURSE_CHANCE``)
    "a Curse": those moves do not depend on owed answers, the Curse buy may (version 3 holds it
    back while owed Moat answers decide whether a Curse is left). When the draw is "a Curse"
    and the buy waits, ``None``: the seat waits for the answers and draws again, with the same k.
    """
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
    held = st.buys > 0 and curse_buy_waits(st)
    others = [m for m in moves if m != CURSE_BUY]
    pick = rng.randrange(len(others)) if rng.random() >= CURSE_CHANCE else len(others)
    if pick < len(others):
        HELD["moves"] += curse_buy_waits(st)  # a move the turn once waited to make
        return others[pick]
    if CURSE_BUY in moves:
        return CURSE_BUY
    if held:
        HELD["waits"] += 1
        return None
    return others[rng.randrange(len(others))]


def next_move(st: DominionState, p: int, seed: int, counts: list[int]) -> tuple[int, dict[str, Any]]:
    """``(seat, move)``: seat ``p``'s next move, or, if ``p`` waits for owed answers to buy a
    Curse, the next move of the first seat that owes one (``counts``: choices made per seat)."""
    move = _obvious(st, p)
    if move is None:
        move = _policy(st, p, seed, counts[p])
        if move is None:
            return next_move(st, st.owed[0][0].player, seed, counts)
        counts[p] += 1
    return p, move


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
    players: int,
    seed: int,
    kingdom: list[str],
    deferred: bool,
    hidden: bool = False,
    max_turns: int = 40,
    curses: int | None = None,
) -> tuple[dict[tuple[int, ...], tuple[Any, ...]], tuple[Any, ...], int]:
    """Play one game; return (state at each rest point keyed by choices per seat, final state, moves).

    A rest point is a moment when a seat may make a turn move and nothing is
    owed. ``deferred``: version 3 with a scheduler that lets the attacker go
    on; else version 2 in its only order. ``hidden``: version 3's hidden
    reactions (every victim asked). ``curses``: the Curse pile's size, if not the usual (small
    piles make Witches hand out the last Curses while Moat answers are owed).
    """
    st = new_state(players, kingdom, seed, 3 if deferred else 2)
    if curses is not None:
        st.supply["Curse"] = curses
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
        p, move = next_move(st, p, seed, counts)
        ENGINE.apply(st, p, move)
        moves += 1
    while st.owed:  # the turn limit came first: let the victims answer
        p, move = next_move(st, st.owed[0][0].player, seed, counts)
        ENGINE.apply(st, p, move)
    return rests, snapshot(st), moves
