"""Random play: games end, cards are conserved, replay is exact, views keep secrets."""

from __future__ import annotations

import json
import pickle
import random
import subprocess
import sys
from pathlib import Path

import pytest

from games.engine.dominion.bots import BOTS
from games.engine.dominion.engine import ENGINE, new_state, resolve_kingdom
from games.engine.dominion.simulate import play_out

ROOT = Path(__file__).resolve().parents[3]
TURN_LIMIT = 300


def recorded_random_game(players: int, seed: int, check_every_move: bool = True):
    """Play a random-bot game; return (final state, moves) after checking invariants on each move."""
    st = new_state(players, resolve_kingdom("random", seed), seed)
    moves = []

    def after(state, player, move):
        moves.append((player, move))
        if check_every_move:
            assert state.card_counts() == state.start_counts, f"cards not conserved after {move}"
            assert state.actions >= 0 and state.buys >= 0 and state.coins >= 0
            for d in state.open:
                assert d.min <= d.max and (d.answer != "choose" or d.max <= len(d.options))

    play_out(st, [BOTS["random"]] * players, random.Random(seed), TURN_LIMIT, on_move=after)
    return st, moves


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_end_and_conserve_every_card(players):
    ended = 0
    for seed in range(700):
        st, moves = recorded_random_game(players, seed * 7 + players)
        ended += st.game_over
    # Random bots buy at random, so piles run out: nearly every game ends within the limit.
    assert ended >= 690


@pytest.mark.parametrize("players", [2, 3, 4])
def test_replaying_the_log_from_the_seed_gives_an_equal_state(players):
    for seed in range(15):
        st, moves = recorded_random_game(players, 1000 + seed, check_every_move=False)
        again = ENGINE.new_game({"kingdom": st.kingdom, "hidden_reactions": st.ask_all}, players, 1000 + seed)
        for p, m in moves:
            ENGINE.apply(again, p, m)
        assert pickle.dumps(again) == pickle.dumps(st)


def test_same_seed_and_moves_give_the_same_game_in_another_interpreter():
    script = (
        "import json,random,sys;"
        "from games.engine.dominion.simulate import play_game;"
        "from games.engine.dominion.scenario import report;"
        "st=play_game(['smart','random','big_money'],424242,'random');"
        "print(json.dumps(report(st),sort_keys=True))"
    )
    outs = [
        subprocess.run(
            [sys.executable, "-c", script],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
            env={"PYTHONHASHSEED": str(h), "PATH": "/usr/bin:/bin"},
        ).stdout
        for h in (1, 2)
    ]
    assert outs[0] == outs[1] and json.loads(outs[0])["game_over"]


def _secrets_in(view: dict, viewer) -> list:
    """Everything in a running game's view that ``viewer`` must not see."""
    leaks = []
    for seat in view["seats"]:
        if seat["seat"] != viewer and seat["hand"] is not None:
            leaks.append(("hand", seat["seat"]))
        if "deck" in seat or "owned" in seat:
            leaks.append(("deck", seat["seat"]))
    if view["decision"] is not None and view["decision"]["player"] != viewer:
        leaks.append(("decision", view["decision"]["player"]))
    return leaks


@pytest.mark.parametrize("players", [2, 4])
def test_no_view_or_log_entry_shows_another_players_hand_or_any_deck_order(players):
    rng = random.Random(players)
    st = new_state(players, resolve_kingdom("random", 77), 77)
    bots = [BOTS["smart"]] * players
    while not st.game_over and sum(st.turns) < 200:
        p = next((d.player for d in st.open if d.player not in st.answers), st.current)
        events = ENGINE.apply(st, p, bots[p](ENGINE.player_view(st, p), rng))
        if st.game_over:
            break
        for viewer in [*range(players), None]:
            view = ENGINE.view(st, viewer)
            assert _secrets_in(view, viewer) == []
            if viewer is not None:
                assert sorted(view["seats"][viewer]["hand"]) == sorted(st.hands[viewer])
            for e in events:
                shown = e.for_viewer(viewer)
                if e.kind == "draw" and e.player != viewer:
                    assert shown is not None and "cards" not in shown and shown["count"] >= 1
    final = ENGINE.view(st, None)
    assert all(s["hand"] is not None and "deck" in s for s in final["seats"])


@pytest.mark.parametrize(
    "kingdom",
    [
        ["Witch", "Cellar", "Chapel", "Moat", "Village", "Workshop", "Bureaucrat", "Feast", "Gardens", "Spy"],
        ["Smithy", "Cellar", "Chapel", "Moat", "Village", "Workshop", "Bureaucrat", "Feast", "Gardens", "Spy"],
    ],
)
def test_smart_beats_big_money_on_witch_and_smithy_kingdoms(kingdom):
    from games.engine.dominion.simulate import play_game

    wins = 0.0
    games = 200
    for i in range(games):
        # Alternate seats so the first-player advantage cancels out.
        order = ["smart", "big_money"] if i % 2 == 0 else ["big_money", "smart"]
        st = play_game(order, 5000 + i, kingdom)
        res = ENGINE.result(st)
        smart_seat = order.index("smart")
        if smart_seat in res.winners:
            wins += 1 / len(res.winners)
    assert wins / games >= 0.6, wins / games
