"""Versioned rules: a game replays and plays on by the rules it started with."""

from __future__ import annotations

import pickle

import pytest

from games.engine.core import EngineError, UnsupportedVersion
from games.engine.domaine import rules
from games.engine.domaine.board import SQ_NAME
from games.engine.domaine.engine import ENGINE as DOMAINE
from games.engine.registry import get_engine


def test_one_argument_gives_the_current_engine():
    for kind in ("dominion", "domaine"):
        engine = get_engine(kind)
        assert engine.version == max(engine.versions)
        assert get_engine(kind, None) is engine
        assert get_engine(kind, engine.version) is engine


def test_every_listed_version_has_its_engine():
    for kind in ("dominion", "domaine"):
        for v in get_engine(kind).versions:
            engine = get_engine(kind, v)
            assert engine.version == v and engine.kind == kind


@pytest.mark.parametrize("version", [0, 99, "1", True, 1.0])
def test_an_unknown_version_is_refused_clearly(version):
    with pytest.raises(UnsupportedVersion) as err:
        get_engine("domaine", version)
    assert isinstance(err.value, EngineError) and isinstance(err.value, LookupError)
    assert err.value.kind == "domaine" and err.value.supported == (1, 2)
    assert "domaine has no engine version" in str(err.value)


def test_an_unknown_kind_is_still_a_key_error():
    with pytest.raises(KeyError):
        get_engine("chess", 1)


def _forest_knight_placement(state):
    """A legal first placement whose knight stands on a forest, if the deal has one."""
    for move in DOMAINE.legal_moves(state, 0):
        if state.board.terrain[SQ_NAME.index(move["knight"])] == rules.FOREST:
            return move
    raise AssertionError("no forest next to a legal castle square")


def test_a_version_1_game_goes_on_by_version_1_rules_after_the_upgrade():
    old = get_engine("domaine", 1).new_game({}, 2, 12345)
    assert old.version == 1
    # Later, in another process, the current engine (version 2) continues it.
    state = pickle.loads(pickle.dumps(old))
    move = _forest_knight_placement(state)
    events = get_engine("domaine").apply(state, 0, move)
    assert events[0].data["paid"] == 1 and state.players[0].gold == rules.START_GOLD - 1  # version 1: costs 1
    assert get_engine("domaine").view(state, None)["version"] == 1


def test_a_new_game_uses_version_2():
    state = get_engine("domaine").new_game({}, 2, 12345)
    assert state.version == 2
    events = get_engine("domaine").apply(state, 0, _forest_knight_placement(state))
    assert events[0].data["paid"] == 0 and state.players[0].gold == rules.START_GOLD  # version 2: free
    assert DOMAINE.view(state, 0)["version"] == 2


def test_a_state_cached_before_versions_existed_reads_as_version_1():
    state = get_engine("domaine", 1).new_game({}, 3, 7)
    # What unpickling a pre-version pickle does: the same slots, without ``version``.
    raw = {name: getattr(state, name) for name in type(state).__slots__ if name != "version"}
    fresh = object.__new__(type(state))
    fresh.__setstate__((None, raw))
    assert fresh.version == 1 and fresh.key() == state.key()


def test_the_dominion_state_remembers_its_version_too():
    assert get_engine("dominion", 1).new_game({"kingdom": "First Game"}, 2, 1).version == 1
    assert get_engine("dominion", 2).new_game({"kingdom": "First Game"}, 2, 1).version == 2
    assert get_engine("dominion").new_game({"kingdom": "First Game"}, 2, 1).version == 3
