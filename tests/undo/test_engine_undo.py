"""The pure part: which moves an undo retracts, and replaying a log with undo entries."""

from __future__ import annotations

import pytest

from games.engine import undo
from games.engine.core import IllegalMove
from games.engine.dominion.engine import ENGINE
from games.selectors import describe_move


def test_retracted_seqs_follow_each_undo_in_order():
    log = [(1, {"act": "a"}), (2, {"act": "b"}), (3, undo.undo_entry(1)), (4, {"act": "c"}), (5, undo.undo_entry(1))]
    assert undo.retracted_seqs(log) == {2: 3, 4: 5}


def test_an_undo_to_a_position_taken_back_is_refused():
    state = ENGINE.new_game({"kingdom": "First Game"}, 2, 7)
    moves = [{"act": "end_actions"}, undo.undo_entry(0), undo.undo_entry(1)]
    run = undo.Rewinder(ENGINE, state, undo.undo_targets(moves))
    run.apply(1, 0, moves[0])
    [event] = run.apply(2, 0, moves[1])
    assert event.kind == "undo" and event.data == {"to": 0, "count": 1}
    assert run.state.phase == "action"
    with pytest.raises(IllegalMove):
        run.apply(3, 0, moves[2])


def test_the_log_without_events_names_an_undo_entry():
    assert describe_move("Ann", undo.undo_entry(12)) == "Ann takes back their moves after move 12."
