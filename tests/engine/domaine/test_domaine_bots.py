"""Bots: legal moves, the greedy bot beats the random one, simulate prints its report."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from games.botbudget import BudgetExceeded
from games.engine.domaine import bots
from games.engine.domaine.engine import ENGINE, PlayerView
from games.engine.domaine.simulate import run

ROOT = Path(__file__).resolve().parents[3]


def test_greedy_beats_random_in_at_least_90_percent_of_two_player_games():
    wins, _ = run(50, 2, ["greedy", "random"], seed=1000)
    assert wins[0] >= 45, wins


def test_greedy_three_and_four_players_finish():
    for players in (3, 4):
        wins, turns = run(2, players, ["greedy"] + ["random"] * (players - 1), seed=7)
        assert sum(wins) == 2 and turns[0] > 0


def test_simulate_command_line_last_line():
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "games.engine.domaine.simulate",
            "--games",
            "3",
            "--players",
            "2",
            "--bots",
            "random,random",
            "--seed",
            "2",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert out.returncode == 0, out.stderr
    last = out.stdout.strip().splitlines()[-1]
    assert last.startswith("3 games in ") and last.endswith(" games/s")


def test_engine_exposes_the_bots():
    from games.engine.domaine.engine import ENGINE

    assert set(ENGINE.bots) >= {"random", "greedy"}
    st = ENGINE.new_game({}, 2, 1)
    move = ENGINE.bots["greedy"](ENGINE.player_view(st, 0), random.Random(0))
    ENGINE.check(st, 0, move)


def test_a_greedy_move_cut_short_by_the_cpu_budget_leaves_no_half_built_table_behind(monkeypatch):
    """The site's CPU budget (``games.botbudget``) stops a level's move wherever it is: a table the bot
    keeps for the rest of the worker's life (per board) must not be kept half built, or every later
    move on that board reads wrong plans."""
    st = ENGINE.new_game({}, 2, 11)
    rng = random.Random(11)
    while st.step == "setup":
        ENGINE.apply(st, st.turn_player, bots.greedy_bot(PlayerView(st, st.turn_player), rng))
    me = st.turn_player
    bots.GREEDY._prefix.clear()
    expected = bots.plans(st, me)

    class Interrupted(dict):
        """The plan points, with the budget's signal arriving at the 50th look-up."""

        calls = 0

        def __getitem__(self, key):
            Interrupted.calls += 1
            if Interrupted.calls == 50:
                raise BudgetExceeded
            return super().__getitem__(key)

    points = bots.GREEDY._plan_points
    bots.GREEDY._prefix.clear()
    monkeypatch.setattr(bots.GREEDY, "_plan_points", Interrupted(points))
    with pytest.raises(BudgetExceeded):
        bots.plans(st, me)
    monkeypatch.setattr(bots.GREEDY, "_plan_points", points)
    assert bots.plans(st, me) == expected
