"""The API's bot levels: listed with their measured strength, and chosen by level when creating a game."""

from __future__ import annotations

from io import StringIO
from typing import Any

from django.core.management import call_command

from games.models import Game
from tests.api.conftest import api_client


def test_every_game_lists_five_levels_weakest_first_unmeasured_until_the_ladder_runs(player: Any) -> None:
    listed = api_client(player).get("/bots")
    assert listed.status_code == 200, listed.content
    levels = [(row["kind"], row["bot"], row["level"]) for row in listed.json()]
    for kind in ("dominion", "domaine"):
        assert [(b, n) for k, b, n in levels if k == kind] == [(f"level{n}", n) for n in range(1, 6)]
    assert all(row["rating"] is None and row["games"] == 0 for row in listed.json())


def test_after_the_ladder_each_level_has_its_rating_and_the_label_speaks_the_readers_language(player: Any) -> None:
    call_command("bot_ladder", "--kind", "counter", "--games", "4", stdout=StringIO())
    rows = {row["bot"]: row for row in api_client(player).get("/bots").json() if row["kind"] == "counter"}
    assert rows["level3"]["rating"] > rows["level1"]["rating"] and rows["level3"]["games"] == 8
    assert 0 <= rows["level1"]["win_rate"] <= 1 and rows["level1"]["ms_per_move"] >= 0
    assert rows["level3"]["label"] == "Level 3 (Club player)"
    client = api_client(player)
    zh = client.client.get("/api/v1/bots", headers={**client.headers, "Accept-Language": "zh-hant"}).json()
    assert {r["label"] for r in zh if r["bot"] == "level3"} == {"第 3 級（社團玩家）"}


def test_a_game_is_made_against_a_bot_chosen_by_level(player: Any) -> None:
    body = {"kind": "counter", "players": 2, "time_per_move": 86400, "bots": ["level2"]}
    made = api_client(player).post("/games", body)
    assert made.status_code == 201, made.content
    game = Game.objects.get(pk=made.json()["id"])
    assert game.is_active and sorted(s.bot for s in game.seats.all()) == ["", "level2"]
