"""Properties over random games: they end, replay, keep the limits, derive
domains consistently, and never leak secrets."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from games.engine.core import IllegalMove
from games.engine.domaine import actions as A
from games.engine.domaine import bots as B
from games.engine.domaine import rules
from games.engine.domaine.board import NSQ
from games.engine.domaine.bots import BOTS
from games.engine.domaine.engine import ENGINE, PlayerView, setup_colour
from games.engine.domaine.state import State

MAX_MOVES = 3000


def partition(d):
    return sorted(tuple(a) for a in d.areas)


def check_invariants(st: State) -> None:
    """Limits of the components, and cached derivation equal to a fresh one."""
    b = st.board
    assert b.borders_on_board == sum(b.border) <= rules.BORDER_MARKERS
    for c in range(st.n):
        assert b.knights_on_board(c) <= rules.KNIGHTS_PER_COLOUR
        assert b.castles_on_board(c) <= st.castles_per_player
        assert st.players[c].gold >= 0
    cached, fresh = b.derived(), b.derived_from_scratch()
    assert partition(cached) == partition(fresh)
    assert {c: (d.owner, d.squares, d.knights) for c, d in cached.domains.items()} == {
        c: (d.owner, d.squares, d.knights) for c, d in fresh.domains.items()
    }
    assert cached.scores == fresh.scores


def run_game(players: int, seed: int, bots=("random",), check_every: int = 1):
    """Play a game with bots; return (final state, moves made)."""
    rng = random.Random(seed)
    st = ENGINE.new_game({}, players, seed)
    moves = []
    names = [bots[i % len(bots)] for i in range(players)]
    for k in range(MAX_MOVES):
        if ENGINE.is_over(st):
            break
        (dec,) = ENGINE.pending(st)
        p = dec.player
        move = BOTS[names[p]](ENGINE.player_view(st, p), rng)
        ENGINE.apply(st, p, move)
        moves.append((p, move))
        if k % check_every == 0:
            check_invariants(st)
    return st, moves


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_always_end(players):
    for seed in range(6):
        st, moves = run_game(players, 100 * players + seed, check_every=3)
        assert ENGINE.is_over(st), f"seed {seed} did not end in {MAX_MOVES} moves"
        res = ENGINE.result(st)
        assert res.winners and all(1 <= r <= players for r in res.ranks)


@settings(
    max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(seed=hs.integers(0, 10**9), players=hs.integers(2, 4))
def test_replay_from_seed_reproduces_the_state(seed, players):
    st, moves = run_game(players, seed, bots=("greedy", "random"), check_every=7)
    again = ENGINE.new_game({}, players, seed)
    for p, move in moves:
        ENGINE.apply(again, p, move)
    assert again.key() == st.key()
    assert ENGINE.view(again, None) == ENGINE.view(st, None)


def test_illegal_moves_change_nothing():
    rng = random.Random(5)
    st = ENGINE.new_game({}, 2, 5)
    tried = tried_late = 0
    for _ in range(400):
        if ENGINE.is_over(st):
            break
        p = st.turn_player
        key = st.key()
        for bad in (
            {"act": "play", "card": "A1", "option": 0, "borders": ["A1-B1", "A1-B1"]},
            {"act": "take", "card": "ZZ"},
            {"act": "sell", "card": "D9"},
            {"act": "place_castle", "at": "A1", "knight": "L12"},
        ):
            try:
                ENGINE.apply(st, p, bad)
            except IllegalMove:
                tried += 1
                assert st.key() == key
        for bad in _legal_then_illegal(st, p):
            with pytest.raises(IllegalMove):
                ENGINE.apply(st, p, bad)
            tried_late += 1
            assert st.key() == key, bad
        with pytest.raises(IllegalMove):
            ENGINE.apply(st, 1 - p, {"act": "take", "from": "deck"})
        assert st.key() == key
        ENGINE.apply(st, p, BOTS["random"](ENGINE.player_view(st, p), rng))
    assert tried > 100 and tried_late > 100


def _legal_then_illegal(st: State, p: int) -> list[dict]:
    """Moves whose first part is legal and whose last is not, made from ``legal_moves``.

    They get past the first checks, so an engine that changed the state
    before its last check would be caught (a castle placed, then its knight
    refused; a border placed, then the next one refused).
    """
    out = []
    for m in ENGINE.legal_moves(st, p)[:40]:
        if m["act"] == "place_castle":
            out.append({**m, "knight": "L12" if m["at"] not in ("L11", "K12", "L12") else "A1"})
        elif m["act"] == "play" and m.get("borders"):
            out.append({**m, "borders": m["borders"] + m["borders"]})  # the same edge twice
        elif m["act"] == "play" and m.get("knights"):
            out.append({**m, "knights": m["knights"] + m["knights"]})  # the same square twice
        elif m["act"] == "play" and m.get("squares"):
            out.append({**m, "squares": m["squares"] + [m["domain"]]})  # the castle's own square
    return out[::7]


def test_no_view_leaks_a_hand_or_the_deck_order():
    st, _ = run_game(3, 9, bots=("random",), check_every=50)
    # Replay to a mid-game position.
    rng = random.Random(1)
    st = ENGINE.new_game({}, 3, 9)
    events = []
    for _ in range(120):
        p = st.turn_player
        events += ENGINE.apply(st, p, BOTS["random"](ENGINE.player_view(st, p), rng))
    assert not ENGINE.is_over(st)
    for viewer in (None, 0, 1, 2):
        v = ENGINE.view(st, viewer)
        json.dumps(v)
        assert "deck" not in v and v["deck_size"] == len(st.deck)
        for i, pl in enumerate(v["players"]):
            assert ("hand" in pl) == (i == viewer)
            assert pl["hand_size"] == len(st.players[i].hand)
        for e in events:
            seen = e.for_viewer(viewer)
            if e.kind == "take" and e.data["from"] == "deck" and e.player != viewer:
                assert "card" not in seen
        pv = PlayerView(st, viewer if viewer is not None else 0)
        assert set(pv.state.deck) <= {"?"}
        assert all(set(p.hand) <= {"?"} for i, p in enumerate(pv.state.players) if i != pv.player)
    # After the end everything is visible.
    while not ENGINE.is_over(st):
        p = st.turn_player
        ENGINE.apply(st, p, BOTS["random"](ENGINE.player_view(st, p), rng))
    v = ENGINE.view(st, None)
    assert all("hand" in pl for pl in v["players"]) and "deck" in v


def test_state_pickles_and_copies():
    import pickle

    st, _ = run_game(2, 3, bots=("greedy",), check_every=100)
    again = pickle.loads(pickle.dumps(st))
    assert again.key() == st.key()
    assert st.copy().key() == st.key()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_shortcuts_agree_with_the_plain_computation(players):
    """The speed-ups answer as the plain rules would, position after position:
    the legal border mask is the legal border list, the setup candidates are
    the squares ``_castle_square_ok`` accepts, greedy's placement is the best
    of the listed legal moves, and greedy's expansion score
    (worked out from the parts when an area falls apart) is the score of a
    copy with the expansion played."""
    rng = random.Random(players)
    checked = 0
    for seed in range(2):
        st = ENGINE.new_game({}, players, 40 + seed)
        names = ["greedy", "random"] * 2
        while not ENGINE.is_over(st):
            b = st.board
            if st.step == "setup":
                colour = setup_colour(st)
                gold = None if colour == rules.NEUTRAL else st.players[st.turn_player].gold
                cands, _own = A._setup_candidates(b, colour, gold, st.rules)
                assert cands == [s for s in range(NSQ) if A._castle_square_ok(b, colour, s, gold, st.rules)]
                assert B.greedy_setup(st, st.turn_player) == B.GREEDY._setup_listed(st, st.turn_player)
            else:
                assert A.legal_border_mask(b) == sum(1 << e for e in A.legal_border_edges(b))
                for me in range(players):
                    for c in A.own_domains(b, me):
                        for s in A.expand_squares(b, st.alliances, me, c):
                            played = b.copy()
                            A.take_square(played, c, s)
                            assert B.expansion_diff(b, me, players, c, s) == B.score_diff(played, me, players)
                            checked += 1
            p = st.turn_player
            ENGINE.apply(st, p, BOTS[names[(p + seed) % 2]](PlayerView(st, p), rng))
    assert checked > 100


def test_a_state_copy_holds_every_field_and_shares_no_list():
    """``State.copy`` sets each field itself (not through ``__init__``): a field
    added later and forgotten there would be missing from every bot's view."""
    st, _moves = run_game(3, 5, bots=("greedy", "random"), check_every=50)
    st.display.append("A1")
    st.bonuses = [1, 2, 3]
    st.alliances.append((0, 1))
    copied = st.copy()
    for f in dataclasses.fields(State):
        assert getattr(copied, f.name) == getattr(st, f.name), f.name
    for name in ("deck", "display", "alliances", "bonuses"):
        assert getattr(copied, name) is not getattr(st, name)
    assert all(p.hand is not q.hand for p, q in zip(copied.players, st.players, strict=True))
    assert copied.board is not st.board and copied.rng is not st.rng
