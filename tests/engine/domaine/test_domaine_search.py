"""The Domaine search bot (``games.engine.domaine.search``): it sees only its seat's view, and the levels."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games.engine.domaine.bots import BOTS, GREEDY, LEVELS, greedy_bot
from games.engine.domaine.cards import CARDS
from games.engine.domaine.engine import ENGINE, PlayerView
from games.engine.domaine.search import SearchBot, determinize
from games.engine.domaine.state import PLAY, State


def _play_position(seed: int, turns: int) -> State:
    """A two-player game played by ``greedy`` to the play step of turn ``turns``."""
    st = ENGINE.new_game({}, 2, seed)
    rng = random.Random(seed)
    while not (st.step == PLAY and st.turns >= turns):
        p = st.turn_player
        ENGINE.apply(st, p, greedy_bot(PlayerView(st, p), rng))
    return st


def _hidden_swapped(st: State, seed: int) -> State:
    """A copy of ``st`` differing only in what the player to move cannot see: the other hand
    trades cards with the deck, and the deck is reordered."""
    twin = st.copy()
    me = st.turn_player
    other = twin.players[1 - me]
    rng = random.Random(seed)
    pool = other.hand + twin.deck
    rng.shuffle(pool)
    other.hand, twin.deck = pool[: len(other.hand)], pool[len(other.hand) :]
    return twin


@pytest.mark.parametrize("bot", [SearchBot(GREEDY, 8), BOTS["level5"]], ids=["greedy-search", "level5"])
def test_two_states_differing_only_in_hidden_cards_give_the_same_move(bot):
    for seed, turns in ((1, 6), (2, 11)):
        st = _play_position(seed, turns)
        twin = _hidden_swapped(st, seed)
        me = st.turn_player
        assert (twin.players[1 - me].hand, twin.deck) != (st.players[1 - me].hand, st.deck)
        view, twin_view = PlayerView(st, me), PlayerView(twin, me)
        move = bot(view, random.Random(4))
        assert move == bot(twin_view, random.Random(4))
        ENGINE.check(st, me, move)
        a, b = determinize(view, random.Random(3)), determinize(twin_view, random.Random(3))
        assert a.key() == b.key()


def test_a_determinization_fills_the_deck_by_letter_and_keeps_what_the_bot_sees():
    st = _play_position(5, 9)
    me = st.turn_player
    det = determinize(PlayerView(st, me), random.Random(2))
    assert det.players[me].hand == st.players[me].hand and det.display == st.display
    assert len(det.deck) == len(st.deck) and "?" not in det.deck
    assert [CARDS[c].letter for c in det.deck] == [CARDS[c].letter for c in st.deck]
    assert len(det.players[1 - me].hand) == len(st.players[1 - me].hand)
    assert (bytes(det.board.border), det.board.castle, det.board.knight) == (
        bytes(st.board.border),
        st.board.castle,
        st.board.knight,
    )
    # No card is both in the bot's hand or the display and in a sampled hidden place beyond its copies.
    placed = (
        Counter(det.deck) + Counter(det.players[1 - me].hand) + Counter(det.players[me].hand) + Counter(det.display)
    )
    assert all(k <= CARDS[c].copies for c, k in placed.items())
    assert det.turns == st.turns


def test_five_levels_are_bots_and_the_stored_names_still_work():
    assert [name for name, _title, _text in LEVELS] == ["level1", "level2", "level3", "level4", "level5"]
    for name in ("random", "greedy", "level1", "level2", "level3", "level4", "level5"):
        assert callable(BOTS[name])
