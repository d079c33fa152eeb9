"""Issue 16's measure on a few games (``bench/waits.py`` plays 100 per player count)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from games.engine.dominion.standing import ASK_ALL, DEFAULTS

_spec = importlib.util.spec_from_file_location("waits", Path(__file__).resolve().parents[3] / "bench" / "waits.py")
assert _spec is not None and _spec.loader is not None
waits = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(waits)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_with_default_standing_answers_nobody_waits_beyond_their_own_turns(players):
    for seed in range(4):
        counts = waits.play(players, seed, DEFAULTS)
        assert counts["waits"] == counts["turns"] and counts["turns"] > 20


@pytest.mark.parametrize("players", [2, 3, 4])
def test_with_ask_me_each_victim_waits_at_most_once_per_attack(players):
    for seed in range(4):
        counts = waits.play(players, seed, ASK_ALL)
        assert counts["victim_waits"] <= counts["attack_victims"]
        # The attacker's turn waits only where a later effect needs an answer.
        reasons = {k[len("paused: ") :] for k in counts if k.startswith("paused: ")}
        assert reasons <= NEEDS_AN_ANSWER, reasons


#: What a turn may wait for (``effects``, "Version 3"): Spy, Thief and a Witch short of
#: Curses in the rulebook order, another attack or Council Room, the game's end, the Curse pile.
NEEDS_AN_ANSWER = {
    "strict Spy",
    "strict Thief",
    "strict Witch",
    "play Militia",
    "play Witch",
    "play Bureaucrat",
    "play Spy",
    "play Thief",
    "play Council Room",
    "end_turn",
    "curses",
}
