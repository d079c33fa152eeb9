"""One test per rule of shared/rules/domaine.md, named after the rule."""

from __future__ import annotations

import pickle

import pytest

from games.engine.core import IllegalMove, Rng
from games.engine.domaine import actions as A
from games.engine.domaine import rules
from games.engine.domaine.board import SQ_INDEX, Board, deal_terrain, terrain_rows
from games.engine.domaine.engine import ENGINE, gold_bonuses, new_state

from .helpers import TWO_DOMAINS, board_with, domain, make, play, report


def refused(state, player, code=None, **move):
    """Assert the move is refused (with ``code`` if given) and changes nothing."""
    before = pickle.dumps(state.key())
    if "from_" in move:
        move["from"] = move.pop("from_")
    with pytest.raises(IllegalMove) as err:
        ENGINE.apply(state, player, move)
    assert pickle.dumps(state.key()) == before
    if code:
        assert err.value.code == code, err.value.reason
    return err.value.reason


# --- Components and the deal -----------------------------------------------------


def test_board_dealt_from_seed_centre_tile_in_centre_and_totals_kept():
    a, b = new_state(2, 7), new_state(2, 7)
    assert a.board.terrain == b.board.terrain and a.deck == b.deck
    assert new_state(2, 8).board.terrain != a.board.terrain
    rows = terrain_rows(a.board.terrain)
    centre = "".join(rows[r][4:8] for r in range(4, 8))
    assert "R" in centre
    t = a.board.terrain
    assert (t.count("."), t.count("F"), t.count("V"), t.count("R")) == (65, 44, 18, 1)
    assert all(t.count(m) == 4 for m in "gscd")


def test_tiles_are_turned_by_the_seed():
    seen = {deal_terrain(Rng(s))[:4] for s in range(40)}
    assert len(seen) > 4


def test_deck_a_on_top_d_at_bottom_each_letter_shuffled_three_cards_each():
    st = new_state(3, 5)
    cards = [c for p in st.players for c in p.hand] + st.deck
    assert len(cards) == 60
    letters = [c[0] for c in cards]
    assert letters == sorted(letters)
    assert all(len(p.hand) == 3 and all(c[0] == "A" for c in p.hand) for p in st.players)
    assert new_state(3, 6).deck != st.deck


def test_targets_per_player_count():
    assert [new_state(n, 1).target for n in (2, 3, 4)] == [50, 40, 30]


# --- Setup --------------------------------------------------------------------------


def test_v1_setup_castle_and_knight_on_forest_costs_a_gold():
    st = make(1, board=board_with(("C4", "F")), turn={"player": 0, "step": "setup"})
    events = play(st, 0, act="place_castle", at="C3", knight="C4")
    assert st.players[0].gold == 6 and events[0].data["paid"] == 1
    assert report(st)["domains"] == [] and st.scores() == [0, 0]


def test_setup_knight_on_forest_is_free():
    st = make(board=board_with(("C4", "F")), turn={"player": 0, "step": "setup"})
    events = play(st, 0, act="place_castle", at="C3", knight="C4")
    assert st.players[0].gold == 7 and events[0].data["paid"] == 0
    assert report(st)["domains"] == [] and st.scores() == [0, 0]


def test_setup_castle_needs_a_meadow_and_an_adjacent_knight():
    st = make(board=board_with(("C3", "V")), turn={"player": 0, "step": "setup"})
    refused(st, 0, "castle_terrain", act="place_castle", at="C3", knight="C4")
    refused(st, 0, "knight_not_adjacent", act="place_castle", at="D3", knight="F3")
    refused(st, 0, "bad_part", act="place_castle", at="D3")


def test_castle_distance_six_from_same_colour_only():
    st = make(castles={"B2": 0, "C2": 1}, knights={"B3": 0, "C3": 1}, turn={"player": 0, "step": "setup"})
    assert "closer than 6" in refused(st, 0, "castle_too_close", act="place_castle", at="D5", knight="D6")
    play(st, 0, act="place_castle", at="E5", knight="E6")  # 3 + 3 = 6 from B2
    play(st, 1, act="place_castle", at="F5", knight="G5")  # next to another colour's castle: allowed


def test_v1_castle_distance_seven_from_same_colour_only():
    st = make(1, castles={"B2": 0, "C2": 1}, knights={"B3": 0, "C3": 1}, turn={"player": 0, "step": "setup"})
    assert "closer than 7" in refused(st, 0, "castle_too_close", act="place_castle", at="E5", knight="E6")
    play(st, 0, act="place_castle", at="E6", knight="E7")  # 3 + 4 = 7 from B2; next to nothing of its own
    play(st, 1, act="place_castle", at="F6", knight="G6")  # next to another colour's castle: allowed


def test_distance_fallback_to_five_when_no_square_at_six():
    # Only meadows: A1 (castle), B1 (its knight), E1 and F1; F2 is a forest.
    rows = ["V" * 12 for _ in range(12)]
    rows[0] = "..VV..VVVVVV"
    rows[1] = "VVVVVFVVVVVV"
    st = make(board=rows, castles={"A1": 0}, knights={"B1": 0}, turn={"player": 0, "step": "setup"})
    assert A.setup_distance(st.board, 0, 7, st.rules) == 5
    assert ENGINE.pending(st)[0].params["distance"] == 5
    refused(st, 0, "castle_too_close", act="place_castle", at="E1", knight="F1")  # 4 squares
    play(st, 0, act="place_castle", at="F1", knight="F2")  # 5 squares: allowed by the fallback
    assert st.players[0].gold == 7  # the setup knight is free on a forest


def test_v1_distance_fallback_to_six_when_no_square_at_seven():
    # Only meadows: A1 (castle), B1 (its knight), F1 and G1; G2 is a forest.
    rows = ["V" * 12 for _ in range(12)]
    rows[0] = "..VVV..VVVVV"
    rows[1] = "VVVVVVFVVVVV"
    st = make(1, board=rows, castles={"A1": 0}, knights={"B1": 0}, turn={"player": 0, "step": "setup"})
    assert A.setup_distance(st.board, 0, 7, st.rules) == 6
    assert ENGINE.pending(st)[0].params["distance"] == 6
    refused(st, 0, "castle_too_close", act="place_castle", at="F1", knight="G1")  # 5 squares
    play(st, 0, act="place_castle", at="G1", knight="G2")  # 6 squares: allowed by the fallback
    assert st.players[0].gold == 6


def test_setup_rounds_in_seat_order_then_play_in_reverse_order_with_income():
    st = ENGINE.new_game({}, 3, 11)
    order = []
    while st.step == "setup":
        p = st.turn_player
        order.append(p)
        play(st, p, **ENGINE.legal_moves(st, p)[0])
    assert order == [0, 1, 2] * 4
    assert st.turn_player == 2 and st.step == "play"
    assert [ENGINE.view(st, None)["players"][i]["castles_left"] for i in range(3)] == [0, 0, 0]
    play(st, 2, act="sell", card=st.players[2].hand[0])
    play(st, 2, act="take", from_="deck")
    assert st.turn_player == 1


def test_four_players_place_three_castles_each():
    st = ENGINE.new_game({}, 4, 3)
    n = 0
    while st.step == "setup":
        play(st, st.turn_player, **ENGINE.legal_moves(st, st.turn_player)[0])
        n += 1
    assert n == 12 and st.turn_player == 3


def test_two_player_neutral_castles_placed_alternately_after_own_castles():
    st = ENGINE.new_game({}, 2, 4)
    placers = []
    while st.step == "setup":
        p = st.turn_player
        dec = ENGINE.pending(st)[0]
        placers.append((p, dec.params["neutral"]))
        play(st, p, **ENGINE.legal_moves(st, p)[0])
    assert placers == [(0, False), (1, False)] * 4 + [(0, True), (1, True)] * 2
    neutral = [s for s in range(144) if st.board.castle[s] == rules.NEUTRAL]
    assert len(neutral) == 4
    for a in neutral:
        for b in neutral:
            if a < b:
                assert abs(a // 12 - b // 12) + abs(a % 12 - b % 12) >= 6
    assert st.board.knights_on_board(rules.NEUTRAL) == 0
    assert st.turn_player == 1 and st.step == "play"  # seat 1 placed the last own castle


def test_neutral_castle_needs_place_neutral_and_no_knight():
    st = make(
        castles={"A1": 0, "H1": 0, "A8": 0, "H8": 0, "C12": 1, "L1": 1, "L6": 1, "E5": 1},
        knights={"A2": 0, "H2": 0, "A9": 0, "H9": 0, "D12": 1, "L2": 1, "L7": 1, "E6": 1},
        turn={"player": 0, "step": "setup"},
    )
    refused(st, 0, "wrong_act", act="place_castle", at="C3", knight="C4")
    refused(st, 0, "bad_part", act="place_neutral", at="C3", knight="C4")
    play(st, 0, act="place_neutral", at="C3")
    assert st.turn_player == 1 and report(st)["turn"]["step"] == "setup"


# --- Borders --------------------------------------------------------------------------


def test_border_between_same_colour_pieces_refused():
    st = make(castles={"C3": 0, "H8": 1}, knights={"C4": 0, "H9": 1})
    assert "same colour" in refused(st, 0, "border_same_colour", act="play", card="A1", option=0, borders=["C3-C4"])


def test_border_between_two_colours_allowed():
    st = make(castles={"C3": 0, "H8": 1}, knights={"D3": 1, "H9": 1})
    play(st, 0, act="play", card="A1", option=0, borders=["C3-D3"])
    assert report(st)["borders"] == ["C3-D3"]


def test_border_inside_a_domain_refused_with_its_castle():
    st = make(**TWO_DOMAINS)
    reason = refused(st, 0, "border_in_domain", act="play", card="A1", option=0, borders=["B1-B2"])
    assert reason == "B1-B2 lies inside the domain of the castle on B2."


def test_border_inside_neutral_zone_and_open_land_allowed():
    st = make(
        castles={"B2": 0, "C2": 1, "H8": 0, "J10": 1},
        knights={"A2": 0, "C1": 1, "H9": 0, "J11": 1},
        borders=[
            "A3-A4",
            "B3-B4",
            "C3-C4",
            "C1-D1",
            "C2-D2",
            "C3-D3",
            "A9-A10",
            "B9-B10",
            "B10-C10",
            "B11-C11",
            "B12-C12",
        ],
    )
    assert report(st)["neutral_zones"] == [["A10", "A11", "A12", "B10", "B11", "B12"]]
    play(st, 0, act="play", card="A2", option=0, borders=["A11-B11", "B2-B3"])
    assert "A11-B11" in report(st)["borders"] and "B2-B3" in report(st)["borders"]


def test_border_on_border_or_rim_or_non_edge_refused():
    st = make(borders=["E5-E6"])
    refused(st, 0, "border_taken", act="play", card="A1", option=0, borders=["E5-E6"])
    refused(st, 0, "bad_square", act="play", card="A1", option=0, borders=["A1-A0"])
    refused(st, 0, "bad_edge", act="play", card="A1", option=0, borders=["A1-C1"])


def test_border_markers_never_exceed_one_hundred():
    edges = [f"{c}{r}-{c}{r + 1}" for c in "ABCDEFGHIJ" for r in range(1, 11)]
    st = make(borders=edges, castles={"L1": 0, "L12": 1}, knights={"L2": 0, "L11": 1})
    assert report(st)["borders_left"] == 0
    refused(st, 0, "no_markers", act="play", card="A1", option=0, borders=["K1-K2"])


def test_borders_up_to_card_number():
    st = make()
    refused(st, 0, "too_many", act="play", card="A1", option=0, borders=["E5-E6", "E7-E8"])
    play(st, 0, act="play", card="A1", option=0, borders=[])  # "up to": even none; the cost is paid
    assert st.players[0].gold == 6 and st.step == "take"


def test_play_is_atomic_gold_included():
    st = make(players_state=[{"gold": 3, "hand": ["A5", "A1", "A3"]}, {"gold": 7, "hand": ["A2"]}], borders=["E7-E8"])
    refused(st, 0, "border_taken", act="play", card="A5", option=0, borders=["E5-E6", "E6-E7", "E7-E8"])
    assert st.players[0].gold == 3 and report(st)["borders"] == ["E7-E8"]


def test_border_closing_domain_scores_at_once_and_open_land_scores_nothing():
    st = make(
        board=board_with(("A1", "V"), ("C2", "F")),
        castles={"B2": 0, "C3": 1, "H8": 0, "J10": 1},
        knights={"A2": 0, "H9": 0, "J11": 1},
        borders=["A3-A4", "B3-B4", "C3-C4", "C1-D1", "C2-D2"],
    )
    play(st, 0, act="play", card="A1", option=0, borders=["C3-D3"])
    assert report(st)["domains"] == [] and st.scores() == [0, 0]  # two castles: open land


# --- Knights ---------------------------------------------------------------------------


def test_knight_forest_costs_a_gold_and_second_may_join_the_first():
    st = make(
        board=board_with(("C2", "F")),
        castles={"B2": 0, "H8": 1},
        knights={"H9": 1},
        players_state=[{"gold": 5, "hand": ["B3"]}, {"gold": 7, "hand": []}],
    )
    play(st, 0, act="play", card="B3", option=0, knights=["C2", "D2"])
    assert st.players[0].gold == 0 and report(st)["players"][0]["knights_left"] == 13


def test_knight_forest_surcharge_must_be_affordable():
    st = make(
        board=board_with(("C2", "F")),
        castles={"B2": 0, "H8": 1},
        knights={"H9": 1},
        players_state=[{"gold": 4, "hand": ["B3"]}, {"gold": 7, "hand": []}],
    )
    refused(st, 0, "no_gold", act="play", card="B3", option=0, knights=["C2"])


def test_knight_across_border_refused():
    st = make(castles={"C3": 0, "H8": 1}, knights={"H9": 1}, borders=["C3-D3"])
    refused(st, 0, "knight_not_linked", act="play", card="A3", option=0, knights=["D3"])


@pytest.mark.parametrize("terrain", ["V", "g", "R"])
def test_knight_not_on_village_mine_or_royal_city(terrain):
    st = make(board=board_with(("D3", terrain)), castles={"C3": 0, "H8": 1}, knights={"H9": 1})
    refused(st, 0, "knight_terrain", act="play", card="A3", option=0, knights=["D3"])


def test_knight_one_piece_per_square():
    st = make(castles={"C3": 0, "H8": 1}, knights={"D3": 1, "H9": 1})
    refused(st, 0, "square_taken", act="play", card="A3", option=0, knights=["D3"])


def test_knight_limit_fifteen_per_colour():
    knights = {f"{c}1": 0 for c in "ABCDEFGHIJKL"} | {"A2": 0, "A3": 0, "A4": 0, "J10": 1}
    st = make(castles={"B2": 0, "J9": 1}, knights=knights)
    refused(st, 0, "no_knights", act="play", card="A3", option=0, knights=["C2"])


def test_knights_may_stand_in_open_land():
    st = make(castles={"C3": 0, "E3": 1}, knights={"D3": 1})
    play(st, 0, act="play", card="A3", option=0, knights=["C4"])
    assert st.board.knight[SQ_INDEX["C4"]] == 0


# --- Expand --------------------------------------------------------------------------------


def test_expansion_from_open_land_moves_borders():
    st = make(
        board=board_with(("D2", "V"), ("D3", "F")),
        castles={"B2": 0, "H5": 0, "J9": 1},
        knights={"B3": 0, "J10": 1},
        borders=["A3-A4", "B3-B4", "C1-D1", "C2-D2", "C3-C4", "C3-D3"],
        players_state=[{"gold": 7, "hand": ["B4"]}, {"gold": 7, "hand": []}],
    )
    play(st, 0, act="play", card="B4", option=0, domain="B2", squares=["D2", "D3"])
    r = report(st)
    assert r["borders"] == ["A3-A4", "B3-B4", "C1-D1", "C3-C4", "D1-D2", "D2-E2", "D3-D4", "D3-E3"]
    assert r["players"][0]["score"] == 4


def test_expansion_needs_strictly_more_knights():
    st = make(
        castles={"B2": 0, "E2": 1, "H8": 0, "J10": 1},
        knights={"A2": 0, "B3": 0, "E1": 1, "F2": 1},
        borders=TWO_DOMAINS["borders"],
        players_state=[{"gold": 7, "hand": ["B4"]}, {"gold": 7, "hand": []}],
    )
    refused(st, 0, "not_enough_knights", act="play", card="B4", option=0, domain="B2", squares=["D3"])
    st = make(
        castles={"B2": 0, "E2": 1, "H8": 0, "J10": 1},
        knights={"A2": 0, "B3": 0, "C2": 0, "E1": 1, "F2": 1},
        borders=TWO_DOMAINS["borders"],
        players_state=[{"gold": 7, "hand": ["B4"]}, {"gold": 7, "hand": []}],
    )
    play(st, 0, act="play", card="B4", option=0, domain="B2", squares=["D3"])
    assert "D3" in domain(st, "B2")["squares"] and "D3" not in domain(st, "E2")["squares"]


def test_expansion_onto_a_defending_knight_refused():
    st = make(
        castles={"B2": 0, "E2": 1, "H8": 0, "J10": 1},
        knights={"A2": 0, "B3": 0, "C2": 0, "D3": 1, "E1": 1},
        borders=TWO_DOMAINS["borders"],
        players_state=[{"gold": 7, "hand": ["B4"]}, {"gold": 7, "hand": []}],
    )
    refused(st, 0, "defended_square", act="play", card="B4", option=0, domain="B2", squares=["D3"])


def test_expansion_never_into_own_other_domain_or_onto_a_castle():
    st = make(
        castles={"B2": 0, "E2": 0, "H8": 1, "J10": 1},
        knights={"A2": 0, "B3": 0, "E1": 0},
        borders=TWO_DOMAINS["borders"],
        players_state=[{"gold": 7, "hand": ["B4"]}, {"gold": 7, "hand": []}],
    )
    refused(st, 0, "own_domain", act="play", card="B4", option=0, domain="B2", squares=["D2"])
    st = make(
        castles={"B2": 0, "D2": 1, "H8": 0, "J10": 1},
        knights={"A2": 0, "B3": 0, "E1": 1},
        borders=TWO_DOMAINS["borders"],
        players_state=[{"gold": 7, "hand": ["B4"]}, {"gold": 7, "hand": []}],
    )
    refused(st, 0, "square_has_castle", act="play", card="B4", option=0, domain="B2", squares=["D2"])


def test_expansion_squares_must_touch_the_domain_as_it_grows():
    st = make(**TWO_DOMAINS, players_state=[{"gold": 7, "hand": ["B4"]}, {"gold": 7, "hand": []}])
    refused(st, 0, "not_adjacent", act="play", card="B4", option=0, domain="B2", squares=["A5"])
    refused(st, 0, "not_your_domain", act="play", card="B4", option=0, domain="E2", squares=["D4"])
    play(st, 0, act="play", card="B4", option=0, domain="B2", squares=["A4", "A5"])
    assert {"A4", "A5"} <= set(domain(st, "B2")["squares"])


def test_expansion_refused_when_the_supply_is_short():
    edges = [f"{c}{r}-{c}{r + 1}" for c in "FGHIJKL" for r in range(1, 12)] + [
        "A3-A4",
        "B3-B4",
        "C3-C4",
        "C1-D1",
        "C2-D2",
        "C3-D3",
    ]
    edges += [
        "E1-F1",
        "E2-F2",
        "E3-F3",
        "E4-F4",
        "E5-F5",
        "E6-F6",
        "E7-F7",
        "E8-F8",
        "E9-F9",
        "E10-F10",
        "E11-F11",
        "E12-F12",
        "D4-E4",
        "D5-E5",
        "D6-E6",
        "D7-E7",
        "D8-E8",
        "D9-E9",
    ]
    st = make(
        castles={"B2": 0, "K12": 1},
        knights={"A2": 0, "L12": 1},
        borders=edges[:100],
        players_state=[{"gold": 7, "hand": ["B4"]}, {"gold": 7, "hand": []}],
    )
    assert st.board.borders_on_board == 100
    refused(st, 0, "no_markers", act="play", card="B4", option=0, domain="B2", squares=["D2"])


def test_expansion_cut_off_part_becomes_a_neutral_zone():
    st = make(
        board=board_with(("D1", "V"), ("G1", "V"), ("E1", "F"), ("F1", "F")),
        castles={"C9": 0, "E3": 0, "J1": 1, "J9": 1},
        knights={"C10": 0, "D3": 0, "F3": 0, "G3": 0, "H1": 1, "I1": 1, "J10": 1},
        borders=[
            "C1-D1",
            "C2-D2",
            "C3-D3",
            "C4-D4",
            "D1-D2",
            "D4-D5",
            "E1-E2",
            "E4-E5",
            "F1-F2",
            "F4-F5",
            "G1-G2",
            "G2-H2",
            "G3-H3",
            "G4-G5",
            "G4-H4",
            "H1-H2",
            "I1-I2",
            "J1-J2",
            "J1-K1",
        ],
        players_state=[{"gold": 7, "hand": ["B4"]}, {"gold": 7, "hand": []}],
    )
    assert st.scores()[1] == 8
    play(st, 0, act="play", card="B4", option=0, domain="E3", squares=["F1"])
    r = report(st)
    assert r["neutral_zones"] == [["D1", "E1"]]
    assert domain(st, "J1")["squares"] == ["G1", "H1", "I1", "J1"]
    assert st.scores() == [1, 3]  # scores go down as well as up


def test_expansion_into_neutral_domain_needs_one_knight():
    st = make(
        castles={"B2": 0, "E2": "neutral", "H8": 0, "J10": 1},
        knights={"A2": 0, "J11": 1},
        borders=TWO_DOMAINS["borders"],
        players_state=[{"gold": 7, "hand": ["B4"]}, {"gold": 7, "hand": []}],
    )
    play(st, 0, act="play", card="B4", option=0, domain="B2", squares=["D2"])
    assert "D2" in domain(st, "B2")["squares"]


def test_alliance_blocks_expansion_after_its_border_is_gone():
    # Seat 0's B2 (A1..C3) and seat 1's F2 (E1..G3) are allied; column D between them is a neutral zone,
    # so the domains share no border now. B2 takes D2 from the zone, then may not take E2 from its ally.
    st = make(
        castles={"B2": 0, "F2": 1, "H8": 0, "J10": 1},
        knights={"A2": 0, "B3": 0, "C2": 0, "E1": 1},
        borders=[
            "A3-A4",
            "B3-B4",
            "C3-C4",
            "C1-D1",
            "C2-D2",
            "C3-D3",
            "D3-D4",
            "D1-E1",
            "D2-E2",
            "D3-E3",
            "E3-E4",
            "F3-F4",
            "G3-G4",
            "G1-H1",
            "G2-H2",
            "G3-H3",
        ],
        alliances=[["B2", "F2"]],
        players_state=[{"gold": 7, "hand": ["B4"]}, {"gold": 7, "hand": []}],
    )
    assert report(st)["neutral_zones"] == [["D1", "D2", "D3"]]
    assert not A.domains_share_edge(st.board.derived(), SQ_INDEX["B2"], SQ_INDEX["F2"])
    refused(st, 0, "allied", act="play", card="B4", option=0, domain="B2", squares=["D2", "E2"])
    play(st, 0, act="play", card="B4", option=0, domain="B2", squares=["D2"])
    assert report(st)["alliances"] == [["B2", "F2"]]


def test_own_knight_on_a_taken_square_stays():
    st = make(
        castles={"B2": 0, "H8": 0, "J10": 1},
        knights={"A2": 0, "D2": 0, "J11": 1},
        borders=["A3-A4", "B3-B4", "C3-C4", "C1-D1", "C2-D2", "C3-D3"],
        players_state=[{"gold": 7, "hand": ["B4"]}, {"gold": 7, "hand": []}],
    )
    play(st, 0, act="play", card="B4", option=0, domain="B2", squares=["D2"])
    assert st.board.knight[SQ_INDEX["D2"]] == 0 and domain(st, "B2")["knights"] == 2


# --- Desertion --------------------------------------------------------------------------------


def test_desertion_moves_a_knight_home_and_places_one_in_the_receiving_domain():
    st = make(
        castles={"B2": 0, "E2": 1, "H8": 0, "J10": 1},
        knights={"A2": 0, "E1": 1, "F3": 1, "J11": 1},
        borders=TWO_DOMAINS["borders"],
        players_state=[{"gold": 7, "hand": ["B5"]}, {"gold": 7, "hand": []}],
    )
    play(st, 0, act="play", card="B5", option=0, remove="E1", knight="C2")
    assert domain(st, "B2")["knights"] == 2 and domain(st, "E2")["knights"] == 1
    assert report(st)["players"][1]["knights_left"] == 13


def test_desertion_needs_a_shared_border_but_no_knight_in_the_receiving_domain():
    st = make(
        castles={"B2": 0, "E2": 1, "H8": 0, "J10": 1},
        knights={"E1": 1, "J11": 1, "H9": 0},
        borders=TWO_DOMAINS["borders"],
        players_state=[{"gold": 7, "hand": ["B5"]}, {"gold": 7, "hand": []}],
    )
    # The receiving domain B2 holds none of seat 0's knights: the new one goes next to the castle.
    choices = ENGINE.targets(st, 0, {"act": "play", "card": "B5", "option": 0, "remove": "E1"})["choices"]
    assert choices == ["A2", "B1", "B3", "C2"]
    play(st, 0, act="play", card="B5", option=0, remove="E1", knight="C2")
    assert st.board.knight[A.parse_square("C2")] == 0 and st.board.knight[A.parse_square("E1")] == -1
    st = make(
        castles={"B2": 0, "E2": 1, "H8": 0, "J10": 1},
        knights={"A2": 0, "J11": 1, "H9": 0},
        borders=TWO_DOMAINS["borders"],
        players_state=[{"gold": 7, "hand": ["B5"]}, {"gold": 7, "hand": []}],
    )
    refused(st, 0, "knight_not_in_domain", act="play", card="B5", option=0, remove="J11", knight="C2")
    refused(st, 0, "bad_part", act="play", card="B5", option=0, remove="J11")


def test_desertion_needs_an_own_domain_sharing_an_edge():
    # Seat 0's only domain is far from seat 1's: nothing may receive the new knight.
    st = make(
        castles={"B2": 1, "H8": 0, "J10": 1},
        knights={"A2": 1, "H9": 0},
        borders=["A3-A4", "B3-B4", "C1-D1", "C2-D2", "C3-C4", "C3-D3"],
        players_state=[{"gold": 7, "hand": ["B5"]}, {"gold": 7, "hand": []}],
    )
    assert "No domain of yours" in refused(
        st, 0, "no_receiving_domain", act="play", card="B5", option=0, remove="A2", knight="H10"
    )


def test_v1_desertion_needs_a_shared_border_and_a_knight_in_the_receiving_domain():
    st = make(
        1,
        castles={"B2": 0, "E2": 1, "H8": 0, "J10": 1},
        knights={"E1": 1, "J11": 1, "H9": 0},
        borders=TWO_DOMAINS["borders"],
        players_state=[{"gold": 7, "hand": ["B5"]}, {"gold": 7, "hand": []}],
    )
    refused(st, 0, "no_receiving_domain", act="play", card="B5", option=0, remove="E1", knight="C2")
    st = make(
        1,
        castles={"B2": 0, "E2": 1, "H8": 0, "J10": 1},
        knights={"A2": 0, "J11": 1, "H9": 0},
        borders=TWO_DOMAINS["borders"],
        players_state=[{"gold": 7, "hand": ["B5"]}, {"gold": 7, "hand": []}],
    )
    refused(st, 0, "knight_not_in_domain", act="play", card="B5", option=0, remove="J11", knight="C2")
    refused(st, 0, "bad_part", act="play", card="B5", option=0, remove="J11")


def test_alliance_does_not_stop_desertion():
    st = make(
        castles={"B2": 0, "E2": 1, "H8": 0, "J10": 1},
        knights={"A2": 0, "E1": 1, "J11": 1},
        borders=TWO_DOMAINS["borders"],
        alliances=[["B2", "E2"]],
        players_state=[{"gold": 7, "hand": ["B5"]}, {"gold": 7, "hand": []}],
    )
    play(st, 0, act="play", card="B5", option=0, remove="E1", knight="C2")


# --- Alliance ---------------------------------------------------------------------------------


def test_alliance_needs_a_shared_border_and_another_player():
    st = make(
        castles={"B2": 0, "E2": 1, "H8": 0, "J10": 1},
        knights={"A2": 0, "E1": 1, "J11": 1},
        borders=TWO_DOMAINS["borders"] + ["I9-I10", "J9-J10", "K9-K10", "L9-L10", "H10-I10", "H11-I11", "H12-I12"],
        players_state=[{"gold": 7, "hand": ["C5"]}, {"gold": 7, "hand": []}],
    )
    refused(st, 0, "no_shared_edge", act="play", card="C5", option=0, domain="B2", **{"with": "J10"})
    refused(st, 0, "not_your_domain", act="play", card="C5", option=0, domain="E2", **{"with": "B2"})
    play(st, 0, act="play", card="C5", option=0, domain="B2", **{"with": "E2"})
    assert report(st)["alliances"] == [["B2", "E2"]]


def test_alliance_with_the_neutral_colour_refused():
    st = make(
        castles={"B2": 0, "E2": "neutral", "H8": 0, "J10": 1},
        knights={"A2": 0, "J11": 1},
        borders=TWO_DOMAINS["borders"],
        players_state=[{"gold": 7, "hand": ["C5"]}, {"gold": 7, "hand": []}],
    )
    refused(st, 0, "neutral", act="play", card="C5", option=0, domain="B2", **{"with": "E2"})


# --- Cards, income, score ---------------------------------------------------------------------


def test_card_cost_must_be_covered():
    st = make(players_state=[{"gold": 2, "hand": ["A5"]}, {"gold": 7, "hand": []}])
    refused(st, 0, "no_gold", act="play", card="A5", option=0, borders=[])


def test_card_with_a_choice_uses_option_one():
    st = make(
        castles={"C3": 0, "H8": 1},
        knights={"H9": 1},
        players_state=[{"gold": 7, "hand": ["A4"]}, {"gold": 7, "hand": []}],
    )
    refused(st, 0, "bad_part", act="play", card="A4", option=0, borders=["E5-E6"])
    refused(st, 0, "bad_option", act="play", card="A4", option=2)
    play(st, 0, act="play", card="A4", option=1, borders=["E5-E6", "E6-E7"])


def test_income_one_gold_per_mine_kind_and_closed_this_turn_pays_next_turn():
    st = make(
        board=board_with(("A1", "g"), ("C1", "g"), ("B3", "s")),
        castles={"B2": 0, "H8": 0, "J10": 1},
        knights={"A2": 0, "J11": 1},
        borders=["A3-A4", "B3-B4", "C3-C4", "C1-D1", "C2-D2"],
        players_state=[{"gold": 7, "hand": ["A1", "A2"]}, {"gold": 7, "hand": ["A1", "A2", "A3"]}],
    )
    play(st, 0, act="play", card="A1", option=0, borders=["C3-D3"])
    play(st, 0, act="take", from_="deck")
    assert st.players[0].gold == 6  # closed during the turn: nothing yet
    play(st, 1, act="sell", card="A1")
    play(st, 1, act="take", from_="deck")
    assert st.players[0].gold == 8  # gold and silver


def test_mine_majority_counts_over_all_domains():
    st = make(
        board=board_with(("A1", "g"), ("C1", "g"), ("K1", "g")),
        castles={"B2": 0, "K2": 0, "H8": 1},
        knights={"A2": 0, "K3": 0, "H9": 1},
        borders=["A3-A4", "B3-B4", "C3-C4", "C1-D1", "C2-D2", "C3-D3", "I1-J1", "I2-J2", "I3-J3", "J3-J4", "K3-K4"],
    )
    assert st.scores()[0] == 0
    play(st, 0, act="play", card="A1", option=0, borders=["L3-L4"])
    assert st.scores()[0] == 5


def test_sell_then_take_same_card_refused_but_another_copy_allowed():
    st = make(players_state=[{"gold": 7, "hand": ["B4", "A1", "A2"]}, {"gold": 7, "hand": []}], display=["B4"])
    play(st, 0, act="sell", card="B4")
    assert st.players[0].gold == 10
    play(st, 0, act="take", card="B4")  # the copy that was there before
    st = make(players_state=[{"gold": 7, "hand": ["B4", "A1", "A2"]}, {"gold": 7, "hand": []}])
    play(st, 0, act="sell", card="B4")
    refused(st, 0, "just_sold", act="take", card="B4")


def test_take_from_deck_is_secret_to_others():
    st = make()
    play(st, 0, act="sell", card="A1")
    (ev,) = [e for e in play(st, 0, act="take", from_="deck") if e.kind == "take"]
    assert ev.for_viewer(0)["card"] == "B1"
    assert "card" not in ev.for_viewer(1) and "card" not in ev.for_viewer(None)


def test_must_play_or_sell_then_take():
    st = make()
    refused(st, 0, "wrong_act", act="take", from_="deck")
    refused(st, 1, "not_your_turn", act="sell", card="A2")
    play(st, 0, act="sell", card="A1")
    refused(st, 0, "wrong_act", act="sell", card="A2")


# --- End ---------------------------------------------------------------------------------------


def test_below_target_the_game_goes_on():
    rows = board_with(*[(f"{c}1", "V") for c in "BCDEFGHIJKL"], *[(f"{c}2", "V") for c in "BCDEF"])
    st = make(
        board=rows,
        castles={"A1": 0, "F6": 1, "J9": 1},
        knights={"A2": 0, "F5": 1},
        borders=[f"{c}2-{c}3" for c in "ABCDEFGHIJK"],
        players_state=[{"gold": 5, "hand": ["A1", "A2"]}, {"gold": 7, "hand": ["A1"]}],
    )
    play(st, 0, act="play", card="A1", option=0, borders=["L2-L3"])
    assert st.scores()[0] == 48
    play(st, 0, act="take", from_="deck")
    assert not ENGINE.is_over(st) and st.turn_player == 1


def test_target_reached_wins_at_once_without_a_take():
    rows = board_with(*[(f"{c}1", "V") for c in "BCDEFGHIJKL"], *[(f"{c}2", "V") for c in "BCDEFG"])
    st = make(
        board=rows,
        castles={"A1": 0, "F6": 1, "J9": 1},
        knights={"A2": 0, "F5": 1},
        borders=[f"{c}2-{c}3" for c in "ABCDEFGHIJK"],
        players_state=[{"gold": 5, "hand": ["A2"]}, {"gold": 7, "hand": ["A1"]}],
    )
    events = play(st, 0, act="play", card="A2", option=0, borders=["L2-L3", "D5-D6"])
    assert st.scores()[0] == 51 and st.step == "over" and len(st.deck) == 3
    assert [e.kind for e in events] == ["play", "scores", "game_over"]
    assert events[0].data["borders"] == ["L2-L3"]  # the second border is not placed
    res = ENGINE.result(st)
    assert res.winners == [0] and res.details["end"] == "target" and res.details["bonuses"] == [0, 0]
    assert st.players[0].hand == [] and st.players[0].gold == 3


def test_targets_offer_nothing_more_once_a_part_reaches_the_target():
    rows = board_with(*[(f"{c}1", "V") for c in "BCDEFGHIJKL"], *[(f"{c}2", "V") for c in "BCDEFG"])
    st = make(
        board=rows,
        castles={"A1": 0, "F6": 1, "J9": 1},
        knights={"A2": 0, "F5": 1},
        borders=[f"{c}2-{c}3" for c in "ABCDEFGHIJK"],
        players_state=[{"gold": 5, "hand": ["A2"]}, {"gold": 7, "hand": ["A1"]}],
    )
    partial = {"act": "play", "card": "A2", "option": 0, "borders": ["L2-L3"]}
    assert ENGINE.targets(st, 0, partial) == {"part": None}
    assert ENGINE.targets(st, 0, {**partial, "borders": []})["part"] == "borders"


def test_v1_target_reached_wins_after_take():
    rows = board_with(*[(f"{c}1", "V") for c in "BCDEFGHIJKL"], *[(f"{c}2", "V") for c in "BCDEFG"])
    st = make(
        1,
        board=rows,
        castles={"A1": 0, "F6": 1, "J9": 1},
        knights={"A2": 0, "F5": 1},
        borders=[f"{c}2-{c}3" for c in "ABCDEFGHIJK"],
        players_state=[{"gold": 5, "hand": ["A1"]}, {"gold": 7, "hand": ["A1"]}],
    )
    play(st, 0, act="play", card="A1", option=0, borders=["L2-L3"])
    assert st.scores()[0] == 51 and st.step == "take"
    play(st, 0, act="take", from_="deck")
    res = ENGINE.result(st)
    assert res.winners == [0] and res.details["end"] == "target" and res.details["bonuses"] == [0, 0]


def test_deck_exhausted_no_take_empty_hands_skipped_and_game_ends_after_last_card():
    st = make(
        deck=[],
        players_state=[{"gold": 3, "hand": ["A1", "A2"]}, {"gold": 1, "hand": []}, {"gold": 0, "hand": ["A3"]}],
        players=3,
        castles={"B2": 0, "H8": 1, "J2": 2},
        knights={"B3": 0, "H9": 1, "J3": 2},
        turn={"player": 0, "step": "play"},
    )
    play(st, 0, act="sell", card="A1")
    assert st.turn_player == 2 and st.step == "play"  # seat 2 next (reverse order); no take step
    play(st, 2, act="sell", card="A3")
    assert st.turn_player == 0  # seat 1's empty hand is skipped
    play(st, 0, act="sell", card="A2")
    res = ENGINE.result(st)
    assert res.details["end"] == "cards"
    assert res.details["gold"] == [5, 1, 1] and res.details["bonuses"] == [5, 3, 3]


def test_gold_bonus_ties():
    assert gold_bonuses([9, 9, 4]) == [5, 5, 0]  # tie for most: no second place bonus
    assert gold_bonuses([9, 4, 4, 2]) == [5, 3, 3, 0]
    assert gold_bonuses([0, 0]) == [0, 0]
    assert gold_bonuses([3, 0]) == [5, 0]  # no gold scores neither


def test_tie_on_score_goes_to_more_gold_then_shared():
    st = make(
        deck=[],
        players_state=[{"gold": 4, "hand": ["A1"]}, {"gold": 5, "hand": []}],
        castles={"B2": 0, "H8": 1},
        knights={"B3": 0, "H9": 1},
    )
    play(st, 0, act="sell", card="A1")  # gold 5 - 5: both +5, scores 5 - 5, gold tie
    res = ENGINE.result(st)
    assert res.scores == [5, 5] and res.winners == [0, 1] and res.ranks == [1, 1]


def test_game_over_refuses_moves():
    st = make(deck=[], players_state=[{"gold": 4, "hand": ["A1"]}, {"gold": 5, "hand": []}])
    play(st, 0, act="sell", card="A1")
    refused(st, 0, "game_over", act="sell", card="A1")


def test_board_pickles_without_caches():
    b = Board("." * 144)
    b.derived()
    b2 = pickle.loads(pickle.dumps(b))
    assert b2 == b and b2._d is None


# --- What a view hides ----------------------------------------------------------------------------


def test_view_hides_the_movers_hand_in_the_open_play_decision():
    st = make()
    mine = ENGINE.view(st, 0)["pending"][0]
    assert sorted(mine["options"]) == ["A1", "A2", "A3"] and mine["params"]["playable"] == ["A1", "A2", "A3"]
    for viewer in (1, None):
        dec = ENGINE.view(st, viewer)["pending"][0]
        assert dec["player"] == 0 and dec["kind"] == "play"
        assert dec["options"] == [] and "playable" not in dec["params"], dec
        assert "A1" not in str(ENGINE.view(st, viewer)["pending"])
    assert ENGINE.view(st, 1, reveal_all=True)["pending"][0]["options"] == ["A1", "A2", "A3"]


def test_player_view_hides_the_seed():
    st = new_state(2, 123456)
    pv = ENGINE.player_view(st, 0)
    assert pv.state.seed != 123456 and pv.state.deck == ["?"] * len(st.deck)
    assert "123456" not in str(ENGINE.view(st, 0)) and "seed" not in ENGINE.view(st, 0)


# --- Notation error cases -------------------------------------------------------------------------


def test_a_card_id_that_is_not_a_string_is_refused_not_a_crash():
    st = make()
    refused(st, 0, "bad_card", act="play", card=["A1"], option=0)
    refused(st, 0, "not_in_hand", act="sell", card=["A1"])
    play(st, 0, act="sell", card="A1")
    refused(st, 0, "not_in_display", act="take", card=["A1"])


def test_an_edge_named_larger_square_first_names_the_same_edge_and_is_reported_smaller_first():
    """Logs stored while the text form sent edges as typed must keep replaying, so "A10-A9" is A9-A10."""
    st = make()
    play(st, 0, act="play", card="A1", option=0, borders=["A10-A9"])
    assert report(st)["borders"] == ["A9-A10"]
    assert report(make(borders=["A10-A9"]))["borders"] == ["A9-A10"]


def test_three_player_setup_has_no_neutral_colour():
    st = make(
        players=3,
        castles={"A1": 0, "A8": 0, "H1": 0, "H8": 0, "C1": 1},
        knights={"A2": 0, "C2": 1},
        players_state=[{"gold": 7, "hand": []}] * 3,
        turn={"player": 0, "step": "setup"},
    )
    # Seat 0 has placed all its castles; with 3 players that never makes it a neutral placement.
    refused(st, 0, None, act="place_neutral", at="E5")
    assert ENGINE.pending(st)[0].params["neutral"] is False
