"""The rules test vectors: the official set (copied byte-identical from shared/scenarios/dominion into
tests/scenarios/dominion) and the project's own (tests/scenarios/dominion-herald, same format)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from games.engine.cli import EXIT_REFUSED, run_scenario
from games.engine.dominion import scenario as runner

ROOT = Path(__file__).resolve().parents[3]
OFFICIAL = sorted((ROOT / "tests" / "scenarios" / "dominion").glob("*.json"))
HERALD = sorted((ROOT / "tests" / "scenarios" / "dominion-herald").glob("*.json"))
FILES = OFFICIAL + HERALD


def matches(key, want, got):
    """Compare like shared/tools/check-scenarios: zones as multisets, pending by player."""
    if key in {"hand", "discard", "play", "trash"}:
        return sorted(want) == sorted(got)
    if key == "pending":
        return sorted(w["player"] for w in want) == sorted(g["player"] for g in got)
    if key == "players":
        return len(want) <= len(got) and all(matches("seat", w, g) for w, g in zip(want, got, strict=False))
    if isinstance(want, dict):
        return all(k in got and matches(k, v, got[k]) for k, v in want.items())
    return want == got


def test_the_vectors_are_present():
    assert len(OFFICIAL) >= 34
    assert len(HERALD) >= 100


@pytest.mark.parametrize("path", FILES, ids=[f"{f.parent.name}/{f.stem}" for f in FILES])
def test_scenario(path):
    scenario = json.loads(path.read_text())
    expect = dict(scenario.get("expect", {}))
    error_at = expect.pop("error_at", None)
    code, out = run_scenario(scenario, runner.build, runner.apply, runner.report)
    if error_at is not None:
        assert code == EXIT_REFUSED and out["error"]["move"] == error_at, out
        assert out["error"]["message"]
    else:
        assert code == 0, out
        for key, want in expect.items():
            assert matches(key, want, out[key]), (key, want, out[key])


def test_the_runner_command_line_follows_the_contract(tmp_path):
    ok = subprocess.run(
        [sys.executable, "-m", "games.engine.dominion.scenario", str(FILES[0])],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert ok.returncode == 0 and "players" in json.loads(ok.stdout)
    refused = next(f for f in FILES if "illegal" in f.name)
    bad = subprocess.run(
        [sys.executable, "-m", "games.engine.dominion.scenario", str(refused)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert bad.returncode == 3 and "error" in json.loads(bad.stdout)
    junk = tmp_path / "junk.json"
    junk.write_text('{"setup": {"players": 2, "players_state": "x"}}')
    mal = subprocess.run(
        [sys.executable, "-m", "games.engine.dominion.scenario", str(junk)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert mal.returncode == 2 and mal.stderr


REFUSED = [f for f in FILES if "error_at" in json.loads(f.read_text()).get("expect", {})]


def _site_codes() -> set[str]:
    """The refusal codes the site translates: games/i18n.py's and each game's refusals part (read as text:
    they need Django to import)."""
    import re

    text = "".join(
        (ROOT / "games" / path).read_text() for path in ("i18n.py", "dominion/refusals.py", "domaine/refusals.py")
    )
    return set(re.findall(r'^\s*\(\s*"(\w+)",', text, flags=re.M)) | set(
        re.findall(r'^\s*"(\w+)",\n\s*r"', text, flags=re.M)
    )


@pytest.mark.parametrize("path", REFUSED, ids=[f"{f.parent.name}/{f.stem}" for f in REFUSED])
def test_a_refused_move_changes_nothing_and_has_a_translated_reason(path):
    """Notation file: an illegal move changes nothing and says why (a code the site translates)."""
    import pickle

    from games.engine.core import IllegalMove

    scenario = json.loads(path.read_text())
    k = scenario["expect"]["error_at"]
    st = runner.build(scenario["setup"], scenario.get("engine_version"))
    for move in scenario["moves"][:k]:
        runner.apply(st, move["player"], {key: v for key, v in move.items() if key != "player"})
    bad = scenario["moves"][k]
    before = pickle.dumps(st)
    with pytest.raises(IllegalMove) as refusal:
        runner.apply(st, bad["player"], {key: v for key, v in bad.items() if key != "player"})
    assert pickle.dumps(st) == before
    assert refusal.value.reason and refusal.value.code in _site_codes()


ACCEPTED = [f for f in FILES if "error_at" not in json.loads(f.read_text()).get("expect", {})]


@pytest.mark.parametrize("path", ACCEPTED, ids=[f"{f.parent.name}/{f.stem}" for f in ACCEPTED])
def test_every_vector_conserves_cards_and_leaves_nothing_set_aside_between_decisions(path):
    """Rules section 13: every card stays somewhere; a set-aside card is gone once its effect is done."""
    scenario = json.loads(path.read_text())
    st = runner.build(scenario["setup"], scenario.get("engine_version"))
    for move in scenario["moves"]:
        runner.apply(st, move["player"], {key: v for key, v in move.items() if key != "player"})
        assert st.card_counts() == st.start_counts
        if not st.open and not st.owed:  # version 3: work may wait on the stack for owed answers
            assert not st.stack and not any(st.asides)
