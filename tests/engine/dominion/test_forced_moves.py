"""Moves that need no thought: the engine names them, so the site can make them for the player."""

from __future__ import annotations

from games.engine.dominion.engine import ENGINE
from tests.engine.dominion.helpers import play, position

HAND = {"hand": ["Copper", "Copper", "Copper", "Estate", "Estate"], "deck": ["Copper"] * 5}
OTHER = {"hand": ["Copper"] * 5, "deck": ["Estate"] * 5}


def test_end_turn_is_forced_once_the_last_buy_is_spent():
    st = position(HAND, OTHER, phase="buy", coins=3, buys=1)
    assert ENGINE.forced_move(st) is None  # buying, playing a Treasure or ending are all open
    play(st, 0, act="buy", card="Silver")
    assert ENGINE.forced_move(st) == (0, {"act": "end_turn"})


def test_a_second_buy_leaves_the_choice_to_the_player():
    st = position(HAND, OTHER, phase="buy", coins=5, buys=2)
    play(st, 0, act="buy", card="Silver")
    assert ENGINE.forced_move(st) is None  # $2 left and a Buy: Copper, Curse, Cellar... or end


def test_nothing_is_forced_in_the_action_phase_or_on_a_question():
    assert ENGINE.forced_move(position(HAND, OTHER)) is None
    militia = position(
        {"hand": ["Militia", "Copper", "Copper", "Estate", "Estate"], "deck": ["Copper"] * 5},
        {"hand": ["Copper", "Copper", "Silver", "Estate", "Estate"], "deck": ["Copper"] * 5},
        kingdom=[
            "Cellar",
            "Chapel",
            "Festival",
            "Market",
            "Militia",
            "Moat",
            "Smithy",
            "Throne Room",
            "Village",
            "Witch",
        ],
    )
    play(militia, 0, act="play", card="Militia")
    assert ENGINE.forced_move(militia) is None  # the victim chooses which two to discard
