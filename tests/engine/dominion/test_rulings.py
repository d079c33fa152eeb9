"""One test per card and ruling of ``shared/rules/dominion.md`` (section in each name's docstring)."""

from __future__ import annotations

import pytest

from games.engine.core import InvalidOptions
from games.engine.dominion.engine import ENGINE, supply_sizes
from tests.engine.dominion.helpers import asked, decision, play, position, refused, seat

C, S, G, E = "Copper", "Silver", "Gold", "Estate"
FIVE_COPPERS = {"hand": [C] * 5, "deck": [C] * 5}


# --- set-up (§2, §3) ---------------------------------------------------------------


@pytest.mark.parametrize(("players", "copper", "victory", "curse"), [(2, 46, 8, 10), (3, 39, 12, 20), (4, 32, 12, 30)])
def test_supply_sizes_follow_the_player_count(players, copper, victory, curse):
    sizes = supply_sizes(players, ["Gardens", "Smithy"])
    assert sizes["Copper"] == copper
    assert sizes["Estate"] == sizes["Duchy"] == sizes["Province"] == sizes["Gardens"] == victory
    assert sizes["Curse"] == curse
    assert sizes["Smithy"] == 10 and sizes["Silver"] == 40 and sizes["Gold"] == 30


def test_each_player_starts_with_seven_coppers_and_three_estates_five_in_hand():
    st = ENGINE.new_game({"kingdom": "First Game"}, 3, seed=11)
    for p in range(3):
        assert sorted(st.owned(p)) == sorted([C] * 7 + [E] * 3)
        assert len(st.hands[p]) == 5


@pytest.mark.parametrize("players", [1, 5, 6, 0, "2", True])
def test_player_counts_outside_two_to_four_are_refused(players):
    with pytest.raises(InvalidOptions, match="2 to 4"):
        ENGINE.new_game({"kingdom": "First Game"}, players, seed=1)


@pytest.mark.parametrize(
    "kingdom",
    [
        ["Smithy"] * 10,
        ["Smithy", "Village"],
        ["Smithy", "Nobles", "Village", "Cellar", "Chapel", "Moat", "Market", "Mine", "Witch", "Spy"],
        "Prosperity",
        7,
    ],
)
def test_kingdoms_outside_the_rules_are_refused_with_a_reason(kingdom):
    with pytest.raises(InvalidOptions):
        ENGINE.new_game({"kingdom": kingdom}, 2, seed=1)


def test_a_random_kingdom_is_ten_distinct_cards_fixed_by_the_seed():
    a = ENGINE.normalize_options({"kingdom": "random"}, 2, seed=5)["kingdom"]
    b = ENGINE.normalize_options({}, 2, seed=5)["kingdom"]
    c = ENGINE.normalize_options({}, 2, seed=6)["kingdom"]
    assert a == b and len(set(a)) == 10 and a != c


def test_recommended_set_first_game_is_used_as_printed():
    st = ENGINE.new_game({"kingdom": "First Game"}, 2, seed=1)
    assert set(st.kingdom) == {
        "Cellar",
        "Market",
        "Militia",
        "Mine",
        "Moat",
        "Remodel",
        "Smithy",
        "Village",
        "Woodcutter",
        "Workshop",
    }


# --- turn structure (§5) -------------------------------------------------------------


def test_treasures_cannot_be_played_after_a_buy():
    st = position({"hand": [C, C, C, S]}, FIVE_COPPERS)
    play(st, 0, act="play", card=S)
    play(st, 0, act="buy", card="Moat")
    assert "No more Treasures" in refused(st, 0, act="play", card=C)


def test_action_cards_cannot_be_played_in_the_buy_phase():
    st = position({"hand": ["Moat", C]}, FIVE_COPPERS)
    play(st, 0, act="play", card=C)
    assert "Action phase" in refused(st, 0, act="play", card="Moat")


def test_buying_takes_a_buy_and_the_cost_and_puts_the_card_in_the_discard_pile():
    st = position({"hand": [G, G]}, FIVE_COPPERS)
    play(st, 0, act="play_treasures")
    play(st, 0, act="buy", card="Gold")
    assert seat(st, 0)["discard"] == ["Gold"] and st.coins == 0 and st.buys == 0
    assert "no Buy left" in refused(st, 0, act="buy", card="Copper")


def test_an_empty_pile_cannot_be_bought():
    st = position({"hand": [G]}, FIVE_COPPERS, supply={"Silver": 0})
    play(st, 0, act="play_treasures")
    assert "empty" in refused(st, 0, act="buy", card="Silver")


def test_clean_up_shuffles_the_cards_just_discarded_into_the_new_deck():
    st = position({"hand": [C, C, E], "deck": [S, S]}, FIVE_COPPERS)
    play(st, 0, act="end_turn")
    assert sorted(st.hands[0]) == sorted([C, C, E, S, S])
    assert st.decks[0] == [] and st.current == 1


def test_an_illegal_move_leaves_the_state_exactly_as_it_was():
    import pickle

    st = position({"hand": ["Militia", C, C, E, E]}, FIVE_COPPERS)
    before = pickle.dumps(st)
    for move in (
        {"act": "buy", "card": "Province"},
        {"act": "play", "card": "Smithy"},
        {"act": "choose", "cards": []},
        {"act": "fly"},
        {"cards": 3},
        {"act": "play", "card": None},
    ):
        refused(st, 0, **move)
        assert pickle.dumps(st) == before
    refused(st, 1, act="end_turn")
    assert pickle.dumps(st) == before


# --- shuffling (§6) ----------------------------------------------------------------


def test_a_card_gained_to_an_empty_deck_waits_in_the_discard_pile_for_the_next_shuffle():
    st = position({"hand": ["Witch", C, C, C, C], "deck": [S, S]}, {"hand": [C] * 5, "deck": []})
    play(st, 0, act="play", card="Witch")
    assert st.decks[1] == [] and st.discards[1] == ["Curse"]


def test_draw_uses_the_deck_first_then_shuffles_for_the_rest():
    st = position({"hand": ["Moat"], "deck": [G], "discard": [S]}, FIVE_COPPERS)
    play(st, 0, act="play", card="Moat")
    assert sorted(st.hands[0]) == [G, S]


def test_drawing_from_an_exhausted_deck_and_discard_is_not_an_error():
    st = position({"hand": ["Moat"], "deck": [G]}, FIVE_COPPERS)
    play(st, 0, act="play", card="Moat")
    assert st.hands[0] == [G]


# --- kingdom cards (§8) ------------------------------------------------------------


def test_cellar_cannot_discard_itself_and_draws_one_per_discard():
    st = position({"hand": ["Cellar", E, E, C], "deck": [G, G, S]}, FIVE_COPPERS)
    play(st, 0, act="play", card="Cellar")
    assert "Cellar" not in decision(st, 0).options
    play(st, 0, act="choose", cards=[E, E])
    assert sorted(st.hands[0]) == sorted([C, G, G]) and st.actions == 1


def test_chapel_may_trash_nothing_or_up_to_four():
    st = position({"hand": ["Chapel", "Chapel", E, E, C]}, FIVE_COPPERS)
    play(st, 0, act="play", card="Chapel")
    assert "Choose 0 to 4" in refused(st, 0, act="choose", cards=[E, E, C, "Chapel", "Chapel"])
    play(st, 0, act="choose", cards=["Chapel", E])
    assert sorted(st.trash) == ["Chapel", E]


def test_moat_played_as_an_action_draws_two():
    st = position({"hand": ["Moat"], "deck": [S, G, C]}, FIVE_COPPERS)
    play(st, 0, act="play", card="Moat")
    assert sorted(st.hands[0]) == [G, S]


def test_chancellor_moves_the_whole_deck_to_the_discard_pile_without_shuffling():
    st = position(
        {"hand": ["Throne Room", "Chancellor"], "deck": [S, G, C]},
        FIVE_COPPERS,
        kingdom=[
            "Chancellor",
            "Throne Room",
            "Cellar",
            "Chapel",
            "Moat",
            "Village",
            "Smithy",
            "Market",
            "Mine",
            "Witch",
        ],
    )
    play(st, 0, act="play", card="Throne Room")
    play(st, 0, act="yes")
    assert st.decks[0] == [] and sorted(st.discards[0]) == sorted([S, G, C])
    # The second Chancellor play finds an empty deck: no question, +$2 again.
    assert asked(st) == [] and st.coins == 4
    assert st.rng.counter == 0


def test_chancellor_no_keeps_the_deck():
    st = position(
        {"hand": ["Chancellor"], "deck": [S, G]},
        FIVE_COPPERS,
        kingdom=[
            "Chancellor",
            "Throne Room",
            "Cellar",
            "Chapel",
            "Moat",
            "Village",
            "Smithy",
            "Market",
            "Mine",
            "Witch",
        ],
    )
    play(st, 0, act="play", card="Chancellor")
    play(st, 0, act="no")
    assert seat(st, 0)["deck"] == [S, G] and st.coins == 2


def test_village_and_woodcutter_and_festival_and_market_and_laboratory_counters():
    kingdom = [
        "Village",
        "Woodcutter",
        "Festival",
        "Market",
        "Laboratory",
        "Cellar",
        "Chapel",
        "Moat",
        "Smithy",
        "Witch",
    ]
    st = position(
        {"hand": ["Village", "Festival", "Market", "Laboratory", "Woodcutter"], "deck": [C] * 6},
        FIVE_COPPERS,
        kingdom=kingdom,
    )
    for card in ("Village", "Festival", "Market", "Laboratory", "Woodcutter"):
        play(st, 0, act="play", card=card)
    # actions: 1-1+2 -1+2 -1+1 -1+1 -1 = 2 ; buys 1+1+1+1 ; coins 2+1+2
    assert (st.actions, st.buys, st.coins) == (2, 4, 5)
    assert len(st.hands[0]) == 4  # Village 1, Market 1, Laboratory 2


def test_workshop_gains_up_to_four_whatever_the_coins():
    kingdom = [
        "Workshop",
        "Woodcutter",
        "Festival",
        "Market",
        "Laboratory",
        "Cellar",
        "Chapel",
        "Moat",
        "Smithy",
        "Gardens",
    ]
    st = position({"hand": ["Woodcutter", "Workshop"]}, FIVE_COPPERS, kingdom=kingdom, actions=2)
    play(st, 0, act="play", card="Woodcutter")
    play(st, 0, act="play", card="Workshop")
    d = decision(st, 0)
    assert "Gardens" in d.options and "Curse" in d.options and "Laboratory" not in d.options
    assert "cannot gain Laboratory" in refused(st, 0, act="gain", card="Laboratory")
    play(st, 0, act="gain", card="Gardens")
    assert st.discards[0] == ["Gardens"]


def test_bureaucrat_silver_goes_on_the_deck_and_victims_topdeck_a_victory_card():
    st = position(
        {"hand": ["Bureaucrat"], "deck": [C]},
        {"hand": [E, "Duchy", C], "deck": [G]},
        {"hand": ["Gardens", C], "deck": []},
    )
    play(st, 0, act="play", card="Bureaucrat")
    assert seat(st, 0)["deck"] == [S, C]
    assert asked(st) == [(1, "topdeck")]  # seat 2 holds a single Victory card: not asked
    play(st, 1, act="choose", cards=["Duchy"])
    assert seat(st, 2)["deck"] == ["Gardens"]
    assert seat(st, 1)["deck"] == ["Duchy", G] and sorted(st.hands[1]) == [C, E]


def test_bureaucrat_curse_is_not_a_victory_card():
    st = position({"hand": ["Bureaucrat"]}, {"hand": ["Curse", C, C], "deck": [G]})
    play(st, 0, act="play", card="Bureaucrat")
    assert asked(st) == [] and sorted(st.hands[1]) == [C, C, "Curse"]


def test_feast_trashes_itself_and_gains_up_to_five():
    st = position({"hand": ["Feast", G, G]}, FIVE_COPPERS)
    play(st, 0, act="play", card="Feast")
    assert st.trash == ["Feast"] and st.plays[0] == []
    assert "Province" not in decision(st, 0).options
    play(st, 0, act="gain", card="Duchy")
    assert st.discards[0] == ["Duchy"]


def test_gardens_counts_every_card_including_curses():
    st = position({"hand": ["Gardens"], "deck": ["Curse"] * 19}, FIVE_COPPERS)
    assert seat(st, 0)["score"] == 2 - 19


def test_militia_victims_at_three_cards_are_not_asked():
    st = position({"hand": ["Militia"]}, {"hand": [C, E, S]}, {"hand": [C, E, S, G, E]})
    play(st, 0, act="play", card="Militia")
    assert asked(st) == [(2, "discard")] and st.coins == 2


def test_militia_victims_answer_in_any_order_and_the_turn_waits_for_all():
    # Version 2, the rulebook order: version 3 lets the attacker go on (test_deferral.py).
    st = position({"hand": ["Militia", C]}, {"hand": [C, E, S, G, E]}, {"hand": [C, E, S, G, E]}, version=2)
    play(st, 0, act="play", card="Militia")
    assert sorted(asked(st)) == [(1, "discard"), (2, "discard")]
    play(st, 2, act="choose", cards=[E, E])
    assert "waiting for player 2" in refused(st, 0, act="play_treasures")
    assert "answered already" in refused(st, 2, act="choose", cards=[C, S])
    play(st, 1, act="choose", cards=[E, C])
    assert asked(st) == [] and sorted(st.hands[1]) == [E, G, S]


def test_moneylender_must_trash_a_copper_when_it_can():
    st = position(
        {"hand": ["Moneylender", C, C]},
        FIVE_COPPERS,
        kingdom=[
            "Moneylender",
            "Throne Room",
            "Cellar",
            "Chapel",
            "Moat",
            "Village",
            "Smithy",
            "Market",
            "Mine",
            "Witch",
        ],
    )
    play(st, 0, act="play", card="Moneylender")
    assert st.trash == [C] and st.coins == 3 and asked(st) == []


def test_moneylender_without_copper_gives_nothing():
    st = position(
        {"hand": ["Moneylender", S]},
        FIVE_COPPERS,
        kingdom=[
            "Moneylender",
            "Throne Room",
            "Cellar",
            "Chapel",
            "Moat",
            "Village",
            "Smithy",
            "Market",
            "Mine",
            "Witch",
        ],
    )
    play(st, 0, act="play", card="Moneylender")
    assert st.coins == 0 and st.trash == []


def test_remodel_must_trash_and_gain_up_to_two_more():
    st = position(
        {"hand": ["Remodel", E, G]},
        FIVE_COPPERS,
        kingdom=["Remodel", "Throne Room", "Cellar", "Chapel", "Moat", "Village", "Smithy", "Market", "Mine", "Witch"],
    )
    play(st, 0, act="play", card="Remodel")
    assert "exactly 1" in refused(st, 0, act="choose", cards=[])
    play(st, 0, act="choose", cards=[E])
    assert "Smithy" in decision(st, 0).options and "Market" not in decision(st, 0).options
    play(st, 0, act="gain", card="Silver")
    assert st.trash == [E] and st.discards[0] == [S]


def test_remodel_with_an_empty_hand_does_nothing():
    st = position(
        {"hand": ["Remodel"]},
        FIVE_COPPERS,
        kingdom=["Remodel", "Throne Room", "Cellar", "Chapel", "Moat", "Village", "Smithy", "Market", "Mine", "Witch"],
    )
    play(st, 0, act="play", card="Remodel")
    assert asked(st) == [] and st.trash == []


def test_smithy_draws_three():
    st = position(
        {"hand": ["Smithy"], "deck": [G, S, C, E]},
        FIVE_COPPERS,
        kingdom=["Remodel", "Throne Room", "Cellar", "Chapel", "Moat", "Village", "Smithy", "Market", "Mine", "Witch"],
    )
    play(st, 0, act="play", card="Smithy")
    assert sorted(st.hands[0]) == [C, G, S] and seat(st, 0)["deck"] == [E]


def test_spy_asks_the_attacker_about_each_revealed_card_in_order():
    kingdom = ["Spy", "Throne Room", "Cellar", "Chapel", "Moat", "Village", "Smithy", "Market", "Mine", "Witch"]
    st = position(
        {"hand": ["Spy"], "deck": [C, E]}, {"hand": [C], "deck": [G, C]}, {"hand": [C], "deck": []}, kingdom=kingdom
    )
    play(st, 0, act="play", card="Spy")
    assert decision(st, 0).params == {"card": E, "target": 0}
    play(st, 0, act="yes")
    assert decision(st, 0).params == {"card": G, "target": 1}
    play(st, 0, act="yes")
    # Seat 2 has no cards at all: nothing revealed, no question.
    assert asked(st) == [] and st.discards[1] == [G] and st.discards[0] == [E] and st.actions == 1


def test_thief_two_different_treasures_the_attacker_picks_and_may_decline_the_gain():
    kingdom = ["Thief", "Throne Room", "Cellar", "Chapel", "Moat", "Village", "Smithy", "Market", "Mine", "Witch"]
    st = position({"hand": ["Thief"]}, {"hand": [C], "deck": [C, S, E]}, kingdom=kingdom)
    play(st, 0, act="play", card="Thief")
    assert decision(st, 0).kind == "thief_trash"
    play(st, 0, act="choose", cards=[S])
    play(st, 0, act="choose", cards=[])
    assert st.trash == [S] and st.discards[1] == [C] and seat(st, 1)["deck"] == [E]


def test_thief_two_of_the_same_treasure_trashes_one_without_asking():
    kingdom = ["Thief", "Throne Room", "Cellar", "Chapel", "Moat", "Village", "Smithy", "Market", "Mine", "Witch"]
    st = position({"hand": ["Thief"]}, {"hand": [C], "deck": [S, S]}, kingdom=kingdom)
    play(st, 0, act="play", card="Thief")
    assert decision(st, 0).kind == "thief_gain"
    play(st, 0, act="choose", cards=[S])
    assert st.trash == [] and st.discards[0] == [S] and st.discards[1] == [S]


def test_thief_never_trashes_non_treasures_and_does_not_offer_older_trash():
    kingdom = ["Thief", "Throne Room", "Cellar", "Chapel", "Moat", "Village", "Smithy", "Market", "Mine", "Witch"]
    st = position({"hand": ["Thief"]}, {"hand": [C], "deck": [E, "Curse"]}, kingdom=kingdom)
    st.trash = [G]
    play(st, 0, act="play", card="Thief")
    assert asked(st) == [] and st.trash == [G] and sorted(st.discards[1]) == ["Curse", E]


def test_throne_room_with_no_action_in_hand_is_legal_and_does_nothing():
    st = position({"hand": ["Throne Room", C]}, FIVE_COPPERS)
    play(st, 0, act="play", card="Throne Room")
    assert asked(st) == [] and st.actions == 0


def test_throne_room_must_choose_an_action_in_the_first_edition():
    st = position({"hand": ["Throne Room", "Moat", "Cellar"], "deck": [C] * 4}, FIVE_COPPERS)
    play(st, 0, act="play", card="Throne Room")
    assert "exactly 1" in refused(st, 0, act="choose", cards=[])
    play(st, 0, act="choose", cards=["Moat"])
    assert len(st.hands[0]) == 5  # Cellar + 4 drawn


def test_throne_room_on_market_leaves_two_actions():
    kingdom = ["Market", "Throne Room", "Cellar", "Chapel", "Moat", "Village", "Smithy", "Mine", "Witch", "Spy"]
    st = position({"hand": ["Throne Room", "Market"], "deck": [C, C]}, FIVE_COPPERS, kingdom=kingdom)
    play(st, 0, act="play", card="Throne Room")
    assert (st.actions, st.buys, st.coins) == (2, 3, 2)


def test_council_room_makes_every_other_player_draw_in_turn_order():
    kingdom = ["Council Room", "Throne Room", "Cellar", "Chapel", "Moat", "Village", "Smithy", "Mine", "Witch", "Spy"]
    st = position(
        {"hand": ["Council Room"], "deck": [C] * 4},
        {"hand": [], "deck": [G]},
        {"hand": [], "discard": [S]},
        kingdom=kingdom,
    )
    play(st, 0, act="play", card="Council Room")
    assert st.hands[1] == [G] and st.hands[2] == [S] and st.buys == 2 and len(st.hands[0]) == 4


def test_library_skips_nothing_when_the_hand_already_holds_seven():
    st = position({"hand": ["Library", C, C, C, C, C, C, C], "deck": [G]}, FIVE_COPPERS)
    play(st, 0, act="play", card="Library")
    assert seat(st, 0)["deck"] == [G] and len(st.hands[0]) == 7


def test_library_set_aside_is_optional_and_set_aside_cards_are_discarded_at_the_end():
    st = position({"hand": ["Library", C, C, C], "deck": ["Moat", "Cellar", S, G, C]}, FIVE_COPPERS)
    play(st, 0, act="play", card="Library")
    assert decision(st, 0).params == {"card": "Moat"}
    play(st, 0, act="yes")
    play(st, 0, act="no")
    assert sorted(st.hands[0]) == sorted([C, C, C, "Cellar", S, G, C]) and st.discards[0] == ["Moat"]


def test_mine_gains_a_treasure_into_hand_that_can_be_played_at_once():
    st = position(
        {"hand": ["Mine", S, C]},
        FIVE_COPPERS,
        kingdom=["Mine", "Throne Room", "Cellar", "Chapel", "Moat", "Village", "Smithy", "Market", "Witch", "Spy"],
    )
    play(st, 0, act="play", card="Mine")
    play(st, 0, act="choose", cards=[S])
    assert asked(st) == [(0, "gain")]
    assert "cannot gain Duchy" in refused(st, 0, act="gain", card="Duchy")
    play(st, 0, act="gain", card=G)
    play(st, 0, act="play_treasures")
    assert st.coins == 4 and st.trash == [S]


def test_mine_with_a_single_treasure_kind_trashes_it_without_asking():
    st = position(
        {"hand": ["Mine", G]},
        FIVE_COPPERS,
        kingdom=["Mine", "Throne Room", "Cellar", "Chapel", "Moat", "Village", "Smithy", "Market", "Witch", "Spy"],
        supply={"Copper": 0, "Silver": 0},
    )
    play(st, 0, act="play", card="Mine")
    # Gold -> Gold is the only gain left: both steps are taken by the engine.
    assert asked(st) == [] and st.hands[0] == [G] and st.trash == [G]


def test_witch_still_draws_when_the_curses_are_gone():
    st = position({"hand": ["Witch"], "deck": [S, S]}, FIVE_COPPERS, supply={"Curse": 0})
    play(st, 0, act="play", card="Witch")
    assert st.hands[0] == [S, S] and st.discards[1] == []


def test_adventurer_keeps_treasures_and_discards_the_rest():
    st = position({"hand": ["Adventurer"], "deck": [E, S, "Moat", G, C]}, FIVE_COPPERS)
    play(st, 0, act="play", card="Adventurer")
    assert sorted(st.hands[0]) == [G, S] and sorted(st.discards[0]) == [E, "Moat"] and seat(st, 0)["deck"] == [C]


# --- attacks and Moat (§7.1) -----------------------------------------------------------


def test_moat_is_asked_only_of_players_holding_one_and_never_of_the_attacker():
    # Version 2, the rulebook order: version 3 lets the attacker go on (test_deferral.py).
    st = position({"hand": ["Militia", "Moat"]}, {"hand": [C, C, C, C, E]}, {"hand": ["Moat", C, C, C, E]}, version=2)
    play(st, 0, act="play", card="Militia")
    assert asked(st) == [(2, "reveal_moat")]


def test_moat_holders_answer_before_the_attack_resolves_and_a_revealed_moat_stays_in_hand():
    # Version 2, the rulebook order: version 3 lets the attacker go on (test_deferral.py).
    st = position({"hand": ["Witch"], "deck": [S, S]}, {"hand": ["Moat", C]}, {"hand": ["Moat", C]}, version=2)
    play(st, 0, act="play", card="Witch")
    assert st.hands[0] == []  # Witch has not drawn yet
    play(st, 2, act="no")
    play(st, 1, act="yes")
    assert st.discards[1] == [] and st.discards[2] == ["Curse"] and "Moat" in st.hands[1]
    assert len(st.hands[0]) == 2


def test_revealing_moat_does_not_draw():
    st = position({"hand": ["Witch"], "deck": [S, S]}, {"hand": ["Moat"], "deck": [G]})
    play(st, 0, act="play", card="Witch")
    play(st, 1, act="yes")
    assert st.hands[1] == ["Moat"]


# --- end and score (§9, §10) -----------------------------------------------------------


def test_three_empty_supply_piles_end_the_game_at_the_end_of_the_turn_curses_included():
    st = position({"hand": [C, C]}, FIVE_COPPERS, supply={"Curse": 0, "Estate": 0, "Moat": 1})
    play(st, 0, act="play_treasures")
    play(st, 0, act="buy", card="Moat")
    assert not st.game_over
    play(st, 0, act="end_turn")
    assert st.game_over and "game is over" in refused(st, 1, act="end_turn")


def test_the_trash_is_not_a_supply_pile_for_the_ending():
    st = position({"hand": [C]}, FIVE_COPPERS, supply={"Curse": 0, "Estate": 0})
    st.trash = ["Moat"] * 10
    play(st, 0, act="end_turn")
    assert not st.game_over


def test_buying_the_last_province_ends_the_game_after_that_turn_and_scores_count_it():
    st = position(
        {"hand": [C], "deck": [], "discard": ["Province"]},
        {"hand": [C], "discard": ["Province"]},
        supply={"Province": 1},
        player=1,
        phase="buy",
        coins=8,
    )
    play(st, 1, act="buy", card="Province")
    play(st, 1, act="end_turn")
    res = ENGINE.result(st)
    assert res.scores[0] == 6 + 0 and res.scores[1] == 12
    assert res.winners == [1]


def test_shared_win_when_scores_and_turns_are_equal():
    st = position(
        {"hand": [], "discard": ["Duchy"]}, {"hand": [], "discard": ["Duchy"]}, supply={"Province": 0}, player=1
    )
    play(st, 1, act="end_turn")
    res = ENGINE.result(st)
    assert res.winners == [0, 1] and res.ranks == [1, 1]


def test_the_score_shown_is_the_score_the_winner_was_computed_from():
    st = position(
        {"hand": [], "discard": ["Gardens"] * 3 + [C] * 17},
        {"hand": [], "discard": ["Duchy"] * 2},
        supply={"Province": 0},
    )
    play(st, 0, act="end_turn")
    view = ENGINE.view(st, 1)
    assert view["result"]["scores"] == [6, 6] == [s["score"] for s in view["seats"]]
    # Seat 0 ended the game on a tie: seat 1 had one turn fewer and wins (§10).
    assert view["result"]["winners"] == [1]


def test_legal_card_choices_are_every_distinct_multiset_even_for_a_huge_hand():
    from itertools import combinations

    from games.engine.dominion.engine import choose_answers

    options = ["Copper", "Copper", "Estate", "Silver", "Silver", "Silver"]
    expected = {tuple(sorted(c)) for k in range(1, 5) for c in combinations(options, k)}
    assert {tuple(sorted(a)) for a in choose_answers(options, 1, 4)} == expected
    # 25 Coppers and an Estate: 52 answers, found from the counts, not 2**26 combinations.
    assert len(choose_answers(["Copper"] * 25 + ["Estate"], 0, 26)) == 52


# --- hidden information (§4, §7 "Hidden information") ------------------------------


def test_a_players_view_hides_other_hands_every_deck_order_and_the_seed():
    import json

    seed = 987_654_321
    st = ENGINE.new_game({"kingdom": "First Game"}, 3, seed=seed)
    for viewer in (0, 1, 2, None):
        view = ENGINE.view(st, viewer)
        for s in view["seats"]:
            assert (s["hand"] is not None) == (s["seat"] == viewer)
            assert "deck" not in s and "owned" not in s and "discard" not in s
            assert s["deck_count"] == 5 and s["hand_count"] == 5
        text = json.dumps(view)
        assert str(seed) not in text and "rng" not in text and "seed" not in text


def test_a_players_view_shows_only_their_own_decision():
    # Version 2, the rulebook order: version 3 lets the attacker go on (test_deferral.py).
    st = position({"hand": ["Militia"]}, {"hand": [C, C, S, E, E]}, {"hand": [C, C, S, E, G]}, version=2)
    play(st, 0, act="play", card="Militia")
    assert ENGINE.view(st, 1)["decision"]["player"] == 1
    assert ENGINE.view(st, 2)["decision"]["player"] == 2
    assert ENGINE.view(st, 0)["decision"] is None and ENGINE.view(st, None)["decision"] is None
    assert sorted(ENGINE.view(st, 0)["waiting_on"]) == [1, 2]


def test_another_players_draws_are_logged_as_a_count_only():
    st = position({"hand": ["Council Room"], "deck": [C, C, C, C]}, {"hand": [], "deck": [G]})
    events = ENGINE.apply(st, 0, {"act": "play", "card": "Council Room"})
    draws = [e for e in events if e.kind == "draw" and e.player == 1]
    assert draws and draws[0].for_viewer(0) == {"kind": "draw", "player": 1, "count": 1}
    assert draws[0].for_viewer(1)["cards"] == [G]


def test_a_finished_game_shows_every_zone_to_everyone():
    st = position({"hand": [], "deck": [G, S], "discard": ["Province"]}, FIVE_COPPERS, supply={"Province": 0})
    play(st, 0, act="end_turn")
    view = ENGINE.view(st, 1)
    assert all(s["hand"] is not None and "deck" in s for s in view["seats"])


# --- kingdom validation (§3, §11) -------------------------------------------------


@pytest.mark.parametrize(
    "kingdom",
    [
        ["Copper", "Cellar", "Chapel", "Moat", "Village", "Workshop", "Bureaucrat", "Feast", "Gardens", "Spy"],
        ["Curse", "Cellar", "Chapel", "Moat", "Village", "Workshop", "Bureaucrat", "Feast", "Gardens", "Spy"],
        ["Cellar", "Chapel", "Moat", "Village", "Workshop", "Bureaucrat", "Feast", "Gardens", "Spy"],
        ["Cellar", "Chapel", "Moat", "Village", "Workshop", "Bureaucrat", "Feast", "Gardens", "Spy", "Witch", "Mine"],
        ["cellar", "Chapel", "Moat", "Village", "Workshop", "Bureaucrat", "Feast", "Gardens", "Spy", "Witch"],
        "first game",
        [],
        {"kingdom": "First Game"},
    ],
)
def test_kingdom_of_basic_or_unknown_cards_or_not_ten_is_refused(kingdom):
    with pytest.raises(InvalidOptions):
        ENGINE.normalize_options({"kingdom": kingdom}, 2, seed=1)


def test_every_recommended_set_is_ten_distinct_kingdom_cards():
    from games.engine.dominion.cards import KINGDOM_CARDS, RECOMMENDED_SETS

    assert len(KINGDOM_CARDS) == 25
    for name in RECOMMENDED_SETS:
        kingdom = ENGINE.normalize_options({"kingdom": name}, 4, seed=1)["kingdom"]
        assert len(set(kingdom)) == 10 and set(kingdom) <= set(KINGDOM_CARDS)


def test_the_supply_is_seventeen_piles_and_gardens_follows_the_victory_count():
    for players, victory in ((2, 8), (3, 12), (4, 12)):
        st = ENGINE.new_game({"kingdom": "Size Distortion"}, players, seed=3)
        assert len(st.supply) == 17 and "Trash" not in st.supply
        assert st.supply["Gardens"] == victory and st.supply["Curse"] == 10 * (players - 1)
        assert st.supply["Copper"] == 60 - 7 * players


def test_supply_sizes_are_not_carried_from_one_game_to_the_next():
    ENGINE.new_game({"kingdom": "Size Distortion"}, 2, seed=3)
    st = ENGINE.new_game({"kingdom": "Size Distortion"}, 3, seed=3)
    assert st.supply["Province"] == 12 and st.supply["Gardens"] == 12


def test_a_buy_or_gain_without_a_card_says_which_card_is_missing():
    st = position(
        {"hand": ["Workshop", G]},
        FIVE_COPPERS,
        kingdom=["Workshop", "Smithy", "Cellar", "Chapel", "Moat", "Village", "Market", "Witch", "Mine", "Militia"],
    )
    assert refused(st, 0, act="buy") == "Say which card to buy."
    play(st, 0, act="play", card="Workshop")
    assert refused(st, 0, act="gain") == "Say which card to gain."


def test_the_second_edition_flags_make_throne_room_mine_and_moneylender_optional(monkeypatch):
    """§12: compulsory vs optional sits behind a per-card flag, so a 2nd-edition variant is configuration."""
    from games.engine.dominion import effects

    for card in ("Throne Room", "Mine", "Moneylender"):
        monkeypatch.setitem(effects.COMPULSORY, card, False)
    kingdom = ["Moneylender", "Mine", "Throne Room", "Smithy", "Cellar", "Chapel", "Moat", "Village", "Market", "Witch"]
    st = position({"hand": ["Moneylender", C, C, E]}, FIVE_COPPERS, kingdom=kingdom)
    play(st, 0, act="play", card="Moneylender")
    assert asked(st) == [(0, "trash")]
    play(st, 0, act="choose", cards=[])
    assert st.coins == 0 and st.trash == [] and st.hands[0].count(C) == 2
    st = position({"hand": ["Mine", C]}, FIVE_COPPERS, kingdom=kingdom)
    play(st, 0, act="play", card="Mine")
    play(st, 0, act="choose", cards=[])
    assert st.hands[0] == [C] and st.trash == []
    st = position({"hand": ["Throne Room", "Smithy"], "deck": [S, S, S]}, FIVE_COPPERS, kingdom=kingdom)
    play(st, 0, act="play", card="Throne Room")
    play(st, 0, act="choose", cards=[])
    assert st.hands[0] == ["Smithy"]
