"""Recorded games replay to the same end (regenerate only on purpose: ``python -m games.engine.golden record``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games.engine.dominion.cards import KINGDOM_CARDS
from games.engine.golden import replay

FILES = sorted(Path(__file__).parent.rglob("*.json"))


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_recorded_game_replays_to_the_same_end(path):
    record = json.loads(path.read_text())
    assert replay(record) == record["final"]
    assert record["final"]["game_over"]


def test_the_dominion_corpus_covers_every_card_and_player_count():
    records = [json.loads(f.read_text()) for f in FILES if f.name.startswith("dominion")]
    assert {r["players"] for r in records} == {2, 3, 4}
    assert {c for r in records for c in r["options"]["kingdom"]} == set(KINGDOM_CARDS)
    played = {m.get("card") for r in records for m in r["moves"] if m["act"] == "play"}
    assert set(KINGDOM_CARDS) - {"Gardens"} <= played
