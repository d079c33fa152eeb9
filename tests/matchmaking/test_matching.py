"""The matcher's rules on their own (``matchmaking.matching``: pure, no database)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from matchmaking import matching
from matchmaking.matching import Seeker, match, pair

POOL = ("dominion", True, "move", 86400, 0)


def seeker(i: int, rating: int = 1500, *, user: int | None = None, sizes=(2,), waited=0.0, **kw) -> Seeker:
    return Seeker(
        seek_id=i,
        user_id=user if user is not None else i,
        pool=kw.pop("pool", POOL),
        sizes=frozenset(sizes),
        rating=rating,
        waited=waited,
        rated=True,
        **kw,
    )


def seated(tables) -> list[set[int]]:
    return [set(t.user_ids) for t in tables]


def test_two_close_players_are_paired_at_once():
    assert seated(match([seeker(1, 1500), seeker(2, 1540)])) == [{1, 2}]


def test_a_wide_gap_waits_until_the_longest_waiting_seeker_has_waited_long_enough():
    gap = 400  # tolerance 100 + 10 per minute: 30 minutes
    assert match([seeker(1, 1500, waited=29), seeker(2, 1500 + gap)]) == []
    assert seated(match([seeker(1, 1500, waited=31), seeker(2, 1500 + gap)])) == [{1, 2}]


def test_a_players_range_is_never_broken_however_long_they_wait():
    narrow = seeker(1, 1500, waited=10_000, low=1400, high=1600)
    assert match([narrow, seeker(2, 1700)]) == []
    # and the other side's range counts too
    assert match([seeker(1, 1500, waited=10_000), seeker(2, 1520, low=1600, high=2000)]) == []


def test_players_who_block_each_other_never_share_a_table():
    seekers = [seeker(1, 1500), seeker(2, 1500), seeker(3, 1900, waited=500)]
    tables = match(seekers, blocked=[pair(1, 2)])
    assert all(not {1, 2} <= t for t in seated(tables))
    assert seated(tables) in ([{1, 3}], [{2, 3}])


def test_a_four_player_table_never_seats_a_blocked_pair_among_the_others():
    seekers = [seeker(i, 1500, sizes=(4,), waited=10) for i in range(1, 6)]
    tables = match(seekers, blocked=[pair(2, 3)])
    assert len(tables) == 1 and len(tables[0].user_ids) == 4
    assert not {2, 3} <= set(tables[0].user_ids)


def test_recent_opponents_are_not_paired_again_while_someone_else_waits():
    seekers = [seeker(1, 1500, waited=5), seeker(2, 1500), seeker(3, 1580)]
    assert seated(match(seekers, met=[pair(1, 2)])) == [{1, 3}]
    # With nobody else, the repeat is better than no game.
    assert seated(match(seekers[:2], met=[pair(1, 2)])) == [{1, 2}]


def test_only_the_same_pool_and_a_common_size_share_a_table():
    casual = ("dominion", False, "move", 86400, 0)
    assert match([seeker(1), seeker(2, pool=casual)]) == []
    assert match([seeker(1, sizes=(2,)), seeker(2, sizes=(3,))]) == []
    assert seated(match([seeker(1, sizes=(2, 3, 4)), seeker(2, sizes=(2,))])) == [{1, 2}]


def test_flexible_seekers_fill_the_largest_table_they_can():
    seekers = [seeker(i, 1500 + 10 * i, sizes=(2, 3, 4)) for i in range(1, 5)]
    assert seated(match(seekers)) == [{1, 2, 3, 4}]


def test_one_user_gets_one_table_per_run_and_never_meets_themselves():
    seekers = [seeker(1, user=7), seeker(2, user=7), seeker(3), seeker(4)]
    tables = match(seekers)
    users = [u for t in tables for u in t.user_ids]
    assert len(users) == len(set(users))
    assert all(len(set(t.user_ids)) == len(t.user_ids) for t in tables)


def test_rated_tables_never_mix_bot_accounts_and_people():
    assert match([seeker(1), seeker(2, bot=True)]) == []
    assert seated(match([seeker(1, bot=True), seeker(2, bot=True)])) == [{1, 2}]


def test_players_who_time_out_often_are_served_last():
    # 1 times out often and waited longest; 2 and 3 are both close to 4: 4 goes to whoever is served first.
    seekers = [seeker(1, 1500, waited=50, late=True), seeker(2, 1500, waited=10), seeker(4, 1500)]
    assert seated(match(seekers)) == [{2, 4}]


def test_tables_whose_bans_leave_too_few_cards_come_after_others():
    heavy = frozenset(f"card{i}" for i in range(10))
    seekers = [
        seeker(1, 1500, waited=5, bans=heavy),
        seeker(2, 1500, bans=frozenset(f"card{i}" for i in range(10, 16))),
        seeker(3, 1560),
    ]
    # 1 and 2 together ban 16 of 25: only 9 left; 1 and 3 leave 15.
    assert seated(match(seekers)) == [{1, 3}]


def test_the_score_prefers_a_closer_opponent():
    seekers = [seeker(1, 1500, waited=1), seeker(2, 1580), seeker(3, 1510)]
    assert seated(match(seekers)) == [{1, 3}]


def test_the_tolerance_grows_with_the_wait():
    assert matching.tolerance(0) == matching.BASE_TOLERANCE
    assert matching.tolerance(10) == matching.BASE_TOLERANCE + 10 * matching.TOLERANCE_PER_MINUTE


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_same_input_same_tables_whatever_the_order(seed):
    rng = random.Random(seed)
    seekers = [
        seeker(
            i,
            rng.randint(1200, 1800),
            user=rng.randint(1, 25),
            sizes=rng.choice([(2,), (3,), (4,), (2, 3, 4)]),
            waited=float(rng.randint(0, 60)),
        )
        for i in range(1, 40)
    ]
    blocked = {pair(rng.randint(1, 25), rng.randint(1, 25)) for _ in range(10)}
    first = match(seekers, blocked=blocked)
    shuffled = seekers[:]
    rng.shuffle(shuffled)
    assert match(shuffled, blocked=blocked) == first
    users = [u for t in first for u in t.user_ids]
    assert len(users) == len(set(users))
    for t in first:
        assert all(pair(a, b) not in blocked for a in t.user_ids for b in t.user_ids if a != b)
