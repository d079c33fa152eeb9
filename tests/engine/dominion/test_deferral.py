"""Version 3 (the attacker goes on while its victims answer) against the rulebook order.

The differential test plays a few thousand short games twice with the same
choices (``deferral_check``): in version 2, where every answer comes before
the attacker's next step, and in version 3 with the victims answering at
random later moments. The states must be equal after every turn.
``bench/deferral_bench.py`` runs many more.
"""

from __future__ import annotations

import pytest

from games.engine.core import Decision
from games.engine.dominion.engine import ENGINE, open_decision
from games.engine.dominion.standing import DEFAULTS, clean, discard_order, standing_answer
from tests.engine.dominion.deferral_check import KINGDOMS, play
from tests.engine.dominion.helpers import position, refused

C, E, S, G, D = "Copper", "Estate", "Silver", "Gold", "Duchy"
GAMES = 350  # per player count and hidden/plain: 2,100 games in all


@pytest.mark.parametrize("hidden", [False, True], ids=["holders-asked", "hidden-reactions"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_deferred_answers_give_the_rulebook_states_after_every_turn(players, hidden):
    compared = 0
    deferred_moves = 0
    for i in range(GAMES):
        seed = 7919 * i + players
        kingdom = KINGDOMS[i % len(KINGDOMS)]
        # Every other game with a small Curse pile: Witches hand out the last Curses while
        # Moat answers are owed, and the turn goes on with only a Curse buy or gain waiting.
        curses = (i // 2) % (players + 2) if i % 2 else None
        strict_rests, strict_end, _ = play(players, seed, kingdom, deferred=False, curses=curses)
        rests, end, moves = play(players, seed, kingdom, deferred=True, hidden=hidden, curses=curses)
        deferred_moves += moves
        for key, snap in rests.items():
            if key in strict_rests:
                assert snap == strict_rests[key], (seed, kingdom, key)
                compared += 1
        assert end == strict_end, (seed, kingdom)
    # Most turns start at a rest point in both runs: the comparison is not vacuous.
    assert compared > GAMES * 10


def _militia_position(version=None):
    return position(
        {"hand": ["Village", "Militia", "Market", C, C], "deck": [S, S, S]},
        {"hand": [C, E, S, G, E]},
        {"hand": [C, C, S, E, D]},
        kingdom=[
            "Militia",
            "Market",
            "Council Room",
            "Witch",
            "Moat",
            "Bureaucrat",
            "Spy",
            "Thief",
            "Library",
            "Village",
        ],
        version=version,
    )


def test_the_attacker_plays_market_and_buys_while_victims_still_owe_their_discards():
    st = _militia_position()
    ENGINE.apply(st, 0, {"act": "play", "card": "Village"})
    ENGINE.apply(st, 0, {"act": "play", "card": "Militia"})
    assert st.coins == 2 and [d.player for d in ENGINE.pending(st)] == [0, 1, 2]
    ENGINE.apply(st, 0, {"act": "play", "card": "Market"})
    assert st.coins == 3 and st.buys == 2
    ENGINE.apply(st, 0, {"act": "play_treasures"})
    ENGINE.apply(st, 0, {"act": "buy", "card": "Gold"})
    assert st.discards[0] == ["Gold"]
    ENGINE.apply(st, 0, {"act": "buy", "card": "Copper"})
    assert ENGINE.forced_move(st) == (0, {"act": "end_turn"})  # made for her though others owe
    ENGINE.apply(st, 0, {"act": "end_turn"})  # the clean-up needs nobody's answer
    assert st.current == 1 and st.turns[0] == 1
    # Bob's turn starts with his owed answer: no turn move before it.
    assert "Choose cards" in refused(st, 1, act="end_actions")
    ENGINE.apply(st, 1, {"act": "choose", "cards": [E, E]})
    ENGINE.apply(st, 2, {"act": "choose", "cards": [E, D]})
    assert sorted(st.hands[1]) == [C, G, S] and sorted(st.discards[2]) == [D, E]
    assert [d.kind for d in ENGINE.pending(st)] == ["turn"]


def test_council_room_waits_until_the_victims_have_discarded():
    st = position(
        {"hand": ["Village", "Militia", "Council Room"], "deck": [C, C, C, C, C]},
        {"hand": [C, E, S, G, E], "deck": [G]},
        {"hand": [C, C, S, E, D], "deck": [G]},
        kingdom=[
            "Militia",
            "Market",
            "Council Room",
            "Witch",
            "Moat",
            "Bureaucrat",
            "Spy",
            "Thief",
            "Library",
            "Village",
        ],
    )
    for card in ("Village", "Militia", "Council Room"):
        ENGINE.apply(st, 0, {"act": "play", "card": card})
    assert len(st.hands[0]) == 1  # Council Room has not resolved: it waits
    assert "goes on once" in refused(st, 0, act="end_actions")
    assert [d.player for d in ENGINE.pending(st)] == [1, 2]
    ENGINE.apply(st, 1, {"act": "choose", "cards": [E, E]})
    assert len(st.hands[0]) == 1
    ENGINE.apply(st, 2, {"act": "choose", "cards": [E, D]})
    # Now the victims discarded from the hand they were attacked with, then drew.
    assert sorted(st.hands[1]) == [C, G, G, S] and sorted(st.hands[2]) == [C, C, G, S]
    assert len(st.hands[0]) == 5 and st.buys == 2


def test_a_second_attack_waits_for_the_first_ones_answers():
    st = position(
        {"hand": ["Throne Room", "Militia"]},
        {"hand": [C, E, S, G, E]},
        kingdom=[
            "Militia",
            "Market",
            "Council Room",
            "Witch",
            "Moat",
            "Bureaucrat",
            "Spy",
            "Thief",
            "Throne Room",
            "Village",
        ],
    )
    ENGINE.apply(st, 0, {"act": "play", "card": "Throne Room"})
    assert st.coins == 2 and len(st.stack) == 1  # the second Militia waits
    ENGINE.apply(st, 1, {"act": "choose", "cards": [E, E]})
    assert st.coins == 4 and not st.owed  # 3 cards: nothing more to discard


def test_the_games_end_waits_for_owed_answers():
    st = position(
        {"hand": ["Militia", G, G, S]},
        {"hand": [C, E, S, G, E]},
        kingdom=[
            "Militia",
            "Market",
            "Council Room",
            "Witch",
            "Moat",
            "Bureaucrat",
            "Spy",
            "Thief",
            "Library",
            "Village",
        ],
        supply={"Province": 1},
    )
    ENGINE.apply(st, 0, {"act": "play", "card": "Militia"})
    ENGINE.apply(st, 0, {"act": "play_treasures"})
    ENGINE.apply(st, 0, {"act": "buy", "card": "Province"})
    assert ENGINE.forced_move(st) == (0, {"act": "end_turn"})
    ENGINE.apply(st, 0, {"act": "end_turn"})
    assert not st.game_over and st.stack == [("end_turn", 0)]
    ENGINE.apply(st, 1, {"act": "choose", "cards": [E, E]})
    assert st.game_over


def test_witch_reserves_curses_for_victims_who_may_still_reveal_moat():
    kingdom = ["Militia", "Market", "Council Room", "Witch", "Moat", "Bureaucrat", "Spy", "Thief", "Library", "Village"]
    st = position(
        {"hand": ["Witch", C, C], "deck": [S, S]},
        {"hand": ["Moat", C, C, C, C]},
        kingdom=kingdom,
        supply={"Curse": 2},
    )
    ENGINE.apply(st, 0, {"act": "play", "card": "Witch"})
    assert st.reserved == 1 and st.supply["Curse"] == 2
    ENGINE.apply(st, 0, {"act": "play_treasures"})
    ENGINE.apply(st, 0, {"act": "buy", "card": "Curse"})  # the one Curse nobody's answer needs
    # Whether the pile is now empty depends on Bob; her clean-up does not, nor (one pile at
    # most empty) the game's end: her turn ends, and Bob's starts with his answer.
    assert [d.player for d in ENGINE.pending(st)] == [0, 1]
    assert ENGINE.forced_move(st) == (0, {"act": "end_turn"})
    ENGINE.apply(st, 0, {"act": "end_turn"})
    assert st.current == 1 and [d.kind for d in ENGINE.pending(st)] == ["reveal_moat"]
    ENGINE.apply(st, 1, {"act": "no"})
    assert st.supply["Curse"] == 0 and st.discards[1] == ["Curse"] and st.reserved == 0


LAST_CURSE_KINGDOM = ["Witch", "Moat", "Village", "Workshop", "Feast", "Remodel", "Market", "Militia", "Spy", "Smithy"]


def test_a_gain_that_could_be_the_last_curse_waits_for_the_moat_answer():
    st = position(
        {"hand": ["Village", "Witch", "Workshop"], "deck": [C, C, C]},
        {"hand": ["Moat", C, C, C, E]},
        kingdom=LAST_CURSE_KINGDOM,
        supply={"Curse": 1},
    )
    for card in ("Village", "Witch", "Workshop"):
        ENGINE.apply(st, 0, {"act": "play", "card": card})
    # Curse is among Workshop's cards only if Bob reveals Moat: the gain waits for him.
    assert open_decision(st, 0) is None and "goes on once" in refused(st, 0, act="end_turn")
    ENGINE.apply(st, 1, {"act": "no"})
    assert "Curse" not in open_decision(st, 0).options and st.discards[1] == ["Curse"]
    ENGINE.apply(st, 0, {"act": "gain", "card": S})
    assert st.discards[0] == [S]


def test_the_games_end_waits_when_the_last_curse_would_empty_a_third_pile():
    st = position(
        {"hand": ["Witch", C, C, C], "deck": [C, C]},
        {"hand": ["Moat", C, C, C, E]},
        kingdom=LAST_CURSE_KINGDOM,
        supply={"Curse": 1, "Market": 0, "Spy": 0},
    )
    ENGINE.apply(st, 0, {"act": "play", "card": "Witch"})
    ENGINE.apply(st, 0, {"act": "play_treasures"})
    ENGINE.apply(st, 0, {"act": "buy", "card": "Silver"})
    ENGINE.apply(st, 0, {"act": "end_turn"})
    assert st.stack == [("end_turn", 0)] and st.turns[0] == 0  # clean-up waits too (rulebook order)
    ENGINE.apply(st, 1, {"act": "no"})
    assert st.game_over and st.supply["Curse"] == 0


def test_end_turn_is_not_made_for_a_player_who_may_yet_buy_the_last_curse():
    st = position(
        {"hand": ["Witch"], "deck": [E, E]},
        {"hand": ["Moat", C, C, C, E]},
        kingdom=LAST_CURSE_KINGDOM,
        supply={"Curse": 1, "Copper": 0},
    )
    ENGINE.apply(st, 0, {"act": "play", "card": "Witch"})
    ENGINE.apply(st, 0, {"act": "end_actions"})
    assert ENGINE.legal_moves(st, 0) == [{"act": "end_turn"}]
    assert ENGINE.forced_move(st) is None  # a Curse buy is legal if Bob reveals Moat
    ENGINE.apply(st, 1, {"act": "yes"})
    assert {"act": "buy", "card": "Curse"} in ENGINE.legal_moves(st, 0)


def test_hidden_reactions_ask_every_victim_and_a_hand_without_moat_may_only_say_no():
    st = _militia_position()
    st.ask_all = True
    ENGINE.apply(st, 0, {"act": "play", "card": "Village"})
    ENGINE.apply(st, 0, {"act": "play", "card": "Militia"})
    asked = {d.player: d for d in ENGINE.pending(st) if d.kind == "reveal_moat"}
    assert sorted(asked) == [1, 2] and asked[1].options == ["no"]
    assert "no Moat" in refused(st, 1, act="yes")
    ENGINE.apply(st, 1, {"act": "no"})
    assert [d.kind for d in ENGINE.pending(st) if d.player == 1] == ["discard"]


def test_version_2_games_keep_the_rulebook_order():
    st = _militia_position(version=2)
    ENGINE.apply(st, 0, {"act": "play", "card": "Village"})
    ENGINE.apply(st, 0, {"act": "play", "card": "Militia"})
    assert "waiting for" in refused(st, 0, act="play", card="Market")


def test_default_standing_answers_follow_their_documented_rules():
    st = position(
        {"hand": ["Militia", "Bureaucrat", "Village"]},
        {"hand": ["Curse", "Province", "Village", "Silver", "Estate", "Moat"]},
        {"hand": ["Duchy", "Gardens", C, C, C]},
        kingdom=[
            "Militia",
            "Market",
            "Council Room",
            "Witch",
            "Moat",
            "Bureaucrat",
            "Gardens",
            "Thief",
            "Library",
            "Village",
        ],
    )
    st.ask_all = True
    ENGINE.apply(st, 0, {"act": "play", "card": "Village"})
    ENGINE.apply(st, 0, {"act": "play", "card": "Militia"})
    assert ENGINE.standing_move(st, 1, DEFAULTS) == {"act": "yes"}
    assert ENGINE.standing_move(st, 1, {"moat": "ask"}) is None
    ENGINE.apply(st, 2, ENGINE.standing_move(st, 2, DEFAULTS))  # no Moat: "no reaction"
    # Curses, then Victory cards cheapest first, then the cheapest Treasures and Actions.
    assert ENGINE.standing_move(st, 2, DEFAULTS) == {"act": "choose", "cards": ["Gardens", "Duchy"]}
    assert ENGINE.standing_move(st, 2, {"militia": "ask"}) is None
    assert sorted(["Curse", "Province", "Village", "Silver", "Estate", "Moat", "Copper"], key=discard_order) == [
        "Curse",
        "Estate",
        "Province",
        "Copper",
        "Moat",
        "Village",
        "Silver",
    ]


def test_library_and_chancellor_standing_answers():
    lib = Decision(0, "library", "Set aside Smithy?", ["yes", "no"], 1, 1, "Library", {}, False, "yes_no")
    assert standing_answer(0, lib, DEFAULTS, actions=0) == {"act": "yes"}
    assert standing_answer(0, lib, DEFAULTS, actions=1) == {"act": "no"}
    assert standing_answer(0, lib, {"library": "keep"}, actions=0) == {"act": "no"}
    chan = Decision(0, "chancellor", "Deck?", ["yes", "no"], 1, 1, "Chancellor", {}, False, "yes_no")
    assert standing_answer(0, chan, DEFAULTS) is None
    assert standing_answer(0, chan, {"chancellor": "yes"}) == {"act": "yes"}
    assert clean({"moat": "never", "x": 1, "chancellor": "no"}) == {**DEFAULTS, "chancellor": "no"}


def test_a_witch_with_no_curse_left_waits_for_nobody():
    kingdom = ["Militia", "Market", "Council Room", "Witch", "Moat", "Bureaucrat", "Spy", "Thief", "Library", "Village"]
    st = position(
        {"hand": ["Witch", C, C], "deck": [S, S]}, {"hand": ["Moat", C, C, C, C]}, kingdom=kingdom, supply={"Curse": 0}
    )
    ENGINE.apply(st, 0, {"act": "play", "card": "Witch"})
    assert st.reserved == 0 and [d.player for d in ENGINE.pending(st)] == [0, 1]
    ENGINE.apply(st, 0, {"act": "play_treasures"})
    assert st.coins == 6
