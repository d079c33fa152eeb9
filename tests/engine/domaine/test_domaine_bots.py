"""Bots: legal moves, the greedy bot beats the random one, simulate prints its report."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

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
