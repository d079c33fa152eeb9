"""Computer players for Domaine.

Each bot is a function ``(view, rng) -> move``: ``view`` is the
``engine.PlayerView`` of the bot's seat (a state copy whose secrets are
replaced by placeholders), ``rng`` a ``core.Rng`` or ``random.Random``
owned by the caller (only ``randrange`` is used). A bot is asked only when
its seat has the move, and returns one legal move.

* ``random``: picks uniformly among the legal choices of card use (each
  sale, each affordable card and option), then fills the play's parts with
  uniformly random legal targets, as many as the card allows; takes from
  the deck at least half the time (so that random games end).
* ``greedy``: the play or sale that most improves its score minus the best
  opponent's score, counting gold spent or earned at a fixed rate; a
  border play that does not close a domain yet is valued by its progress
  towards the best enclosure (a rectangle around one of its castles) it
  can still make. Setup: castles near villages, mines, forests and the rim,
  away from other castles; neutral castles near the opponent's.
* ``level1``..``level5``: the levels offered to players (``LEVELS``),
  beginner to expert: random, a greedy bot that errs, greedy, and
  ``search.SearchBot`` at two budgets.
"""

from __future__ import annotations

import heapq
import random
from typing import Any, TypeVar

from games.engine.domaine import actions as A
from games.engine.domaine import rules
from games.engine.domaine.board import (
    ADJ,
    EDGE_NAME,
    EDGES,
    NEDGES,
    NEIGHBOURS,
    NSQ,
    SQ_NAME,
    Board,
    Derived,
    _joined_around,
    parse_square,
    parts_without,
)
from games.engine.domaine.cards import ALLIANCE, BORDERS, CARDS, DESERTION, EXPAND, KNIGHTS, Card
from games.engine.domaine.engine import PlayerView, legal_moves, setup_colour
from games.engine.domaine.search import SearchBot
from games.engine.domaine.state import SETUP, TAKE, State

Move = dict[str, Any]
N = rules.SIZE


_T = TypeVar("_T")


def _pick(rng: random.Random, items: list[_T]) -> _T:
    return items[rng.randrange(len(items))]


# --- random ------------------------------------------------------------------------


def random_bot(view: PlayerView, rng: Any) -> Move:
    """A random legal move (see module docstring)."""
    st, me = view.state, view.player
    if st.step == SETUP:
        return _pick(rng, legal_moves(st, me))
    if st.step == TAKE:
        if rng.randrange(2) == 0:
            return {"act": "take", "from": "deck"}
        return _pick(rng, legal_moves(st, me))
    p = st.players[me]
    uses: list[tuple[str, str, int]] = [("sell", c, 0) for c in sorted(set(p.hand))]
    for c in sorted(set(p.hand)):
        card = CARDS[c]
        if card.cost <= p.gold:
            uses.extend(("play", c, i) for i in range(len(card.actions)))
    act, cid, option = _pick(rng, uses)
    if act == "sell":
        return {"act": "sell", "card": cid}
    return random_play(st, me, CARDS[cid], option, rng)


def random_play(st: State, me: int, card: Card, option: int, rng: Any) -> Move:
    """Return a play of ``card`` with uniformly random legal parts, as many as allowed."""
    action = card.actions[option]
    move: Move = {"act": "play", "card": card.id, "option": option}
    board = st.board.copy()
    gold_left = st.players[me].gold - card.cost
    if action.kind == BORDERS:
        chosen = []
        for _ in range(action.n):
            edges = A.legal_border_edges(board)
            if not edges:
                break
            e = _pick(rng, edges)
            board.add_border(e)
            chosen.append(EDGE_NAME[e])
        move["borders"] = chosen
    elif action.kind == KNIGHTS:
        chosen = []
        for _ in range(action.n):
            squares = A.knight_squares(board, me, gold_left)
            if not squares:
                break
            s = _pick(rng, squares)
            gold_left -= A.surcharge(board, s)
            board.set_knight(s, me)
            chosen.append(SQ_NAME[s])
        move["knights"] = chosen
    elif action.kind == EXPAND:
        domains = A.own_domains(board, me)
        if domains:
            c = _pick(rng, domains)
            chosen = []
            for _ in range(action.n):
                squares = A.expand_squares(board, st.alliances, me, c)
                if not squares:
                    break
                s = _pick(rng, squares)
                A.take_square(board, c, s)
                chosen.append(SQ_NAME[s])
            move.update({"domain": SQ_NAME[c], "squares": chosen})
    elif action.kind == DESERTION:
        pairs = [
            (r, k)
            for r in A.desertion_removals(board, me, st.rules)
            for k in A.desertion_squares(board, me, r, gold_left, st.rules)
        ]
        if pairs:
            r, k = _pick(rng, pairs)
            move.update({"remove": SQ_NAME[r], "knight": SQ_NAME[k]})
    elif action.kind == ALLIANCE:
        pairs = [(c, w) for c in A.own_domains(board, me) for w in A.alliance_partners(board, st.alliances, me, c)]
        if pairs:
            c, w = _pick(rng, pairs)
            move.update({"domain": SQ_NAME[c], "with": SQ_NAME[w]})
    return move


# --- greedy: shared judgement --------------------------------------------------------

#: Points one gold is worth to the greedy bot (cards cost gold, sales earn it).
GOLD_VALUE = 0.5
#: A display card is taken only if playing it would be worth this much now.
TAKE_THRESHOLD = 1.0
#: Cards the bot likes less than this are never taken from the display.
TAKE_MIN_CARD_VALUE = 1.0
#: Share of an enclosure's value credited per border placed towards it.
PROGRESS_WEIGHT = 0.6
#: Value of a mine square when planning an enclosure (income, majority hopes).
MINE_PLAN_VALUE = 1.5
#: Largest enclosure side the planner considers.
PLAN_MAX_SIDE = 5
#: Value of a knight placed in a domain that touches another colour's domain / elsewhere useful.
KNIGHT_FRONT_VALUE = 1.0
KNIGHT_VALUE = 0.5

_PLAN_POINTS = {**rules.SQUARE_POINTS, **dict.fromkeys(rules.MINES, MINE_PLAN_VALUE)}


def _rectangles() -> tuple[list[tuple[frozenset[int], frozenset[int]]], list[list[int]]]:
    """Every rectangle of the board with sides up to PLAN_MAX_SIDE: (squares,
    edges on its perimeter that are not the rim), and per square the
    rectangles that hold it."""
    rects: list[tuple[frozenset[int], frozenset[int]]] = []
    at: list[list[int]] = [[] for _ in range(NSQ)]
    for w in range(1, PLAN_MAX_SIDE + 1):
        for h in range(1, PLAN_MAX_SIDE + 1):
            for c0 in range(N - w + 1):
                for r0 in range(N - h + 1):
                    sq = frozenset(c * N + r for c in range(c0, c0 + w) for r in range(r0, r0 + h))
                    per = frozenset(e for s in sq for t, e in ADJ[s] if t not in sq)
                    k = len(rects)
                    rects.append((sq, per))
                    for s in sq:
                        at[s].append(k)
    return rects, at


_RECTS, _RECTS_AT = _rectangles()


def _bits(items: Any) -> int:
    """A set of small numbers (squares, edges) as an int bit mask."""
    out = 0
    for i in items:
        out |= 1 << i
    return out


def _rect_corners(k: int) -> tuple[int, int, int, int]:
    """Indices into a ``_prefix_sums`` table of rectangle k's four corners:
    (after its last column and row, before its first column and after its
    last row, after its last column and before its first row, before both)."""
    sq = _RECTS[k][0]
    c0, c1, r0, r1 = min(sq) // N, max(sq) // N + 1, min(sq) % N, max(sq) % N + 1
    w = N + 1
    return c1 * w + r1, c0 * w + r1, c1 * w + r0, c0 * w + r0


#: Per square, the rectangles that hold it as (k, squares mask with the
#: perimeter mask shifted above them, perimeter mask, perimeter size, its
#: ``_rect_corners``): ``plans`` tests a rectangle's squares and perimeter
#: with one int AND instead of two set intersections (same answers, a
#: fraction of the time) and reads its value off four prefix sums.
_RECT_MASKS_AT: list[list[tuple[int, int, int, int, tuple[int, int, int, int]]]] = [
    [
        (k, _bits(_RECTS[k][0]) | _bits(_RECTS[k][1]) << NSQ, _bits(_RECTS[k][1]), len(_RECTS[k][1]), _rect_corners(k))
        for k in _RECTS_AT[s]
    ]
    for s in range(NSQ)
]

_PREFIX: dict[str, list[float]] = {}


def _prefix_sums(terrain: str) -> list[float]:
    """Per board, ``pre[c * 13 + r]``: the plan points of the squares in the
    columns before c and the rows before r (memoised: the terrain never changes in a game)."""
    got = _PREFIX.get(terrain)
    if got is None:
        if len(_PREFIX) > 64:
            _PREFIX.clear()
        w = N + 1
        got = [0.0] * (w * w)
        for c in range(N):
            for r in range(N):
                got[(c + 1) * w + r + 1] = (
                    got[c * w + r + 1] + got[(c + 1) * w + r] - got[c * w + r] + _PLAN_POINTS[terrain[c * N + r]]
                )
        # Kept only once whole: the CPU budget (games.botbudget) may stop a move anywhere in the loop above.
        _PREFIX[terrain] = got
    return got


def score_diff(board: Board, me: int, n: int) -> int:
    """Return my live score minus the best opponent's."""
    sc = board.derived().scores
    # The others' scores sliced out in C: max over the same numbers as a loop skipping ``me``.
    return sc[me] - max(sc[:me] + sc[me + 1 : n])


def expansion_diff(board: Board, me: int, n: int, castle: int, s: int) -> int:
    """Return ``score_diff`` after the domain of ``castle`` takes ``s`` (legal).

    Computed from the current scores when what is left of the square's old
    area holds together, or holds no castle (the usual cases: then only the
    square's own points and mine counts move); otherwise by working out the
    parts the old area falls into (``_split_scores``), as a copy of the board
    with the expansion played would score them.
    """
    return expansion_diffs(board, me, n, castle, [s])[0]


def expansion_diffs(board: Board, me: int, n: int, castle: int, squares: list[int]) -> list[int]:
    """``expansion_diff`` for each of ``squares`` (each legal on its own), in order.

    One call per listing: what every square reads (the derived facts, the
    scores, the mine counts) is looked up once."""
    d = board.derived()
    label = d.label
    castles = d.castles
    border = board.border
    terrain = board.terrain
    domain_at = d.domain_at
    base_scores = d.scores
    mines = d.mines
    mine_me = mines[me]
    points = rules.SQUARE_POINTS
    majority, bonus = rules.MINE_MAJORITY, rules.MINE_MAJORITY_POINTS
    others_best = max(base_scores[:me] + base_scores[me + 1 : n])
    out = []
    for s in squares:
        old = label[s]
        if castles[old]:
            # An area without castles scores nothing whole or in parts: no need to look for a split.
            touching = [t for t, e in ADJ[s] if label[t] == old and not border[e]]
            if len(touching) > 1 and not _joined_around(border, label, old, s, touching):
                parts = parts_without(border, label, old, d.areas[old], s, touching)
                if parts is not None:
                    scores = _split_scores(board, d, board.castle[castle], s, parts)
                    out.append(scores[me] - max(scores[:me] + scores[me + 1 : n]))
                    continue
        t = terrain[s]
        pts = points[t]
        gain = pts + bonus if t in mine_me and mine_me[t] + 1 == majority else pts
        other = domain_at[s]
        if other < 0:
            # Open land or a neutral zone: only my score moves, the others' best stays.
            out.append(base_scores[me] + gain - others_best)
            continue
        scores = base_scores[:]
        scores[me] += gain
        o = d.domains[other].owner
        scores[o] -= pts
        if t in mines[o] and mines[o][t] == majority:
            scores[o] -= bonus
        out.append(scores[me] - max(scores[:me] + scores[me + 1 : n]))
    return out


def _split_scores(board: Board, d: Derived, owner: int, s: int, parts: list[list[int]]) -> list[int]:
    """Scores per colour after a domain of ``owner`` takes ``s``, whose old area
    (with castles) falls into ``parts`` without it (``board.parts_without``).

    The old area stops counting for its owner if it was a domain; each part
    holding just one castle counts for that castle's owner (parts without
    castles score nothing); ``s`` counts for ``owner``; mine majorities are
    then counted again for the colours whose mines moved. The same sums as
    ``Derived`` on a board with the expansion played, without copying and
    re-deriving the board.
    """
    old = d.label[s]
    terrain = board.terrain
    castle = board.castle
    pts = rules.SQUARE_POINTS
    scores = d.scores[:]
    moved: dict[int, dict[str, int]] = {}

    def count(colour: int, squares: list[int], sign: int) -> None:
        mc = moved.get(colour)
        if mc is None:
            mc = moved[colour] = dict(d.mines[colour])
        for q in squares:
            t = terrain[q]
            scores[colour] += sign * pts[t]
            if t in mc:
                mc[t] += sign

    count(owner, [s], 1)
    cs = d.castles[old]
    if len(cs) == 1:
        count(castle[cs[0]], d.areas[old], -1)
    # Each castle of the old area is in one part: look for them in all parts but the largest,
    # whose castles are then the others (the largest part is usually most of the area).
    parts = sorted(parts, key=len)
    rest = set(cs)
    for part in parts[:-1]:
        held = [q for q in part if castle[q] >= 0]
        rest.difference_update(held)
        if len(held) == 1:
            count(castle[held[0]], part, 1)
    if parts and len(rest) == 1:
        count(castle[rest.pop()], parts[-1], 1)
    for colour, mc in moved.items():
        before = sum(1 for m in rules.MINES if d.mines[colour][m] >= rules.MINE_MAJORITY)
        after = sum(1 for m in rules.MINES if mc[m] >= rules.MINE_MAJORITY)
        scores[colour] += (after - before) * rules.MINE_MAJORITY_POINTS
    return scores


def plans(st: State, me: int, limit: int = 4) -> list[tuple[float, list[int], frozenset[int]]]:
    """Return the best enclosures ``me`` can still make around its castles
    that are not yet domains: (priority, borders still needed, squares),
    best first. An enclosure is a rectangle holding exactly one castle (the
    bot's), no square of any domain, and whose missing borders are all legal
    now; its priority is its value per border still needed."""
    board = st.board
    d = board.derived()
    border = board.border
    bordered_mask = A.edge_mask(border)
    # Free edges where no border may go now: an enclosure needing one is out of reach.
    illegal = A.ALL_EDGES_MASK & ~bordered_mask & ~A.legal_border_mask(board)
    castle = board.castle
    domain_at = d.domain_at
    got = d.cache.get("plan_blocked")
    if got is None:
        # Castles and domains change only with the Derived facts: work them out once per Derived.
        castles = board.castle_squares()
        got = d.cache["plan_blocked"] = (castles, _bits(castles) | _square_mask(domain_at))
    castles, blocked = got
    pre = _prefix_sums(board.terrain)
    out = []
    for c in castles:
        if castle[c] != me or domain_at[c] == c:
            continue
        # c is in no domain (it would be its own), so it is blocked only as a castle.
        # Squares and edges in one mask (edges above bit NSQ): one AND tests both.
        bad = (blocked & ~(1 << c)) | illegal << NSQ
        for k, both, per_mask, per_len, (i11, i01, i10, i00) in _RECT_MASKS_AT[c]:
            if bad & both:
                continue
            need = per_len - (per_mask & bordered_mask).bit_count()
            if not need:
                continue
            # The rectangle's plan value off the prefix sums: plan values are multiples of 0.5,
            # so the float sums are exact and equal the square-by-square sum.
            value = pre[i11] - pre[i01] - pre[i10] + pre[i00]
            out.append((value / (need + 2), -k, value, k))
    return [
        (v, sorted(e for e in _RECTS[k][1] if not border[e]), _RECTS[k][0]) for _, _, v, k in heapq.nlargest(limit, out)
    ]


def _square_mask(domain_at: list[int]) -> int:
    """The squares in a domain (``domain_at`` >= 0) as an int bit mask, built in C."""
    return int(bytes(map((-1).__lt__, reversed(domain_at))).translate(A.BIT_DIGITS), 2)


_ALL_EDGES = frozenset(range(NEDGES))
_ALL_EDGES_MASK = A.ALL_EDGES_MASK
_edge_mask = A.edge_mask


# --- greedy: the bot -------------------------------------------------------------------


def greedy_bot(view: PlayerView, rng: Any) -> Move:
    """The greedy move (see module docstring)."""
    st, me = view.state, view.player
    if st.step == SETUP:
        return greedy_setup(st, me)
    if st.step == TAKE:
        return greedy_take(st, me)
    return greedy_play(st, me)


_NEAR_VALUES: dict[str, list[float | None]] = {}


def _near_value(board: Board, s: int) -> float:
    """How good the land around ``s`` is for a castle (terrain only, so memoised per board)."""
    memo = _NEAR_VALUES.get(board.terrain)
    if memo is None:
        if len(_NEAR_VALUES) > 64:
            _NEAR_VALUES.clear()
        memo = _NEAR_VALUES[board.terrain] = [None] * NSQ
    v = memo[s]
    if v is None:
        v = memo[s] = _near_value_of(board, s)
    return v


def _near_value_of(board: Board, s: int) -> float:
    sc, sr = divmod(s, N)
    v = 0.0
    for dc in range(-2, 3):
        for dr in range(-2 + abs(dc), 3 - abs(dc)):
            c, r = sc + dc, sr + dr
            if 0 <= c < N and 0 <= r < N:
                v += _PLAN_POINTS[board.terrain[c * N + r]] / (1 + abs(dc) + abs(dr))
    # Squares near the rim need fewer borders to close.
    rim = min(sc, N - 1 - sc) + min(sr, N - 1 - sr)
    v += max(0, 4 - rim) * 0.8
    return v


def _castle_crowding(castles: list[int], s: int) -> float:
    """Penalty for standing near other castles (they would share the area)."""
    sc, sr = divmod(s, N)
    pen = 0.0
    for c in castles:
        cc, cr = divmod(c, N)
        dist = abs(cc - sc) + abs(cr - sr)
        if dist < 5:
            pen += (5 - dist) * 1.5
    return pen


def greedy_setup(st: State, me: int) -> Move:
    """Place a castle where villages, mines and forests are near and other
    castles far; its knight on a meadow if one is next to it. Neutral
    castles go near the opponents' castles and away from the bot's.

    Walks the placements in ``legal_moves``' order (castle squares, then each
    one's knight squares in square order) and keeps the first best, as
    ``max`` over that list would, without building a move for each."""
    board = st.board
    rs = st.rules
    if st.step != SETUP or me != st.turn_player:
        return _greedy_setup_listed(st, me)
    colour = setup_colour(st)
    if colour == rules.NEUTRAL:
        squares = A.setup_castle_squares(board, colour, None, rs)
        if not squares:
            return _greedy_setup_listed(st, me)
        return {"act": "place_neutral", "at": SQ_NAME[max(squares, key=_neutral_key(board, me))]}
    gold = st.players[me].gold
    castles = list(board.castle_squares())
    terrain = board.terrain
    best: tuple[tuple[float, int], int, int] | None = None
    for s in A.setup_castle_squares(board, colour, gold, rs):
        v = _near_value(board, s) - _castle_crowding(castles, s)
        for k in sorted(NEIGHBOURS[s]):
            if A.setup_knight_refusal(board, s, k, gold, rs) is None:
                # Best castle square first, then a meadow (free) for its knight.
                value = (v, -(terrain[k] == rules.FOREST))
                if best is None or value > best[0]:
                    best = (value, s, k)
    if best is None:
        return _greedy_setup_listed(st, me)
    return {"act": "place_castle", "at": SQ_NAME[best[1]], "knight": SQ_NAME[best[2]]}


def _neutral_key(board: Board, me: int) -> Any:
    """The neutral castle's value per square: near the opponents' castles, away from the bot's own."""
    # The players' castles, found once rather than once per candidate square.
    placed = [(divmod(c, N), -1 if col == me else 1) for c, col in enumerate(board.castle) if 0 <= col < rules.NEUTRAL]

    def neutral_key(s: int) -> float:
        sc, sr = divmod(s, N)
        v = 0.0
        for (cc, cr), sign in placed:
            dist = abs(cc - sc) + abs(cr - sr)
            v += sign * max(0, 6 - dist)
        return v

    return neutral_key


def _greedy_setup_listed(st: State, me: int) -> Move:
    """``greedy_setup`` over the list of ``legal_moves`` (when the walk above finds no placement)."""
    moves = legal_moves(st, me)
    board = st.board
    if moves and moves[0]["act"] == "place_neutral":
        neutral = _neutral_key(board, me)
        return max(moves, key=lambda m: neutral(parse_square(m["at"])))
    best: dict[str, float] = {}
    castles = [c for c, col in enumerate(board.castle) if col >= 0]
    for m in moves:
        if m["at"] not in best:
            s = parse_square(m["at"])
            best[m["at"]] = _near_value(board, s) - _castle_crowding(castles, s)

    def key(m: Move) -> tuple[float, float]:
        """Best castle square first, then a meadow (free) for its knight."""
        k = parse_square(m["knight"])
        forest = board.terrain[k] == rules.FOREST
        return (best[m["at"]], -forest)

    return max(moves, key=key)


def card_value(card: Card) -> float:
    """How much the greedy bot likes to hold ``card`` (for takes and sales).

    Memoised per card (the bot asks it for every card in hand and display
    on every turn): a pure function of the card and this module's weights."""
    v = _CARD_VALUES.get(card)
    if v is None:
        v = 0.0
        for a in card.actions:
            v = max(v, {BORDERS: 0.9 * a.n, KNIGHTS: 1.0 * a.n, EXPAND: 4.0, DESERTION: 1.5, ALLIANCE: 0.5}[a.kind])
        v = _CARD_VALUES[card] = v - card.cost * GOLD_VALUE * 0.5
    return v


_CARD_VALUES: dict[Card, float] = {}


def greedy_take(st: State, me: int) -> Move:
    """Take a display card only if the bot could play it now with a clear
    gain (so that two greedy bots never pass the same cards back and forth
    and the deck keeps shrinking); otherwise draw from the deck."""
    options = sorted(c for c in set(st.display) if st.display.count(c) - (1 if c == st.sold else 0) > 0)
    best_v, best_c = TAKE_THRESHOLD, None
    if options:
        base = score_diff(st.board, me, st.n)
        gv = gold_value(st.players[me].gold)
        cache: list[Any] = []
        for c in options:
            card = CARDS[c]
            # Weak cards are not worth a take over a draw (later letters are stronger).
            if card.cost > st.players[me].gold or card_value(card) < TAKE_MIN_CARD_VALUE:
                continue
            for option in range(len(card.actions)):
                got = _best_action(st, me, card, option, base, cache)
                if got is not None:
                    v = got[0] - (card.cost + got[1]) * gv
                    if v > best_v:
                        best_v, best_c = v, c
    if best_c is not None:
        return {"act": "take", "card": best_c}
    return {"act": "take", "from": "deck"}


def gold_value(gold: int) -> float:
    """Points one more gold is worth to a bot holding ``gold``: gold buys
    plays, but a hoard is worth little beyond the end-of-cards bonus."""
    if gold <= 6:
        return GOLD_VALUE
    if gold <= 12:
        return GOLD_VALUE * 0.6
    return GOLD_VALUE * 0.2


def greedy_play(st: State, me: int) -> Move:
    """Return the play or sale with the best value (see module docstring)."""
    p = st.players[me]
    n = st.n
    base = score_diff(st.board, me, n)
    best_v = float("-inf")
    best_m: Move = {"act": "sell", "card": p.hand[0]}
    plan_cache: list[Any] = []
    gv = gold_value(p.gold)
    for cid in sorted(set(p.hand)):
        card = CARDS[cid]
        v = card.sale * gv - 0.1 * card_value(card)
        if v > best_v:
            best_v, best_m = v, {"act": "sell", "card": cid}
        if card.cost > p.gold:
            continue
        for option in range(len(card.actions)):
            got = _best_action(st, me, card, option, base, plan_cache)
            if got is None:
                continue
            gain, extra, move = got
            v = gain - (card.cost + extra) * gv
            if v > best_v:
                best_v, best_m = v, move
    return best_m


def _best_action(
    st: State, me: int, card: Card, option: int, base: int, plan_cache: list[Any]
) -> tuple[float, int, Move] | None:
    """Return (gain, extra gold, move) of the best use of one card option, or None."""
    action = card.actions[option]
    gold_left = st.players[me].gold - card.cost
    if not plan_cache:
        plan_cache.extend(_position_memo(st, me))
    memo = plan_cache[1]
    # Only knights and desertions spend gold beyond the card (forest surcharges): the other
    # kinds' best use is the same at any gold, so it is worked out once per position.
    key = (action.kind, action.n, min(gold_left, 2) if action.kind in (KNIGHTS, DESERTION) else 0)
    if key not in memo:
        if "plans" not in memo and action.kind in (BORDERS, KNIGHTS):
            memo["plans"] = plans(st, me)
        memo[key] = _best_parts(st, me, action.kind, action.n, gold_left, base, memo.get("plans", []))
    got = memo[key]
    if got is None:
        return None
    gain, extra, parts = got
    return gain, extra, {"act": "play", "card": card.id, "option": option, **parts}


_MEMO: dict[Any, dict[Any, Any]] = {}


def _position_memo(st: State, me: int) -> list[Any]:
    """Return [position key, memo] for the best uses of each action kind.

    The memo outlives one call so that the take after a sale (same board)
    reuses what the play step worked out; a few positions are kept.
    """
    b = st.board
    key = (
        me,
        st.n,
        b.terrain,
        bytes(b.border),
        # Tuples: one C-level copy each (a generator into bytes cost more than the lookup).
        tuple(b.castle),
        tuple(b.knight),
        tuple(st.alliances),
    )
    memo = _MEMO.get(key)
    if memo is None:
        if len(_MEMO) >= 8:
            _MEMO.clear()
        memo = _MEMO[key] = {}
    return [key, memo]


def _best_parts(
    st: State, me: int, kind: str, n: int, gold_left: int, base: int, plan_list: list[Any]
) -> tuple[float, int, dict[str, Any]] | None:
    """Return (gain, extra gold, parts) of the best use of an action, or None."""
    move: dict[str, Any] = {}
    board = st.board
    if kind == BORDERS:
        best = None
        for value, need, _sq in plan_list:
            b = board.copy()
            placed: list[int] = []
            for e in need:
                if len(placed) == n:
                    break
                if A.border_refusal(b, e) is None:
                    b.add_border(e)
                    placed.append(e)
            if not placed:
                continue
            gain: float = score_diff(b, me, st.n) - base
            if len(placed) < len(need):
                gain += PROGRESS_WEIGHT * value * len(placed) / len(need)
            if best is None or gain > best[0]:
                best = (gain, 0, {**move, "borders": [EDGE_NAME[e] for e in placed]})
        return best
    if kind == KNIGHTS:
        d = board.derived()
        plan_squares = set(plan_list[0][2]) if plan_list else set()
        b = board.copy()
        chosen: list[str] = []
        gain, extra = 0.0, 0
        # Whether a domain of mine touches another domain: knights do not change domains, so once per
        # domain, kept with the Derived facts (later plays on the same domains ask again).
        fronts: dict[int, bool] = d.cache.setdefault("fronts", {})
        for _ in range(n):
            options = []
            for s in A.knight_squares(b, me, gold_left - extra):
                dom = d.domain_at[s]
                if dom >= 0 and d.domains[dom].owner == me:
                    front = fronts.get(dom)
                    if front is None:
                        front = fronts[dom] = any(
                            0 <= d.domain_at[t] != dom for q in d.domains[dom].squares for t in NEIGHBOURS[q]
                        )
                    v = KNIGHT_FRONT_VALUE if front else KNIGHT_VALUE
                elif s in plan_squares:
                    v = KNIGHT_VALUE
                else:
                    continue
                v -= A.surcharge(b, s) * GOLD_VALUE
                options.append((v, -s, s))
            if not options:
                break
            v, _, s = max(options)
            extra += A.surcharge(b, s)
            b.set_knight(s, me)
            chosen.append(SQ_NAME[s])
            gain += v + A.surcharge(board, s) * GOLD_VALUE  # surcharge is charged by the caller
        if not chosen:
            return None
        return gain, extra, {**move, "knights": chosen}
    if kind == EXPAND:
        best = None
        for c in A.own_domains(board, me):
            squares = A.expand_squares(board, st.alliances, me, c)
            firsts = [
                (g - base, -s, s) for s, g in zip(squares, expansion_diffs(board, me, st.n, c, squares), strict=True)
            ]
            firsts.sort(reverse=True)
            for g1, _, s1 in firsts[:2]:
                cand = (g1, [s1])
                if n > 1:
                    b1 = board.copy()
                    A.take_square(b1, c, s1)
                    seconds = A.expand_squares(b1, st.alliances, me, c)
                    for s2, diff in zip(seconds, expansion_diffs(b1, me, st.n, c, seconds), strict=True):
                        g2 = diff - base
                        if g2 > cand[0]:
                            cand = (g2, [s1, s2])
                if best is None or cand[0] > best[0]:
                    best = (cand[0], 0, {**move, "domain": SQ_NAME[c], "squares": [SQ_NAME[s] for s in cand[1]]})
        return best
    if kind == DESERTION:
        for r in A.desertion_removals(board, me, st.rules):
            squares = A.desertion_squares(board, me, r, gold_left, st.rules)
            if squares:
                k = min(squares, key=lambda s: (A.surcharge(board, s), s))
                return 1.5, A.surcharge(board, k), {**move, "remove": SQ_NAME[r], "knight": SQ_NAME[k]}
        return None
    if kind == ALLIANCE:
        d = board.derived()
        for c in A.own_domains(board, me):
            for w in A.alliance_partners(board, st.alliances, me, c):
                threat = d.domains[w].knights >= d.domains[c].knights
                return (2.0 if threat else 0.2), 0, {**move, "domain": SQ_NAME[c], "with": SQ_NAME[w]}
        return None
    return None


# --- levels ------------------------------------------------------------------------------

#: A greedy bot that plays a random card use this often (one move in ``WEAK_RANDOM``).
WEAK_RANDOM = 3


def weak_greedy_bot(view: PlayerView, rng: Any) -> Move:
    """Greedy, but one play or take in three is the random bot's (setup stays greedy)."""
    if view.state.step != SETUP and rng.randrange(WEAK_RANDOM) == 0:
        return random_bot(view, rng)
    return greedy_bot(view, rng)


class _Greedy:
    """The greedy bot's judgement, handed to ``search.SearchBot`` (which may not import this module)."""

    bot = staticmethod(greedy_bot)
    setup = staticmethod(greedy_setup)
    take = staticmethod(greedy_take)
    play = staticmethod(greedy_play)
    best_action = staticmethod(_best_action)
    card_value = staticmethod(card_value)
    gold_value = staticmethod(gold_value)
    score_diff = staticmethod(score_diff)


GREEDY = _Greedy()

#: Rollouts per searched play or take of the two search levels, each played by greedy to the end of the
#: game (``bench/bots.py`` measures their time). Rollouts cut after 3 rounds won 27% of 200 games against
#: greedy (docs/bots.md): their horizon misjudged, so both levels now play every rollout out.
LEVEL4_ITERATIONS = 6
LEVEL5_ITERATIONS = 12
#: Plays searched at most per move (greedy's own first): level 4 looks at fewer.
LEVEL4_CANDIDATES = 3
LEVEL5_CANDIDATES = 6

#: The five levels, weakest first: ``(bot name, title, what it plays)``. Each name is in ``BOTS``.
LEVELS: list[tuple[str, str, str]] = [
    ("level1", "Beginner", "Random legal plays and takes."),
    ("level2", "Casual", "The greedy bot, with one move in three at random."),
    ("level3", "Club player", "The greedy bot: the play that gains most now."),
    ("level4", "Strong", f"Searches each play and take with {LEVEL4_ITERATIONS} greedy games played to the end."),
    ("level5", "Expert", f"Searches each play and take with {LEVEL5_ITERATIONS} greedy games played to the end."),
]

#: Bot name -> function (view, rng) -> move.
BOTS: dict[str, Any] = {
    "random": random_bot,
    "greedy": greedy_bot,
    "level1": random_bot,
    "level2": weak_greedy_bot,
    "level3": greedy_bot,
    "level4": SearchBot(GREEDY, LEVEL4_ITERATIONS, candidates=LEVEL4_CANDIDATES),
    "level5": SearchBot(GREEDY, LEVEL5_ITERATIONS, candidates=LEVEL5_CANDIDATES),
}

__all__ = ["BOTS", "LEVELS", "random_bot", "greedy_bot", "plans", "score_diff", "EDGES"]
