"""A search bot for Domaine: determinized Monte-Carlo search over its plays, with ``greedy`` rollouts.

Method (what was followed, and its parameters):

* **Determinization** (Cowling, Powley and Whitehouse, "Information Set Monte
  Carlo Tree Search", IEEE TCIAIG 4(2), 2012): the bot's view
  (``engine.PlayerView``: the other hands and the deck are ``"?"``
  placeholders) is filled in by :func:`determinize`. The deck was stacked
  letter by letter, A on top to D at the bottom, and is taken from the
  top, so the letters of the cards still in it are known from its size
  alone; each slot gets a card of its letter that the bot has not seen (not
  in its hand, not in the display). The other hands get the unseen cards of
  the letters already dealt. Cards played earlier are not in the view, so
  they may be sampled as if still hidden (a small error, never a leak).
* **Flat search at the root with rollouts to the end of the game** (flat
  Monte-Carlo with a heuristic default policy, as in Tesauro and Galperin,
  "On-line policy improvement using Monte-Carlo search", NIPS 1996: one
  step of policy improvement over ``greedy``): the candidates are
  ``greedy``'s own move and, for a play, the best use of each card and
  option and each sale as ``greedy`` values them (the ``candidates`` best,
  ``PLAY_CANDIDATES`` by default); for a take, the deck and every card of
  the display. Each is applied to a determinization and ``greedy`` plays
  every seat to the end of the game (``rounds=None``, the default; a game
  always ends, the deck runs out) or for ``rounds`` rounds. A finished game
  is scored as the bot's final score minus the best other final score
  (gold bonuses included) plus ``WIN_BONUS`` for a win (minus it for a
  loss), so the result dominates and the margin breaks ties between wins;
  a cut-off position as its score lead plus ``GOLD_WEIGHT`` per gold of
  lead over the richest other seat. Why to the end: rollouts cut after 3
  rounds and scored so won only 27% of 200 games against ``greedy``
  (docs/bots.md, 4 December 2026): a lead three rounds on is a poor guess
  of who wins, and more rollouts only trusted it more; a rollout played
  out is scored by the game's own result, and greedy games are cheap
  (about 20 ms of CPU for a whole game).
* **Common random numbers and sequential halving** (Karnin, Koren and
  Somekh, ICML 2013) as in ``games.engine.dominion.search``: candidates
  share each determinization and its rollout; the better half survives
  each round; ``greedy``'s move is kept unless another beats it in paired
  mean by ``KEEP_Z`` standard errors.

Setup placements are ``greedy``'s. The search is deterministic given the
``rng`` it is passed (one draw seeds everything) and budgeted in rollouts
(at least one per candidate still alive in each halving round).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from typing import Any

from games.engine.core import Rng, mean, stderr
from games.engine.domaine.cards import LETTERS, full_deck_by_letter
from games.engine.domaine.engine import ENGINE, PlayerView
from games.engine.domaine.state import OVER, PLAY, SETUP, TAKE, State

Move = dict[str, Any]

#: Rounds (every seat one turn) a cut-off rollout plays before the position is scored (``rounds=3``
#: was the first version's default; ``None``, to the end, is the default now).
ROLLOUT_ROUNDS: int | None = None
#: Rounds at most of a rollout "to the end": a guard only (a greedy game ends in about 50 rounds).
MAX_ROUNDS = 400
#: Points per gold of lead in a rollout's score.
GOLD_WEIGHT = 0.3
#: Points for a game won (lost) inside a rollout.
WIN_BONUS = 20.0
#: Plays searched at most (greedy's own first).
PLAY_CANDIDATES = 6
#: Standard errors of the paired differences by which a candidate must beat greedy's move.
KEEP_Z = 1.0

_LETTER_SIZES = {letter: len(cards) for letter, cards in full_deck_by_letter().items()}
_BY_LETTER = full_deck_by_letter()


def determinize(view: PlayerView, rng: random.Random) -> State:
    """A full state the viewing seat could be in, sampled with ``rng`` (see the module docstring).

    Returns a new state; ``view`` is not changed.
    """
    st = view.state.copy()
    me = view.player
    if st.step == OVER:
        return st
    seen = Counter(st.players[me].hand) + Counter(st.display)
    # Letters of the deck's slots, top first: the deck is the bottom ``len(deck)`` of the stacked deck.
    order = [letter for letter in LETTERS for _ in range(_LETTER_SIZES[letter])]
    slots = order[len(order) - len(st.deck) :]
    pools: dict[str, list[str]] = {}
    for letter in LETTERS:
        left = Counter(_BY_LETTER[letter]) - seen
        pool = sorted(left.elements())
        rng.shuffle(pool)
        pools[letter] = pool
    deck = []
    for letter in slots:
        pool = pools[letter]
        deck.append(pool.pop() if pool else _any_card(pools, letter))
    st.deck = deck
    dealt = set(order[: len(order) - len(st.deck)]) or {LETTERS[0]}
    rest = [c for letter in LETTERS if letter in dealt for c in pools[letter]]
    rng.shuffle(rest)
    for i, p in enumerate(st.players):
        if i != me:
            k = len(p.hand)
            p.hand = [rest.pop() if rest else _any_card(pools, LETTERS[0]) for _ in range(k)]
    st.rng = Rng(rng.randrange(1 << 40))
    return st


def _any_card(pools: dict[str, list[str]], letter: str) -> str:
    """A card for a slot whose letter's unseen cards ran out (only when played cards were sampled before)."""
    for other in LETTERS:
        if pools[other]:
            return pools[other].pop()
    return _BY_LETTER[letter][0]


def evaluate(st: State, me: int) -> float:
    """The rollout's score of ``st`` for ``me`` (see the module docstring)."""
    if st.step == OVER:
        res = ENGINE.result(st)
        assert res is not None
        scores = res.scores
        bonus = WIN_BONUS if me in res.winners else -WIN_BONUS
    else:
        scores = st.board.derived().scores
        bonus = 0.0
    n = st.n
    lead = scores[me] - max(scores[i] for i in range(n) if i != me)
    gold = st.players[me].gold - max(st.players[i].gold for i in range(n) if i != me)
    return lead + GOLD_WEIGHT * gold + bonus


def greedy_move(greedy: Any, st: State, p: int) -> Move:
    """``greedy``'s move for seat ``p`` read straight from a full state (it reads nothing hidden)."""
    move: Move
    if st.step == SETUP:
        move = greedy.setup(st, p)
    elif st.step == TAKE:
        move = greedy.take(st, p)
    else:
        move = greedy.play(st, p)
    return move


def rollout(greedy: Any, st: State, me: int, rounds: int | None = ROLLOUT_ROUNDS) -> float:
    """Let ``greedy`` play every seat for ``rounds`` rounds, or to the end if ``None``; ``me``'s score of the result."""
    stop = st.turns + (MAX_ROUNDS if rounds is None else rounds) * st.n
    apply = ENGINE.apply
    while st.step != OVER and (st.turns < stop or st.step == TAKE):
        p = st.turn_player
        apply(st, p, greedy_move(greedy, st, p))
    return evaluate(st, me)


def play_candidates(greedy: Any, st: State, me: int, default: Move, limit: int = PLAY_CANDIDATES) -> list[Move]:
    """``default`` then the best use of each card and option and each sale, by greedy's value
    (``greedy.uses``, ties in its order); ``limit`` at most."""
    ranked = sorted(enumerate(greedy.uses(st, me)), key=lambda t: (-t[1][0], t[0]))
    out = [default]
    for _, (_, move) in ranked:
        if move not in out:
            out.append(move)
    return out[:limit]


def take_candidates(st: State, default: Move) -> list[Move]:
    """``default``, the deck, then each card of the display that may be taken."""
    out = [default, {"act": "take", "from": "deck"}]
    for c in sorted(set(st.display)):
        if st.display.count(c) - (1 if c == st.sold else 0) > 0:
            out.append({"act": "take", "card": c})
    unique: list[Move] = []
    for m in out:
        if m not in unique:
            unique.append(m)
    return unique


class SearchBot:
    """The search bot (see the module docstring) as a bot function ``(view, rng) -> move``.

    Args:
        greedy: the greedy bot's judgement (a ``greedy.Greedy``, ``bots.GREEDY`` for the levels):
            attributes ``bot(view, rng)``, ``setup``, ``take``, ``play`` (each ``(state, seat) ->
            move``) and ``uses`` (its weighed card uses); passed in so that the rollouts play with
            the weights of the greedy whose moves are searched.
        iterations: rollouts per searched move (the budget; the same seed gives the same move).
        rounds: rounds each rollout plays before it is scored, or ``None`` to play to the end.
        candidates: plays searched at most (greedy's own first).
    """

    def __init__(
        self, greedy: Any, iterations: int, rounds: int | None = ROLLOUT_ROUNDS, candidates: int = PLAY_CANDIDATES
    ) -> None:
        self.greedy = greedy
        self.iterations = iterations
        self.candidates = candidates
        #: Whether the last move was searched (for timings: the others are the policy's own).
        self.last_searched = False
        self.rounds = rounds

    def __call__(self, view: PlayerView, rng: Any) -> Move:
        """The bot's move for ``view``: greedy's, unless the search finds a better play or take."""
        self.last_searched = False
        st, me = view.state, view.player
        default: Move = self.greedy.bot(view, rng)
        if st.step == PLAY:
            candidates = play_candidates(self.greedy, st, me, default, self.candidates)
        elif st.step == TAKE:
            candidates = take_candidates(st, default)
        else:
            return default
        if len(candidates) == 1:
            return default
        self.last_searched = True
        return self.search(view, candidates, rng.randrange(1 << 40))

    def search(self, view: PlayerView, candidates: list[Move], seed: int) -> Move:
        """Sequential halving over ``candidates`` (``candidates[0]`` greedy's move, always kept)."""
        me = view.player
        alive = list(range(len(candidates)))
        diffs: list[list[float]] = [[] for _ in candidates]
        rounds = max(1, math.ceil(math.log2(len(candidates))))
        sampler = random.Random(seed)
        for r in range(rounds):
            per = max(1, self.iterations // (rounds * len(alive)))
            for _ in range(per):
                det = determinize(view, sampler)
                rewards = {}
                for i in alive:
                    st = det.copy()
                    ENGINE.apply(st, me, candidates[i])
                    rewards[i] = rollout(self.greedy, st, me, self.rounds)
                for i in alive:
                    diffs[i].append(rewards[i] - rewards[0])
            if r < rounds - 1:
                ranked = sorted(alive, key=lambda i: (-mean(diffs[i]), i))
                keep = ranked[: max(2, (len(alive) + 1) // 2)]
                if 0 not in keep:
                    keep[-1] = 0
                alive = sorted(keep)
        best = max(alive, key=lambda i: (mean(diffs[i]), -i))
        if best != 0 and mean(diffs[best]) < KEEP_Z * stderr(diffs[best]):
            best = 0
        return candidates[best]
