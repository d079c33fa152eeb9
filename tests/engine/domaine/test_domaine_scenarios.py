"""The rules test vectors: the 25 official ones (copied from shared/scenarios/domaine into
tests/scenarios/domaine) and the project's own (tests/scenarios/domaine-herald), same format."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from games.engine.cli import EXIT_OK, EXIT_REFUSED, run_scenario
from games.engine.domaine import scenario as runner

ROOT = Path(__file__).resolve().parents[3]
OFFICIAL = sorted((ROOT / "tests" / "scenarios" / "domaine").glob("*.json"))
HERALD = sorted((ROOT / "tests" / "scenarios" / "domaine-herald").glob("*.json"))
FILES = OFFICIAL + HERALD
MULTISET_KEYS = {"hand", "display", "squares"}


def same(key, want, got):
    """Compare like shared/tools/check-scenarios: multisets, pending by player, records by prefix."""
    if key in MULTISET_KEYS and isinstance(want, list) and isinstance(got, list):
        return Counter(map(json.dumps, want)) == Counter(map(json.dumps, got))
    if key == "pending":
        return sorted(w.get("player") for w in want) == sorted(g.get("player") for g in got)
    if isinstance(want, dict) and isinstance(got, dict):
        return all(k in got and same(k, v, got[k]) for k, v in want.items())
    if key in ("players", "domains") and isinstance(want, list) and isinstance(got, list):
        if key == "domains" and len(want) != len(got):
            return False
        return len(want) <= len(got) and all(same(key + "[]", w, g) for w, g in zip(want, got, strict=False))
    return want == got


def test_all_twenty_five_vectors_are_here():
    assert len(OFFICIAL) == 25


def test_the_project_vectors_are_here():
    assert HERALD, "tests/scenarios/domaine-herald holds the project's own vectors"


@pytest.mark.parametrize("path", FILES, ids=[f.parent.name + "/" + f.stem for f in FILES])
def test_scenario(path):
    data = json.loads(path.read_text())
    expect = dict(data.get("expect", {}))
    error_at = expect.pop("error_at", None)
    code, out = run_scenario(data, runner.build, runner.apply, runner.report)
    if error_at is not None:
        assert code == EXIT_REFUSED and out["error"]["move"] == error_at, out
    else:
        assert code == EXIT_OK, out
    for key, want in expect.items():
        assert same(key, want, out[key]), (key, want, out[key])


def test_runner_command_line_contract(tmp_path):
    cmd = [sys.executable, "-m", "games.engine.domaine.scenario"]
    ok = subprocess.run(cmd + [str(FILES[0])], capture_output=True, text=True, cwd=ROOT)
    assert ok.returncode == 0 and json.loads(ok.stdout)["turn"] == {"player": 0, "step": "setup"}
    refused = next(f for f in FILES if "refused" in f.name)
    r = subprocess.run(cmd + [str(refused)], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 3 and "message" in json.loads(r.stdout)["error"]
    bad = tmp_path / "bad.json"
    bad.write_text('{"setup": {"players": 2, "castles": {"C7": 0}, "board": ["R"]}}')
    m = subprocess.run(cmd + [str(bad)], capture_output=True, text=True, cwd=ROOT)
    assert m.returncode == 2
