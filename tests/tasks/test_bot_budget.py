"""A bot level that runs out of CPU hands its move to the level below (games.botbudget)."""

from __future__ import annotations

import random
import threading
import time
from typing import Any

import pytest

from games.botbudget import cpu_budget, level_number, move_within_budget


def _spin(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A bot that thinks forever (CPU, not sleep: the budget counts CPU)."""
    while True:
        sum(range(1000))


def _add(n: int):
    def bot(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
        return {"act": "add", "n": n}

    return bot


BOTS = {"level1": _add(1), "level2": _add(2), "level3": _spin, "smart": _add(3)}


def test_a_level_that_runs_out_of_cpu_hands_the_move_to_the_level_below():
    started = time.process_time()
    moved, move = move_within_budget(BOTS, "level3", {}, random.Random, 0.2)
    assert (moved, move) == ("level2", {"act": "add", "n": 2})
    assert time.process_time() - started < 2  # interrupted near its budget, not left to run


def test_levels_within_their_budget_and_other_bots_move_themselves():
    assert move_within_budget(BOTS, "level2", {}, random.Random, 0.5) == ("level2", {"act": "add", "n": 2})
    assert move_within_budget(BOTS, "smart", {}, random.Random, 0.5) == ("smart", {"act": "add", "n": 3})


def test_the_fallback_skips_a_level_the_game_lacks():
    bots = {"level1": _add(1), "level4": _spin}
    assert move_within_budget(bots, "level4", {}, random.Random, 0.1) == ("level1", {"act": "add", "n": 1})


def test_the_budget_is_cpu_time_and_is_lifted_afterwards():
    with cpu_budget(0.3) as enforced:
        time.sleep(0.5)  # waiting costs no CPU: not interrupted
    assert enforced
    time.sleep(0.1)
    sum(range(3_000_000))  # no timer left behind to fire later


def test_outside_the_main_thread_no_budget_is_enforced():
    seen = []
    thread = threading.Thread(target=lambda: seen.append(cpu_budget(0.1).__enter__()))
    thread.start()
    thread.join()
    assert seen == [False]


@pytest.mark.parametrize(("name", "number"), [("level5", 5), ("level", None), ("smart", None), ("level1x", None)])
def test_level_numbers(name, number):
    assert level_number(name) == number
