"""A search bot for Dominion: determinized Monte-Carlo search from the bot's own view.

Method (what was followed, and its parameters):

* **Determinization** (Cowling, Powley and Whitehouse, "Information Set Monte
  Carlo Tree Search", IEEE TCIAIG 4(2), 2012, section III, "determinization"):
  each sample rebuilds a full :class:`DominionState` from the seat's
  :class:`PlayerView` only (:func:`determinize`): the bot's own draw pile
  holds exactly the cards it owns and cannot see elsewhere (its contents are
  known, their order is shuffled anew); every other seat's owned cards are
  public by tracking, and those not in play, set aside or face-up on the
  discard pile are dealt at random into its hand, deck and discard pile of
  the public sizes. Nothing the seat cannot know is read.
* **Flat search at the root with rollouts** (as in Tollisen, Jansen, Goodwin
  and Glimsdal, "AIs for Dominion Using Monte-Carlo Tree Search", IEA/AIE
  2015, whose best player searched the buy with rule-based rollouts): the
  candidate moves are the bot's buys in its Buy phase (the rollout policy's
  own choice, buying nothing, and the affordable Province, Duchy, Estate,
  Gold, Silver, the three dearest affordable kingdom cards and a pile's
  last card when it would end the game); each is
  applied to a determinization and the game is played to its end by
  ``smart`` for every seat (the same policy the bot meets on the site), or
  to ``ROLLOUT_TURNS`` more turns, then scored as the share of the win plus
  ``MARGIN_WEIGHT`` per victory point of lead (so a sure win still prefers
  the bigger lead, and a lost rollout the smaller gap).
* **Common random numbers**: every candidate is played on the same
  determinization with the same shuffles, so candidates are compared in
  pairs and the noise of the deal cancels out.
* **Sequential halving, then a fresh confirmation** (Karnin, Koren and
  Somekh, "Almost Optimal Exploration in Multi-Armed Bandits", ICML 2013):
  half of the rollouts screen the other candidates against
  the policy's own move, over ``ceil(log2 K)`` rounds that each keep the
  better half, down to one challenger; the other half plays the challenger
  and the policy's move on fresh determinizations, and the challenger is
  played only if it wins there by ``KEEP_MARGIN`` plus ``KEEP_Z`` standard
  errors of the paired differences. Picking the best of many noisy means
  overrates it (the winner's curse), and a search that strays from its
  policy on noise plays worse than the policy.
* **A budget of simulated turns** (the rollouts' cost is about proportional
  to the turns they play): a pilot sample plays every candidate once, and
  the number of rollouts is ``turn_budget`` divided by the pilot's turns per
  rollout, between ``iterations`` and ``max_iterations``. The end of the
  game, where rollouts are a few turns long and a buy (a Duchy instead of a
  Gold, the penultimate Province, a pile that ends the game) most often
  decides it, gets up to ten times the rollouts of the opening for about the
  same CPU time (a deterministic budget: the same seed gives the same move).

Every other decision (Action plays, Treasures, answers to attacks and to
card effects) is the rollout policy's. The search is deterministic given
the ``rng`` it is passed: each determinization and rollout takes its seed
from one draw of ``rng``, and the budget counts rollouts and simulated
turns, not seconds.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

from games.engine.core import Rng, mean, stderr
from games.engine.dominion.cards import COST, TREASURES
from games.engine.dominion.engine import ENGINE, PlayerView, next_mover, score
from games.engine.dominion.state import DominionState

Move = dict[str, Any]
Policy = Callable[[PlayerView, Any], Move]

#: A rollout stops after this many more turns (all seats together) and is scored as it stands.
ROLLOUT_TURNS = 80
#: Reward per victory point of lead at the end of a rollout (a win is worth 1).
MARGIN_WEIGHT = 0.004
#: Paired mean reward by which a candidate must beat the policy's own move to replace it.
KEEP_MARGIN = 0.0
#: ... and by this many standard errors of the paired differences (on samples not used to pick it).
KEEP_Z = 1.5
#: At most this many kingdom cards among the buy candidates (the dearest affordable).
KINGDOM_CANDIDATES = 3


def determinize(view: PlayerView, rng: random.Random) -> DominionState:
    """A full state the viewing seat could be in, sampled with ``rng`` from what it may know.

    For the seat's own turn (its turn open, no decision pending): its hand,
    cards in play and set aside are as they are; its discard pile holds the
    cards it saw go there (``PlayerView.my_discard``); its deck holds the rest
    of what it owns, shuffled. Each other seat's owned cards (public by
    tracking) minus those in play, set aside and the face-up top of its
    discard pile are shuffled and dealt into its hand, deck and discard pile
    of the public sizes. Supply, Trash, turn counters and turn numbers are
    public and copied. Answers other seats still owe (version 3) are not
    rebuilt: the sample starts with none owed.

    Raises:
        ValueError: the view is not of its seat's open turn.
    """
    if not view.my_turn:
        raise ValueError("a determinization is built for the viewing seat's open turn")
    me = view.me
    n = view.players
    hands: list[list[str]] = []
    decks: list[list[str]] = []
    discards: list[list[str]] = []
    plays: list[list[str]] = []
    asides: list[list[str]] = []
    # ``opponents_cards`` lists the other seats in turn order from the viewer's left.
    others = dict(zip([(me + i) % n for i in range(1, n)], view.opponents_cards(), strict=True))
    for p in range(n):
        play, aside = view.in_play(p), view.set_aside(p)
        plays.append(play)
        asides.append(aside)
        if p == me:
            hand = view.hand
            disc_counts = view.my_discard()
            top = view.discard_top(p)
            rest = view.my_cards() - Counter(hand) - disc_counts - Counter(play) - Counter(aside)
            deck = sorted(rest.elements())
            rng.shuffle(deck)
            disc = sorted(disc_counts.elements())
            rng.shuffle(disc)
            if top is not None:  # the face-up card stays on top
                disc.remove(top)
                disc.append(top)
        else:
            owned = others[p]
            hand_n, deck_n, disc_n = view.counts(p)
            top = view.discard_top(p)
            pool_counts = owned - Counter(play) - Counter(aside)
            if top is not None:
                pool_counts[top] -= 1
            pool = sorted(pool_counts.elements())
            rng.shuffle(pool)
            hand = pool[:hand_n]
            deck = pool[hand_n : hand_n + deck_n]
            disc = pool[hand_n + deck_n :]
            if top is not None:
                disc.append(top)
        hands.append(hand)
        decks.append(deck)
        discards.append(disc)
    supply = view.supply
    st = DominionState(
        n=n,
        kingdom=view.kingdom,
        supply=supply,
        trash=view.trash,
        hands=hands,
        decks=decks,
        discards=discards,
        plays=plays,
        asides=asides,
        turns=view.turns(),
        rng=Rng(rng.randrange(1 << 40)),
        current=me,
        phase=view.phase,
        actions=view.actions,
        buys=view.buys,
        coins=view.coins,
        bought=view.bought,
        record=False,
        version=view.version,
        ask_all=view.hidden_reactions,
    )
    st.next_id = 1 << 20  # play ids of the sample never meet the real game's
    return st


def clone(st: DominionState, seed: int) -> DominionState:
    """A copy of a determinization (open turn, nothing stacked or open) with its own shuffles from ``seed``."""
    out = DominionState(
        n=st.n,
        kingdom=st.kingdom,
        supply=dict(st.supply),
        trash=st.trash[:],
        hands=[z[:] for z in st.hands],
        decks=[z[:] for z in st.decks],
        discards=[z[:] for z in st.discards],
        plays=[z[:] for z in st.plays],
        asides=[z[:] for z in st.asides],
        turns=st.turns[:],
        rng=Rng(seed),
        current=st.current,
        phase=st.phase,
        actions=st.actions,
        buys=st.buys,
        coins=st.coins,
        bought=st.bought,
        record=False,
        version=st.version,
        ask_all=st.ask_all,
    )
    out.next_id = st.next_id
    return out


def rollout(st: DominionState, policy: Policy, rng: random.Random, me: int, max_turns: int = ROLLOUT_TURNS) -> float:
    """Play ``st`` with ``policy`` for every seat to the end (or ``max_turns`` more turns); ``me``'s reward.

    The reward is ``me``'s share of the win (1, 1/k for a k-way tie, 0) by
    the rules' ranking, or by the score as it stands when the rollout is cut
    short, plus ``MARGIN_WEIGHT`` per point of lead over the best other seat.
    """
    apply = ENGINE.apply
    stop = sum(st.turns) + max_turns
    moves = 0
    views = [PlayerView(st, p) for p in range(st.n)]  # a view reads the state live: one per seat serves every move
    while not st.game_over:
        moves += 1
        if moves % 64 == 0 and sum(st.turns) >= stop:
            break
        p = next_mover(st) if st.open or st.owed else st.current  # with nothing asked: the turn
        apply(st, p, policy(views[p], rng))
    scores = [score(st, p) for p in range(st.n)]
    turns = st.turns
    keys = [(scores[p], -turns[p]) for p in range(st.n)]
    best = max(keys)
    winners = [p for p in range(st.n) if keys[p] == best]
    lead = scores[me] - max(scores[p] for p in range(st.n) if p != me)
    return (1.0 / len(winners) if me in winners else 0.0) + MARGIN_WEIGHT * lead


def buy_candidates(view: PlayerView, default: Move) -> list[Move]:
    """The moves searched in the Buy phase: ``default`` first, then the buys worth weighing.

    Always the affordable Province, Gold and Silver and the dearest affordable
    kingdom cards (``KINGDOM_CANDIDATES``, until the last Provinces); late in
    the game (half the Provinces gone, or a Supply pile empty) also Duchy and
    buying nothing; at the very end (three Provinces left, or two piles
    empty) Estate, and with two piles empty any card that is the last of its
    pile (it ends the game); Copper with Gardens in the kingdom.
    """
    coins = view.coins
    supply = view.supply
    affordable = {c for c, k in supply.items() if k > 0 and COST[c] <= coins}
    provinces = supply.get("Province", 0)
    empty = sum(1 for k in supply.values() if k == 0)
    late = provinces <= (8 if view.players == 2 else 12) // 2 or empty >= 1
    last = provinces <= 3 or empty >= 2
    picks = ["Province", "Gold", "Silver"]
    if late:
        picks.append("Duchy")
    if last:
        picks.append("Estate")
    if "Gardens" in view.kingdom:
        picks += ["Gardens", "Copper"]
    if empty >= 2:  # a buy that empties a third pile ends the game: a win to take, or a loss to avoid
        picks += sorted(c for c in affordable if supply[c] == 1 and c != "Curse")
    picks = [c for c in picks if c in affordable]
    if provinces > 2:
        kingdom = sorted((c for c in affordable if c in view.kingdom), key=lambda c: (-COST[c], c))
        picks += kingdom[:KINGDOM_CANDIDATES]
    out = [default]
    moves = [{"act": "buy", "card": c} for c in picks]
    if late:
        moves.append({"act": "end_turn"})
    for move in moves:
        if move not in out:
            out.append(move)
    return out


class SearchBot:
    """The search bot (see the module docstring) as a bot function ``(view, rng) -> move``.

    Args:
        policy: the bot whose moves it searches around and plays out rollouts with.
        iterations: rollouts per searched move (the budget; the move is the same for the same seed).
        max_turns: a rollout's length in turns (all seats together) before it is scored as it stands.
    """

    def __init__(
        self,
        policy: Policy,
        iterations: int,
        max_turns: int = ROLLOUT_TURNS,
        turn_budget: int = 0,
        max_iterations: int = 0,
    ) -> None:
        self.policy = policy
        self.iterations = iterations
        #: Whether the last move was searched (for timings: the others are the policy's own).
        self.last_searched = False
        self.max_turns = max_turns
        self.turn_budget = turn_budget
        self.max_iterations = max(max_iterations, iterations)

    def budget(self, turns_per_rollout: float) -> int:
        """Rollouts for one searched move whose pilot rollouts lasted ``turns_per_rollout`` turns (all seats).

        ``turn_budget`` simulated turns divided by the pilot's length, at
        least ``iterations`` and at most ``max_iterations``: short rollouts
        (the end of the game, where a buy decides the most) get more of them
        for the same CPU time. Without a ``turn_budget``: ``iterations``.
        """
        if not self.turn_budget:
            return self.iterations
        wanted = int(self.turn_budget / max(turns_per_rollout, 1.0))
        return min(self.max_iterations, max(self.iterations, wanted))

    def __call__(self, view: PlayerView, rng: Any) -> Move:
        """The bot's move for ``view``: the policy's, unless the search finds a better buy."""
        self.last_searched = False
        default = self.policy(view, rng)
        if view.decision is not None or not view.my_turn or view.buys < 1:
            return default
        if default["act"] not in ("buy", "end_turn"):
            return default
        if any(c in TREASURES for c in view.hand) and not view.bought:
            return default  # Treasures first: the policy plays them before buying
        candidates = buy_candidates(view, default)
        if len(candidates) == 1:
            return default
        self.last_searched = True
        return self.search(view, candidates, rng.randrange(1 << 40))

    def search(self, view: PlayerView, candidates: list[Move], seed: int) -> Move:
        """Pick among ``candidates`` (``candidates[0]`` the policy's move): screen, then confirm.

        A pilot sample plays every candidate once and sets the number of
        rollouts (``budget``). Half of them screen the candidates by
        sequential halving down to the best other than the policy's move
        (the pilot counts as screening); the other half plays that one and
        the policy's move on fresh samples, and the policy's move is left
        only if the other beats it there by ``KEEP_Z`` standard errors of the
        paired differences (fresh samples: the screening's luck does not count).
        """
        me = view.me
        sampler = random.Random(seed)
        others = list(range(1, len(candidates)))
        diffs: list[list[float]] = [[] for _ in candidates]
        rewards, turns = self._sample(view, sampler, me, list(range(len(candidates))), candidates)
        for i in others:
            diffs[i].append(rewards[i] - rewards[0])
        iterations = self.budget(turns / len(candidates))
        screen = iterations // 2
        rounds = max(1, math.ceil(math.log2(len(others)))) if len(others) > 1 else 0
        for _ in range(rounds):
            per = max(1, screen // (rounds * (len(others) + 1)))
            for _ in range(per):
                rewards, _turns = self._sample(view, sampler, me, [0, *others], candidates)
                for i in others:
                    diffs[i].append(rewards[i] - rewards[0])
            ranked = sorted(others, key=lambda i: (-mean(diffs[i]), i))
            others = ranked[: max(1, len(others) // 2)]
        best = others[0]
        final: list[float] = []
        for _ in range(max(2, (iterations - screen) // 2)):
            rewards, _turns = self._sample(view, sampler, me, [0, best], candidates)
            final.append(rewards[best] - rewards[0])
        if mean(final) > KEEP_MARGIN + KEEP_Z * stderr(final):
            return candidates[best]
        return candidates[0]

    def _sample(
        self, view: PlayerView, sampler: random.Random, me: int, which: list[int], candidates: list[Move]
    ) -> tuple[dict[int, float], int]:
        """Play candidates ``which`` on one new determinization with the same shuffles.

        Returns their rewards and the turns (all seats) the rollouts took together.
        """
        det = determinize(view, sampler)
        shuffle_seed = sampler.randrange(1 << 40)
        start = sum(det.turns)
        rewards = {}
        turns = 0
        for i in which:
            st = clone(det, shuffle_seed)
            ENGINE.apply(st, me, candidates[i])
            rewards[i] = rollout(st, self.policy, random.Random(shuffle_seed), me, self.max_turns)
            turns += sum(st.turns) - start
        return rewards, turns
