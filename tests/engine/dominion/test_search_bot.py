"""The search bot (``games.engine.dominion.search``): it sees only its seat's view, and the levels."""

from __future__ import annotations

import random
from collections import Counter

from games.engine.dominion.bots import BOTS, LEVELS, smart
from games.engine.dominion.engine import ENGINE, PlayerView, new_state, resolve_kingdom
from games.engine.dominion.search import SearchBot, buy_candidates, determinize
from games.engine.dominion.state import DominionState


def _buy_position(seed: int, players: int = 2) -> DominionState:
    """A game played by ``smart`` until, after a few turns, the turn's player has played its
    Treasures and has at least $5 to spend (so the search has several buys to weigh)."""
    st = new_state(players, resolve_kingdom("random", seed), seed)
    st.record = False
    rng = random.Random(seed)
    while True:
        p = ENGINE.pending(st)[0].player
        view = PlayerView(st, p)
        if st.turns[p] >= 4 and view.my_turn and st.phase == "buy" and st.coins >= 5 and view.decision is None:
            return st
        ENGINE.apply(st, p, smart(view, rng))


def _hidden_shuffled(st: DominionState, seed: int) -> DominionState:
    """A copy of ``st`` that differs only in what ``st.current`` cannot know: the order of its own deck,
    and which of each other seat's cards (not in play, set aside or on top of its discard pile) are in
    its hand, its deck or its discard pile."""
    import pickle

    other: DominionState = pickle.loads(pickle.dumps(st))
    rng = random.Random(seed)
    me = st.current
    rng.shuffle(other.decks[me])
    for p in range(st.n):
        if p == me:
            continue
        top = other.discards[p][-1:] if other.discards[p] else []
        pool = other.hands[p] + other.decks[p] + other.discards[p][:-1]
        rng.shuffle(pool)
        h, d = len(other.hands[p]), len(other.decks[p])
        other.hands[p], other.decks[p], other.discards[p] = pool[:h], pool[h : h + d], pool[h + d :] + top
    return other


def test_two_states_differing_only_in_hidden_cards_give_the_same_move():
    bot = SearchBot(smart, 24)
    searched = 0
    for seed in (3, 11, 29):
        st = _buy_position(seed)
        twin = _hidden_shuffled(st, seed)
        me = st.current
        opp = 1 - me
        # The twin really hides different cards (or the test could not fail).
        assert (twin.hands[opp], twin.decks[me]) != (st.hands[opp], st.decks[me])
        assert Counter(twin.owned(opp)) == Counter(st.owned(opp))
        view, twin_view = PlayerView(st, me), PlayerView(twin, me)
        searched += len(buy_candidates(view, smart(view, None))) > 1
        assert bot(view, random.Random(5)) == bot(twin_view, random.Random(5))
        # The samples the search plays on are the same, card for card.
        a, b = determinize(view, random.Random(9)), determinize(twin_view, random.Random(9))
        assert (a.hands, a.decks, a.discards) == (b.hands, b.decks, b.discards)
    assert searched == 3


def test_a_determinization_keeps_every_public_count_and_the_own_cards():
    st = _buy_position(17, players=3)
    me = st.current
    det = determinize(PlayerView(st, me), random.Random(1))
    assert sorted(det.hands[me]) == sorted(st.hands[me])
    assert Counter(det.decks[me]) == Counter(st.decks[me])
    for p in range(3):
        assert Counter(det.owned(p)) == Counter(st.owned(p))
        assert [len(det.hands[p]), len(det.decks[p]), len(det.discards[p])] == [
            len(st.hands[p]),
            len(st.decks[p]),
            len(st.discards[p]),
        ]
        assert det.discards[p][-1:] == st.discards[p][-1:]
    assert det.supply == st.supply and det.turns == st.turns and det.coins == st.coins


def test_the_search_move_is_legal_and_repeatable():
    st = _buy_position(41)
    view = PlayerView(st, st.current)
    bot = SearchBot(smart, 16)
    move = bot(view, random.Random(2))
    ENGINE.check(st, st.current, move)
    assert bot(view, random.Random(2)) == move


def test_five_levels_are_bots_and_the_stored_names_still_work():
    assert [name for name, _title, _text in LEVELS] == ["level1", "level2", "level3", "level4", "level5"]
    for name in ("random", "big_money", "smart", "level1", "level2", "level3", "level4", "level5"):
        assert callable(BOTS[name])


def test_every_level_finishes_a_game_with_legal_moves():
    # A short game on a fixed kingdom: each seat a different level, all moves checked by apply.
    for names in (["level1", "level4"], ["level2", "level3"]):
        st = new_state(2, resolve_kingdom("First Game", 1), 1)
        st.record = False
        rng = random.Random(1)
        while not st.game_over and sum(st.turns) < 120:
            p = ENGINE.pending(st)[0].player
            ENGINE.apply(st, p, BOTS[names[p]](PlayerView(st, p), rng))
        assert st.game_over


def test_short_rollouts_get_more_of_them_within_the_bounds():
    bot = SearchBot(smart, 10, turn_budget=1000, max_iterations=100)
    assert bot.budget(50) == 20  # the opening: long rollouts, few of them
    assert bot.budget(500) == 10  # never fewer than ``iterations``
    assert bot.budget(2) == 100  # the last turns: many short ones, up to ``max_iterations``
    assert SearchBot(smart, 16).budget(2) == 16  # without a turn budget: a fixed count


def test_with_two_piles_empty_the_last_card_of_a_pile_is_weighed():
    st = next(s for s in map(_buy_position, range(41, 60)) if "Gardens" not in s.kingdom)  # no Coppers weighed
    kingdom = sorted(st.kingdom)
    st.supply[kingdom[0]] = 0
    st.supply[kingdom[1]] = 0
    st.supply["Silver"] = 1  # buying it would end the game
    st.coins = 3
    view = PlayerView(st, st.current)
    assert {"act": "buy", "card": "Silver"} in buy_candidates(view, {"act": "end_turn"})
    assert {"act": "buy", "card": "Copper"} not in buy_candidates(view, {"act": "end_turn"})
    st.supply["Copper"] = 1  # even a Copper, when it is the last
    assert {"act": "buy", "card": "Copper"} in buy_candidates(PlayerView(st, st.current), {"act": "end_turn"})
