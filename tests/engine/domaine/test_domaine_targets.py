"""Legal targets for partial moves agree with the move checker."""

from __future__ import annotations

import random

import pytest

from games.engine.core import IllegalMove
from games.engine.domaine.board import EDGE_NAME
from games.engine.domaine.bots import BOTS
from games.engine.domaine.engine import ENGINE

from .helpers import TWO_DOMAINS, make


def test_border_targets_match_check():
    st = make(**TWO_DOMAINS, players_state=[{"gold": 7, "hand": ["A2"]}, {"gold": 7, "hand": []}])
    t = ENGINE.targets(st, 0, {"act": "play", "card": "A2", "option": 0})
    assert t["part"] == "borders" and t["remaining"] == 2
    legal = set(t["choices"])
    assert "B1-B2" not in legal and "A2-A3" not in legal  # inside the domain of B2
    for name in EDGE_NAME:
        move = {"act": "play", "card": "A2", "option": 0, "borders": [name]}
        try:
            ENGINE.check(st, 0, move)
            ok = True
        except IllegalMove:
            ok = False
        assert ok == (name in legal), name
    t2 = ENGINE.targets(st, 0, {"act": "play", "card": "A2", "option": 0, "borders": ["E5-E6"]})
    assert t2["remaining"] == 1 and "E5-E6" not in t2["choices"]
    assert ENGINE.targets(st, 0, {"act": "play", "card": "A2", "option": 0, "borders": ["E5-E6", "E6-E7"]}) == {
        "part": None
    }


def test_partial_play_breaking_a_rule_is_refused_with_the_rule():
    st = make(**TWO_DOMAINS, players_state=[{"gold": 7, "hand": ["A2"]}, {"gold": 7, "hand": []}])
    with pytest.raises(IllegalMove) as err:
        ENGINE.targets(st, 0, {"act": "play", "card": "A2", "option": 0, "borders": ["C1-C2"]})
    assert err.value.reason == "C1-C2 lies inside the domain of the castle on B2."


def test_expand_targets_domain_then_squares():
    st = make(
        castles={"B2": 0, "E2": 1, "H8": 0, "J10": 1},
        knights={"A2": 0, "B3": 0, "C2": 0, "E1": 1, "D3": 1},
        borders=TWO_DOMAINS["borders"],
        players_state=[{"gold": 7, "hand": ["B4"]}, {"gold": 7, "hand": []}],
    )
    t = ENGINE.targets(st, 0, {"act": "play", "card": "B4", "option": 0})
    assert t == {"part": "domain", "remaining": 1, "choices": ["B2"]}
    t = ENGINE.targets(st, 0, {"act": "play", "card": "B4", "option": 0, "domain": "B2", "squares": []})
    assert "D3" not in t["choices"] and {"D1", "D2", "A4", "B4", "C4"} <= set(t["choices"])
    t = ENGINE.targets(st, 0, {"act": "play", "card": "B4", "option": 0, "domain": "B2", "squares": ["D2"]})
    assert "E2" not in t["choices"]  # castle


def test_desertion_and_alliance_targets():
    st = make(
        castles={"B2": 0, "E2": 1, "H8": 0, "J10": 1},
        knights={"A2": 0, "E1": 1, "F3": 1, "J11": 1},
        borders=TWO_DOMAINS["borders"],
        players_state=[{"gold": 7, "hand": ["B5", "C5"]}, {"gold": 7, "hand": []}],
    )
    t = ENGINE.targets(st, 0, {"act": "play", "card": "B5", "option": 0})
    assert t["part"] == "remove" and t["choices"] == ["E1", "F3"]
    t = ENGINE.targets(st, 0, {"act": "play", "card": "B5", "option": 0, "remove": "E1"})
    assert t["part"] == "knight" and "C2" in t["choices"] and "A1" in t["choices"]
    t = ENGINE.targets(st, 0, {"act": "play", "card": "C5", "option": 0})
    assert t["choices"] == ["B2"]
    t = ENGINE.targets(st, 0, {"act": "play", "card": "C5", "option": 0, "domain": "B2"})
    assert t["choices"] == ["E2"]


def test_setup_targets():
    st = ENGINE.new_game({}, 2, 3)
    t = ENGINE.targets(st, 0, {"act": "place_castle"})
    assert t["part"] == "at" and t["choices"]
    at = t["choices"][0]
    t2 = ENGINE.targets(st, 0, {"act": "place_castle", "at": at})
    assert t2["part"] == "knight"
    ENGINE.check(st, 0, {"act": "place_castle", "at": at, "knight": t2["choices"][0]})


def test_every_single_part_legal_move_is_accepted_in_random_games():
    rng = random.Random(3)
    st = ENGINE.new_game({}, 2, 21)
    checked = 0
    while not ENGINE.is_over(st) and checked < 1500:
        p = st.turn_player
        moves = ENGINE.legal_moves(st, p)
        assert moves
        for m in rng.sample(moves, min(8, len(moves))):
            ENGINE.check(st, p, m)
            checked += 1
        ENGINE.apply(st, p, BOTS["random"](ENGINE.player_view(st, p), rng))
    assert checked > 200
