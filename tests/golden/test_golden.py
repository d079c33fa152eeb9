"""Recorded games replay exactly: every event and every seat's final view, under the
engine version each was played with (regenerate only on purpose:
``python -m games.engine.golden record``)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from games.engine.dominion.cards import KINGDOM_CARDS
from games.engine.golden import SPECTATOR_KEY, check_record, play_moves, read_record, record_files, record_game
from games.engine.registry import get_engine

FOLDER = Path(__file__).parent
FILES = record_files(FOLDER)
RECORDS = {f.name: read_record(f) for f in FILES}

#: Every ``act`` of the move notations (shared/rules/*-moves.md).
ACTS = {
    "dominion": {"play", "play_treasures", "buy", "end_actions", "end_turn", "choose", "gain", "yes", "no"},
    "domaine": {"place_castle", "place_neutral", "sell", "play", "take"},
}


def full(kind: str) -> list[dict]:
    """The records of ``kind`` that store every event and every seat's view."""
    return [r for r in RECORDS.values() if r["kind"] == kind and "views" in r]


@pytest.mark.parametrize("name", list(RECORDS), ids=[f.name.split(".")[0] for f in FILES])
def test_recorded_game_replays_exactly(name):
    assert check_record(RECORDS[name]) == []


@pytest.mark.parametrize("kind", ["dominion", "domaine"])
def test_the_corpus_has_fifty_full_games_of_each_kind(kind):
    records = full(kind)
    assert len(records) >= 50
    assert {r["players"] for r in records} == {2, 3, 4}
    assert {r["engine_version"] for r in records} == set(get_engine(kind).versions)
    ends = Counter(r["views"][SPECTATOR_KEY]["game_over"] for r in records)
    assert ends[True] >= 10 and ends[False] >= 10, "finished games and games stopped mid-game"
    for r in records:
        assert set(r["views"]) == {str(s) for s in range(r["players"])} | {SPECTATOR_KEY}
        assert len(r["events"]) == len(r["moves"])


@pytest.mark.parametrize("kind", ["dominion", "domaine"])
def test_every_act_of_the_notation_is_in_the_corpus_under_every_version(kind):
    for version in get_engine(kind).versions:
        # Undo entries (games.engine.undo) are the site's, not the notation's.
        acts = {m["act"] for r in full(kind) if r["engine_version"] == version for m in r["moves"]} - {"undo"}
        assert acts == ACTS[kind], (version, ACTS[kind] - acts)


def test_every_domaine_action_and_take_is_in_the_corpus_under_every_version():
    for version in get_engine("domaine").versions:
        moves = [m for r in full("domaine") if r["engine_version"] == version for m in r["moves"]]
        parts = {
            key
            for m in moves
            if m["act"] == "play"
            for key in m
            if key in ("borders", "knights", "squares", "remove", "with")
        }
        assert parts == {"borders", "knights", "squares", "remove", "with"}, version
        assert {m.get("from", "display") for m in moves if m["act"] == "take"} == {"deck", "display"}


def test_the_dominion_corpus_covers_every_card_and_player_count():
    records = [r for r in RECORDS.values() if r["kind"] == "dominion"]
    assert {r["players"] for r in records} == {2, 3, 4}
    assert {c for r in records for c in r["options"]["kingdom"]} == set(KINGDOM_CARDS)
    played = {m.get("card") for r in records for m in r["moves"] if m["act"] == "play"}
    assert set(KINGDOM_CARDS) - {"Gardens"} <= played


def test_a_version_1_dominion_game_holds_the_move_version_2_refuses():
    """play_treasures with no Treasure in hand: accepted by version 1, so it must keep replaying."""
    found = 0
    for r in full("dominion"):
        if r["engine_version"] != 1:
            continue
        for move, events in zip(r["moves"], r["events"], strict=True):
            if move["act"] == "play_treasures" and not any(e[0] == "play" for e in events):
                found += 1
    assert found


def test_a_dominion_game_holds_moves_taken_back():
    """Buys taken back freely and a draw taken back by consent (issue 16): replay goes back at each undo entry."""
    records = [r for r in full("dominion") if any(m["act"] == "undo" for m in r["moves"])]
    assert records
    moves = [m for r in records for m in r["moves"] if m["act"] == "undo"]
    assert any(m.get("agreed") for m in moves) and any(not m.get("agreed") for m in moves)


def test_the_first_twenty_seven_dominion_games_still_replay():
    old = [r for r in RECORDS.values() if r["kind"] == "dominion" and "views" not in r]
    assert len(old) == 27 and all(r["engine_version"] == 1 and r["final"]["game_over"] for r in old)


@pytest.mark.parametrize(
    "name", [n for n, r in RECORDS.items() if r.get("bots") and "views" in r][::6], ids=lambda n: n.split(".")[0]
)
def test_the_bots_still_make_the_recorded_moves(name):
    """The bots are deterministic given the seed: a speed-up of the engine or a bot must not change a move."""
    r = RECORDS[name]
    over = r["views"][SPECTATOR_KEY]["game_over"]
    _, moves = play_moves(
        r["kind"], r["engine_version"], r["options"], r["bots"], r["seed"], None if over else len(r["moves"])
    )
    assert moves == r["moves"]


def test_record_game_makes_the_record_from_a_log():
    """What ``manage.py golden_add`` builds on: kind, version, options, seed, players and moves give the record."""
    r = next(r for r in full("domaine") if r["engine_version"] == 1 and not r["views"][SPECTATOR_KEY]["game_over"])
    again = record_game(
        r["kind"], r["engine_version"], r["options"], r["seed"], r["players"], r["moves"], bots=r["bots"]
    )
    assert again == r


def test_the_domaine_corpus_holds_both_versions_target_endings():
    """Version 1 ends a target game after the take; version 2 at the placement, so on the play itself."""
    ends = Counter()
    for r in full("domaine"):
        if r["views"][SPECTATOR_KEY]["game_over"]:
            ends[(r["engine_version"], r["moves"][-1]["act"])] += 1
    assert ends[(1, "take")] and ends[(2, "play")] and not ends[(2, "take")]
