"""The pairing rules, without the database: Swiss from the library, round robin, multi-table seating, points."""

from __future__ import annotations

import json
from itertools import combinations
from pathlib import Path

from caissify_pairings import generate_pairings

from tournaments.pairing import (
    SwissPlayer,
    multi_table_round,
    place_points,
    repeated_groups,
    round_robin_rounds,
    snake,
    swiss_round,
    table_sizes,
)

RECORDED = Path(__file__).with_name("swiss_recorded.json")


def test_swiss_pairings_match_the_librarys_own_output_for_a_recorded_round():
    # A recorded round 3 of a 9-player Swiss: the state and what caissify-pairings' own
    # CLI (`caissify-pairings < state.json`) printed for it, kept in the file.
    recorded = json.loads(RECORDED.read_text())
    state = recorded["state"]
    players = [
        SwissPlayer(
            id=p["id"],
            number=p["starting_number"],
            rating=p["rating"],
            score=p["score"],
            colors=p["color_hist"],
            floats=p["float_history"],
            byes=p["bye_count"],
        )
        for p in state["players"]
    ]
    ours = swiss_round(
        players, [tuple(x) for x in state["previous_pairings"]], state["round_number"], state["total_rounds"]
    )
    expected = [(r["white_id"], r["black_id"]) for r in sorted(recorded["pairings"], key=lambda r: r["table"])]
    assert ours == expected
    # And the library called directly today still says the same (the recording is not stale).
    direct = generate_pairings(
        system="dutch",
        players=state["players"],
        previous_pairings={tuple(x) for x in state["previous_pairings"]},
        round_number=state["round_number"],
        total_rounds=state["total_rounds"],
        bye_value=1.0,
    )
    assert [(r["white_id"], r.get("black_id")) for r in sorted(direct, key=lambda r: r["table"])] == expected


def test_no_pair_meets_twice_in_a_round_robin_and_every_pair_meets():
    for n in (2, 3, 4, 7, 10):
        ids = list(range(100, 100 + n))
        rounds = round_robin_rounds(ids)
        games = [frozenset(p) for r in rounds for p in r if p[1] is not None]
        assert len(games) == len(set(games))
        assert set(games) == {frozenset(p) for p in combinations(ids, 2)}
        for r in rounds:  # nobody plays twice in a round
            seated = [x for p in r for x in p if x is not None]
            assert len(seated) == len(set(seated)) == n


def test_a_double_round_robin_plays_each_pair_once_in_each_seat_order():
    ids = [1, 2, 3, 4, 5]
    games = [p for r in round_robin_rounds(ids, double=True) for p in r if p[1] is not None]
    assert len(games) == len(set(games)) == 2 * 10
    assert all((b, a) in games for a, b in games)


def test_table_sizes_and_snake_order():
    assert table_sizes(12, 3) == [3, 3, 3, 3]
    assert table_sizes(13, 4) == [5 - 1, 3, 3, 3]
    assert table_sizes(5, 4) == [3, 2]
    assert snake(list(range(1, 10)), [3, 3, 3]) == [[1, 6, 7], [2, 5, 8], [3, 4, 9]]


def test_multi_table_rounds_never_seat_the_same_group_twice_when_avoidable():
    # Standings that never change make plain snake seating repeat every round.
    order = list(range(1, 13))
    history: set[frozenset[int]] = set()
    rounds = []
    for _ in range(5):
        tables = multi_table_round(order, 3, history)
        assert sorted(p for t in tables for p in t) == order
        rounds.append(tables)
        history |= {frozenset(t) for t in tables}
    assert snake(order, [3, 3, 3, 3]) == rounds[0]  # the first round is plain snake order
    assert repeated_groups(rounds) == []


def test_a_final_table_seats_the_leaders():
    tables = multi_table_round(list(range(1, 13)), 4, {frozenset({1, 2, 3, 4})}, final_table=True)
    assert tables[0] == [1, 2, 3, 4]
    assert sorted(p for t in tables[1:] for p in t) == list(range(5, 13))


def test_points_by_place_with_ties_shared():
    assert place_points({1: 1, 2: 2}) == {1: 1.0, 2: 0.0}
    assert place_points({1: 1, 2: 1}) == {1: 0.5, 2: 0.5}
    assert place_points({1: 1, 2: 2, 3: 3}) == {1: 1.0, 2: 0.5, 3: 0.0}
    shared = place_points({1: 1, 2: 2, 3: 2, 4: 4})
    assert shared[2] == shared[3] == 0.5 and shared[1] == 1.0 and shared[4] == 0.0
