"""The ``greedy`` bot's judgement for Domaine, parameterized by its weights.

``Greedy(weights)`` is one greedy player: ``bot(view, rng)`` is its bot
function, ``setup``, ``take`` and ``play`` its move for a seat of a full
state. Every number the bot judges by is a field of ``GreedyWeights``; the
defaults are the shipped bot's (``bots.GREEDY``), so two greedy players of
different weights can play in one process (a tuned level, a match between
weightings). Each instance keeps its own memos (best uses per position,
card values, plan prefix sums, castle-site values): they depend on its
weights, so nothing one instance works out is read by another.

What the bot does: the play or sale that most improves its score minus the
best opponent's score, counting gold spent or earned at a rate that falls
as it hoards; a border play that does not close a domain yet is valued by
its progress towards the best enclosure (a rectangle around one of its
castles) it can still make. Setup: castles near villages, mines, forests
and the rim, away from other castles; neutral castles near the opponent's.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from typing import Any

from games.engine.domaine import actions as A
from games.engine.domaine import rules
from games.engine.domaine.board import (
    ADJ,
    EDGE_NAME,
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
from games.engine.domaine.state import SETUP, TAKE, State

Move = dict[str, Any]
N = rules.SIZE


@dataclass(frozen=True)
class GreedyWeights:
    """The numbers the greedy bot judges by; the defaults are the shipped ``greedy`` (level 3).

    Frozen (hashable, shared safely between bots). Points are game points; a
    value "per gold" is points per gold. Distances are in steps between
    squares (columns plus rows).
    """

    #: Points one gold is worth to a bot holding at most ``gold_tier1`` (cards cost gold, sales earn it).
    gold_value: float = 0.5
    #: Gold up to which one more gold is worth ``gold_value`` in full.
    gold_tier1: int = 6
    #: Gold up to which one more gold is worth ``gold_value * gold_mid`` (above: ``gold_value * gold_high``).
    gold_tier2: int = 12
    #: Share of ``gold_value`` one more gold is worth between the two tiers (a hoard buys little).
    gold_mid: float = 0.6
    #: Share of ``gold_value`` one more gold is worth above ``gold_tier2``.
    gold_high: float = 0.2
    #: A display card is taken only if playing it would be worth more than this now (else the deck).
    take_threshold: float = 1.0
    #: Cards the bot likes (``card_value``) less than this are never taken from the display.
    take_min_card_value: float = 1.0
    #: Share of an enclosure's value credited per border placed towards it.
    progress_weight: float = 0.6
    #: Value of a mine square when planning an enclosure or a castle site (income, majority hopes).
    mine_plan_value: float = 1.5
    #: Value of a knight placed in a domain of the bot's that touches another colour's domain.
    knight_front_value: float = 1.0
    #: Value of a knight placed in another domain of the bot's, or in its best planned enclosure.
    knight_value: float = 0.5
    #: ``card_value`` of a borders card, per border it places.
    card_border: float = 0.9
    #: ``card_value`` of a knights card, per knight it places.
    card_knight: float = 1.0
    #: ``card_value`` of an expansion card.
    card_expand: float = 4.0
    #: ``card_value`` of a desertion card.
    card_desertion: float = 1.5
    #: ``card_value`` of an alliance card.
    card_alliance: float = 0.5
    #: Share of a card's cost (at ``gold_value`` per gold) taken off its ``card_value``.
    card_cost_factor: float = 0.5
    #: A sale is worth its gold less this share of the card's ``card_value`` (keeps good cards in hand).
    sale_card_weight: float = 0.1
    #: Castles closer than this to a castle site crowd it (they would share its area).
    crowd_distance: int = 5
    #: Penalty per step closer than ``crowd_distance`` of another castle to a castle site.
    crowd_weight: float = 1.5
    #: Value per step closer than 4 to the rim of a castle site (fewer borders to close).
    rim_weight: float = 0.8
    #: An enclosure's priority is its value / (borders still needed + this): smaller favours quick ones.
    plan_need_offset: float = 2
    #: Gain credited to a desertion play.
    desertion_gain: float = 1.5
    #: Gain credited to an alliance with a domain holding at least as many knights as the bot's.
    alliance_threat: float = 2.0
    #: Gain credited to any other alliance.
    alliance_idle: float = 0.2
    #: A neutral castle is worth one point per step closer than this to an opponent's castle
    #: (and minus one per step to the bot's own).
    neutral_distance: int = 6


# --- weight-free geometry and scores -----------------------------------------------------

#: Largest enclosure side the planner considers (the rectangle tables below are built for it).
PLAN_MAX_SIDE = 5


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


def _square_mask(domain_at: list[int]) -> int:
    """The squares in a domain (``domain_at`` >= 0) as an int bit mask, built in C."""
    return int(bytes(map((-1).__lt__, reversed(domain_at))).translate(A.BIT_DIGITS), 2)


# --- the bot -------------------------------------------------------------------------------

#: Boards (terrains) whose prefix sums and castle-site values an instance keeps (a worker plays few at once).
_TERRAIN_MEMO_SIZE = 64
#: Positions whose best uses an instance keeps (the take after a sale reuses the play step's).
_POSITION_MEMO_SIZE = 8


class Greedy:
    """One greedy player judging by ``weights`` (see the module docstring).

    Args:
        weights: the numbers it judges by (``GreedyWeights()``: the shipped bot).

    Its methods are the bot (``bot(view, rng) -> move``), its moves from a full
    state (``setup``, ``take``, ``play``: ``(state, seat) -> move``) and the
    judgement ``search.SearchBot`` builds on (``best_action``, ``card_value``,
    ``gold_value``, ``sale_value``, ``score_diff``, ``plans``). The memos are
    the instance's own (they depend on the weights); a memo entry is stored
    only once whole, since the site's CPU budget (``games.botbudget``) may
    stop a move anywhere.
    """

    score_diff = staticmethod(score_diff)

    def __init__(self, weights: GreedyWeights) -> None:
        self.weights = weights
        #: Plan points per terrain letter: the square's points, a mine at ``mine_plan_value``.
        self._plan_points = {**rules.SQUARE_POINTS, **dict.fromkeys(rules.MINES, weights.mine_plan_value)}
        self._prefix: dict[str, list[float]] = {}
        self._near_values: dict[str, list[float | None]] = {}
        self._card_values: dict[Card, float] = {}
        self._memo: dict[Any, dict[Any, Any]] = {}

    def __repr__(self) -> str:
        return f"Greedy({self.weights!r})"

    # --- moves ---------------------------------------------------------------------------

    def bot(self, view: PlayerView, rng: Any) -> Move:
        """The greedy move for ``view``'s seat (``rng`` is not used: greedy is deterministic)."""
        st, me = view.state, view.player
        if st.step == SETUP:
            return self.setup(st, me)
        if st.step == TAKE:
            return self.take(st, me)
        return self.play(st, me)

    def setup(self, st: State, me: int) -> Move:
        """Place a castle where villages, mines and forests are near and other
        castles far; its knight on a meadow if one is next to it. Neutral
        castles go near the opponents' castles and away from the bot's.

        Walks the placements in ``legal_moves``' order (castle squares, then each
        one's knight squares in square order) and keeps the first best, as
        ``max`` over that list would, without building a move for each."""
        board = st.board
        rs = st.rules
        if st.step != SETUP or me != st.turn_player:
            return self._setup_listed(st, me)
        colour = setup_colour(st)
        if colour == rules.NEUTRAL:
            squares = A.setup_castle_squares(board, colour, None, rs)
            if not squares:
                return self._setup_listed(st, me)
            return {"act": "place_neutral", "at": SQ_NAME[max(squares, key=self._neutral_key(board, me))]}
        gold = st.players[me].gold
        castles = list(board.castle_squares())
        terrain = board.terrain
        best: tuple[tuple[float, int], int, int] | None = None
        for s in A.setup_castle_squares(board, colour, gold, rs):
            v = self._near_value(board, s) - self._castle_crowding(castles, s)
            for k in sorted(NEIGHBOURS[s]):
                if A.setup_knight_refusal(board, s, k, gold, rs) is None:
                    # Best castle square first, then a meadow (free) for its knight.
                    value = (v, -(terrain[k] == rules.FOREST))
                    if best is None or value > best[0]:
                        best = (value, s, k)
        if best is None:
            return self._setup_listed(st, me)
        return {"act": "place_castle", "at": SQ_NAME[best[1]], "knight": SQ_NAME[best[2]]}

    def _setup_listed(self, st: State, me: int) -> Move:
        """``setup`` over the list of ``legal_moves`` (when the walk above finds no placement)."""
        moves = legal_moves(st, me)
        board = st.board
        if moves and moves[0]["act"] == "place_neutral":
            neutral = self._neutral_key(board, me)
            return max(moves, key=lambda m: neutral(parse_square(m["at"])))
        best: dict[str, float] = {}
        castles = [c for c, col in enumerate(board.castle) if col >= 0]
        for m in moves:
            if m["at"] not in best:
                s = parse_square(m["at"])
                best[m["at"]] = self._near_value(board, s) - self._castle_crowding(castles, s)

        def key(m: Move) -> tuple[float, float]:
            """Best castle square first, then a meadow (free) for its knight."""
            k = parse_square(m["knight"])
            forest = board.terrain[k] == rules.FOREST
            return (best[m["at"]], -forest)

        return max(moves, key=key)

    def take(self, st: State, me: int) -> Move:
        """Take a display card only if the bot could play it now with a clear
        gain (so that two greedy bots never pass the same cards back and forth
        and the deck keeps shrinking); otherwise draw from the deck."""
        w = self.weights
        options = sorted(c for c in set(st.display) if st.display.count(c) - (1 if c == st.sold else 0) > 0)
        best_v, best_c = w.take_threshold, None
        if options:
            base = score_diff(st.board, me, st.n)
            gv = self.gold_value(st.players[me].gold)
            cache: list[Any] = []
            for c in options:
                card = CARDS[c]
                # Weak cards are not worth a take over a draw (later letters are stronger).
                if card.cost > st.players[me].gold or self.card_value(card) < w.take_min_card_value:
                    continue
                for option in range(len(card.actions)):
                    got = self.best_action(st, me, card, option, base, cache)
                    if got is not None:
                        v = got[0] - (card.cost + got[1]) * gv
                        if v > best_v:
                            best_v, best_c = v, c
        if best_c is not None:
            return {"act": "take", "card": best_c}
        return {"act": "take", "from": "deck"}

    def play(self, st: State, me: int) -> Move:
        """Return the play or sale with the best value (see the module docstring): the first best of ``uses``."""
        best_v = float("-inf")
        best_m: Move = {"act": "sell", "card": st.players[me].hand[0]}
        for v, move in self.uses(st, me):
            if v > best_v:
                best_v, best_m = v, move
        return best_m

    def uses(self, st: State, me: int) -> list[tuple[float, Move]]:
        """Every card use ``play`` weighs, as ``(value, move)`` in its order: per card of the hand
        (in id order) its sale, then the best play of each option it can pay for; a play's value is
        its gain less its gold (card and surcharges) at ``gold_value``. ``search.play_candidates``
        ranks the same list, so the search looks at the plays greedy would weigh."""
        p = st.players[me]
        base = score_diff(st.board, me, st.n)
        plan_cache: list[Any] = []
        gv = self.gold_value(p.gold)
        out: list[tuple[float, Move]] = []
        for cid in sorted(set(p.hand)):
            card = CARDS[cid]
            out.append((self.sale_value(card, gv), {"act": "sell", "card": cid}))
            if card.cost > p.gold:
                continue
            for option in range(len(card.actions)):
                got = self.best_action(st, me, card, option, base, plan_cache)
                if got is not None:
                    gain, extra, move = got
                    out.append((gain - (card.cost + extra) * gv, move))
        return out

    # --- judgement -----------------------------------------------------------------------

    def card_value(self, card: Card) -> float:
        """How much the bot likes to hold ``card`` (for takes and sales): its best
        action's ``card_*`` weight less ``card_cost_factor`` of its cost in points.

        Memoised per card (the bot asks it for every card in hand and display
        on every turn): a pure function of the card and the weights."""
        v = self._card_values.get(card)
        if v is None:
            w = self.weights
            kinds = {
                BORDERS: w.card_border,
                KNIGHTS: w.card_knight,
                EXPAND: w.card_expand,
                DESERTION: w.card_desertion,
                ALLIANCE: w.card_alliance,
            }
            v = 0.0
            for a in card.actions:
                # Per border or knight placed for those two kinds, per card for the others.
                v = max(v, kinds[a.kind] * a.n if a.kind in (BORDERS, KNIGHTS) else kinds[a.kind])
            v = self._card_values[card] = v - card.cost * w.gold_value * w.card_cost_factor
        return v

    def gold_value(self, gold: int) -> float:
        """Points one more gold is worth to a bot holding ``gold``: gold buys
        plays, but a hoard is worth little beyond the end-of-cards bonus."""
        w = self.weights
        if gold <= w.gold_tier1:
            return w.gold_value
        if gold <= w.gold_tier2:
            return w.gold_value * w.gold_mid
        return w.gold_value * w.gold_high

    def sale_value(self, card: Card, gv: float) -> float:
        """The value of selling ``card`` at ``gv`` points per gold: its gold, less
        ``sale_card_weight`` of how much the bot likes to hold it."""
        return card.sale * gv - self.weights.sale_card_weight * self.card_value(card)

    def best_action(
        self, st: State, me: int, card: Card, option: int, base: int, plan_cache: list[Any]
    ) -> tuple[float, int, Move] | None:
        """Return (gain, extra gold, move) of the best use of one card option, or None.

        ``base`` is ``score_diff`` now; ``plan_cache`` an empty list the first
        time in a position, passed again for the other cards and options."""
        action = card.actions[option]
        gold_left = st.players[me].gold - card.cost
        if not plan_cache:
            plan_cache.extend(self._position_memo(st, me))
        memo = plan_cache[1]
        # Only knights and desertions spend gold beyond the card (forest surcharges): the other
        # kinds' best use is the same at any gold, so it is worked out once per position.
        key = (action.kind, action.n, min(gold_left, 2) if action.kind in (KNIGHTS, DESERTION) else 0)
        if key not in memo:
            if "plans" not in memo and action.kind in (BORDERS, KNIGHTS):
                memo["plans"] = self.plans(st, me)
            memo[key] = self._best_parts(st, me, action.kind, action.n, gold_left, base, memo.get("plans", []))
        got = memo[key]
        if got is None:
            return None
        gain, extra, parts = got
        return gain, extra, {"act": "play", "card": card.id, "option": option, **parts}

    def _position_memo(self, st: State, me: int) -> list[Any]:
        """Return [position key, memo] for the best uses of each action kind.

        The memo outlives one call so that the take after a sale (same board)
        reuses what the play step worked out; a few positions are kept.
        """
        b = st.board
        key = (
            me,
            st.n,
            # The rules' version too: desertion's targets differ between versions (``rules.Ruleset``), and
            # one instance plays a worker's games of every version, which may reach the same position.
            st.version,
            b.terrain,
            bytes(b.border),
            # Tuples: one C-level copy each (a generator into bytes cost more than the lookup).
            tuple(b.castle),
            tuple(b.knight),
            tuple(st.alliances),
        )
        memos = self._memo
        memo = memos.get(key)
        if memo is None:
            if len(memos) >= _POSITION_MEMO_SIZE:
                memos.clear()
            memo = memos[key] = {}
        return [key, memo]

    def _best_parts(
        self, st: State, me: int, kind: str, n: int, gold_left: int, base: int, plan_list: list[Any]
    ) -> tuple[float, int, dict[str, Any]] | None:
        """Return (gain, extra gold, parts) of the best use of an action, or None."""
        w = self.weights
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
                    gain += w.progress_weight * value * len(placed) / len(need)
                if best is None or gain > best[0]:
                    best = (gain, 0, {**move, "borders": [EDGE_NAME[e] for e in placed]})
            return best
        if kind == KNIGHTS:
            d = board.derived()
            plan_squares = set(plan_list[0][2]) if plan_list else set()
            b = board.copy()
            chosen: list[str] = []
            gain, extra = 0.0, 0
            gold_value, front_value, knight_value = w.gold_value, w.knight_front_value, w.knight_value
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
                        v = front_value if front else knight_value
                    elif s in plan_squares:
                        v = knight_value
                    else:
                        continue
                    v -= A.surcharge(b, s) * gold_value
                    options.append((v, -s, s))
                if not options:
                    break
                v, _, s = max(options)
                extra += A.surcharge(b, s)
                b.set_knight(s, me)
                chosen.append(SQ_NAME[s])
                gain += v + A.surcharge(board, s) * gold_value  # surcharge is charged by the caller
            if not chosen:
                return None
            return gain, extra, {**move, "knights": chosen}
        if kind == EXPAND:
            best = None
            for c in A.own_domains(board, me):
                squares = A.expand_squares(board, st.alliances, me, c)
                firsts = [
                    (g - base, -s, s)
                    for s, g in zip(squares, expansion_diffs(board, me, st.n, c, squares), strict=True)
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
                    return w.desertion_gain, A.surcharge(board, k), {**move, "remove": SQ_NAME[r], "knight": SQ_NAME[k]}
            return None
        if kind == ALLIANCE:
            d = board.derived()
            for c in A.own_domains(board, me):
                for partner in A.alliance_partners(board, st.alliances, me, c):
                    threat = d.domains[partner].knights >= d.domains[c].knights
                    gain = w.alliance_threat if threat else w.alliance_idle
                    return gain, 0, {**move, "domain": SQ_NAME[c], "with": SQ_NAME[partner]}
            return None
        return None

    def plans(self, st: State, me: int, limit: int = 4) -> list[tuple[float, list[int], frozenset[int]]]:
        """Return the best enclosures ``me`` can still make around its castles
        that are not yet domains: (value, borders still needed, squares), best
        first, ``limit`` at most. An enclosure is a rectangle holding exactly one
        castle (the bot's), no square of any domain, and whose missing borders
        are all legal now; its value is the plan points of its squares, its
        priority that value / (borders still needed + ``plan_need_offset``)."""
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
        pre = self._prefix_sums(board.terrain)
        offset = self.weights.plan_need_offset
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
                # The rectangle's plan value off the prefix sums: the shipped weights' plan values are
                # multiples of 1/8 (greedy's mines 1.5, TUNED's 3.375), so the float sums are exact and
                # equal the square-by-square sum (a weight like 0.9 would differ by rounding, in ties only).
                value = pre[i11] - pre[i01] - pre[i10] + pre[i00]
                out.append((value / (need + offset), -k, value, k))
        return [
            (v, sorted(e for e in _RECTS[k][1] if not border[e]), _RECTS[k][0])
            for _, _, v, k in heapq.nlargest(limit, out)
        ]

    def _prefix_sums(self, terrain: str) -> list[float]:
        """Per board, ``pre[c * 13 + r]``: the plan points of the squares in the
        columns before c and the rows before r (memoised: the terrain never changes in a game)."""
        got = self._prefix.get(terrain)
        if got is None:
            if len(self._prefix) > _TERRAIN_MEMO_SIZE:
                self._prefix.clear()
            points = self._plan_points
            w = N + 1
            got = [0.0] * (w * w)
            for c in range(N):
                for r in range(N):
                    got[(c + 1) * w + r + 1] = (
                        got[c * w + r + 1] + got[(c + 1) * w + r] - got[c * w + r] + points[terrain[c * N + r]]
                    )
            # Kept only once whole: the CPU budget (games.botbudget) may stop a move anywhere in the loop above.
            self._prefix[terrain] = got
        return got

    def _near_value(self, board: Board, s: int) -> float:
        """How good the land around ``s`` is for a castle (terrain only, so memoised per board)."""
        memo = self._near_values.get(board.terrain)
        if memo is None:
            if len(self._near_values) > _TERRAIN_MEMO_SIZE:
                self._near_values.clear()
            memo = self._near_values[board.terrain] = [None] * NSQ
        v = memo[s]
        if v is None:
            v = memo[s] = self._near_value_of(board, s)
        return v

    def _near_value_of(self, board: Board, s: int) -> float:
        """The plan points within 2 steps of ``s``, each over (1 + its distance), plus
        ``rim_weight`` per step closer than 4 to the rim."""
        points = self._plan_points
        sc, sr = divmod(s, N)
        v = 0.0
        for dc in range(-2, 3):
            for dr in range(-2 + abs(dc), 3 - abs(dc)):
                c, r = sc + dc, sr + dr
                if 0 <= c < N and 0 <= r < N:
                    v += points[board.terrain[c * N + r]] / (1 + abs(dc) + abs(dr))
        # Squares near the rim need fewer borders to close.
        rim = min(sc, N - 1 - sc) + min(sr, N - 1 - sr)
        v += max(0, 4 - rim) * self.weights.rim_weight
        return v

    def _castle_crowding(self, castles: list[int], s: int) -> float:
        """Penalty for standing near other castles (they would share the area)."""
        far, weight = self.weights.crowd_distance, self.weights.crowd_weight
        sc, sr = divmod(s, N)
        pen = 0.0
        for c in castles:
            cc, cr = divmod(c, N)
            dist = abs(cc - sc) + abs(cr - sr)
            if dist < far:
                pen += (far - dist) * weight
        return pen

    def _neutral_key(self, board: Board, me: int) -> Any:
        """The neutral castle's value per square: near the opponents' castles, away from the bot's own."""
        # The players' castles, found once rather than once per candidate square.
        placed = [
            (divmod(c, N), -1 if col == me else 1) for c, col in enumerate(board.castle) if 0 <= col < rules.NEUTRAL
        ]
        far = self.weights.neutral_distance

        def neutral_key(s: int) -> float:
            sc, sr = divmod(s, N)
            v = 0.0
            for (cc, cr), sign in placed:
                dist = abs(cc - sc) + abs(cr - sr)
                v += sign * max(0, far - dist)
            return v

        return neutral_key


#: The shipped greedy bot (level 3), whose judgement the search levels build on.
GREEDY = Greedy(GreedyWeights())

__all__ = ["GREEDY", "Greedy", "GreedyWeights", "PLAN_MAX_SIDE", "expansion_diff", "expansion_diffs", "score_diff"]
