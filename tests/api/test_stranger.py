"""What a developer who knows only the documentation meets (issue 30, items 2-10).

Bot names that the refusal and the schema name, the decision a Dominion
seat owes, a creator cancelling, refusals in the reader's language,
``Retry-After`` that is enough, and a schema whose enumerations and error
statuses say what the operations really do.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import time_machine
from django.core.cache import cache
from django.test import Client

from api.models import StreamEvent
from games.models import Game
from tests.api.conftest import api_client

pytestmark = pytest.mark.django_db


def _against_bot(client: Any, kind: str, bot: str) -> dict[str, Any]:
    """A new game against ``bot`` where the caller was dealt the first move (the bot's own moves run after
    commit, which a test in one transaction never reaches)."""
    body: dict[str, Any] = {"kind": kind, "players": 2, "bots": [bot]}
    if kind == "dominion":
        body["kingdom"] = "First Game"
    for _attempt in range(30):
        created = client.post("/games", body)
        assert created.status_code == 201, created.content
        if created.json()["my_move"]:
            return created.json()
    raise AssertionError("never dealt the first move")


def test_an_unknown_bot_is_refused_with_the_games_bots_named(player: Any) -> None:
    client = api_client(player)
    refused = client.post("/games", {"kind": "domaine", "players": 2, "bots": ["smart"]})
    assert refused.status_code == 422 and refused.json()["code"] == "invalid_options"
    assert "greedy" in refused.json()["detail"] and "random" in refused.json()["detail"]
    described = Client().get("/api/v1/openapi.json").json()["components"]["schemas"]["CreateGameIn"]
    bots = described["properties"]["bots"]["description"]
    for name in ("big_money", "smart", "greedy"):
        assert name in bots
    assert _against_bot(client, "domaine", "greedy")["status"] == "active"


def test_a_dominion_seat_that_owes_its_turn_is_told_so(player: Any) -> None:
    client = api_client(player)
    game = _against_bot(client, "dominion", "big_money")
    state = client.get(f"/games/{game['id']}").json()
    assert state["game"]["my_move"]
    assert state["decision"]["kind"] == "turn" and state["decision"]["player"] == state["game"]["my_seat"]
    assert state["decision"]["answer"] == "move"


def test_the_creator_cancels_an_open_game_and_the_others_are_told(player: Any, opponent: Any) -> None:
    mine, theirs = api_client(player), api_client(opponent)
    created = mine.post("/games", {"kind": "domaine", "players": 3}).json()
    assert theirs.post(f"/games/{created['id']}/join").status_code == 200
    left = mine.post(f"/games/{created['id']}/leave")
    assert left.status_code == 403 and "cancel" in left.json()["detail"]
    not_theirs = theirs.post(f"/games/{created['id']}/cancel")
    assert not_theirs.status_code == 403 and not_theirs.json()["code"] == "cannot_join"
    cancelled = mine.post(f"/games/{created['id']}/cancel")
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "aborted"
    assert Game.objects.get(pk=created["id"]).status == Game.Status.ABORTED
    assert StreamEvent.objects.filter(user=opponent, game_id=created["id"], kind="cancelled").exists()
    again = mine.post(f"/games/{created['id']}/cancel")
    assert again.status_code == 409 and again.json()["code"] == "game_not_active"


def test_a_started_game_cannot_be_cancelled(player: Any) -> None:
    client = api_client(player)
    game = _against_bot(client, "domaine", "greedy")
    refused = client.post(f"/games/{game['id']}/cancel")
    assert refused.status_code == 409 and refused.json()["code"] == "game_not_active"


@pytest.mark.parametrize(("language", "script"), [("zh-hans", "[\u4e00-\u9fff]"), ("zh-hant", "[\u4e00-\u9fff]")])
def test_an_illegal_move_is_explained_in_the_readers_language(player: Any, language: str, script: str) -> None:
    client = api_client(player)
    game = _against_bot(client, "dominion", "big_money")
    state = client.get(f"/games/{game['id']}").json()
    refused = client.client.post(
        f"/api/v1/games/{game['id']}/moves",
        {"move": {"act": "buy", "card": "Province"}, "expected_seq": state["game"]["last_seq"]},
        content_type="application/json",
        headers={**client.headers, "Accept-Language": language},
    )
    assert refused.status_code == 422 and refused.json()["reason"] == "too_expensive"
    assert re.search(script, refused.json()["detail"]), refused.json()["detail"]
    english = client.post(
        f"/games/{game['id']}/moves",
        {"move": {"act": "buy", "card": "Province"}, "expected_seq": state["game"]["last_seq"]},
    )
    assert english.json()["detail"].startswith("Province costs $8")


def test_waiting_retry_after_seconds_is_enough(player: Any, settings: Any) -> None:
    settings.RATELIMIT_ENABLE = True
    settings.HERALD_API_RATE_LIMITS = {"read": "3/m", "write": "3/m"}
    cache.clear()
    client = api_client(player)
    start = datetime(2026, 6, 1, 12, 0, 0, 400000, tzinfo=UTC)
    for offset in range(0, 60, 7):  # wherever in the window the limit is met
        cache.clear()
        with time_machine.travel(start + timedelta(seconds=offset), tick=False):
            statuses = [client.get("/me").status_code for _ in range(4)]
            assert statuses[-1] == 429, (offset, statuses)
            wait = int(client.get("/me")["Retry-After"])
        with time_machine.travel(start + timedelta(seconds=offset + wait - 1), tick=False):
            assert client.get("/me").status_code == 429  # not a second too much either
        with time_machine.travel(start + timedelta(seconds=offset + wait), tick=False):
            assert client.get("/me").status_code == 200, (offset, wait)


def test_the_schema_says_what_each_operation_can_answer(player: Any) -> None:
    schema = Client().get("/api/v1/openapi.json").json()
    me = schema["paths"]["/api/v1/me"]["get"]["responses"]
    assert set(me) == {"200", "401", "403", "429"}
    moves = schema["paths"]["/api/v1/games/{game_id}/moves"]["post"]["responses"]
    assert set(moves) == {"200", "400", "401", "403", "404", "409", "422", "429"}
    assert "/api/v1/games/{game_id}/cancel" in schema["paths"]
    parts = schema["components"]["schemas"]
    assert parts["GameOut"]["properties"]["status"]["enum"] == ["open", "active", "finished", "aborted", "frozen"]
    assert set(parts["StreamEventOut"]["properties"]["kind"]["enum"]) >= {"your_move", "move", "cancelled"}
    assert "shared/" not in str(schema) and "docs/api.md" not in schema["info"]["description"]
    assert "/api/v1/guide/" in schema["info"]["description"]
    assert "first seat" not in str(schema)


def test_states_fit_the_typed_schema_and_domaine_plays_are_built_part_by_part(
    player: Any, django_capture_on_commit_callbacks: Any
) -> None:
    from api.gameshapes import STATE

    client = api_client(player)
    dominion = _against_bot(client, "dominion", "big_money")
    STATE.validate_python(client.get(f"/games/{dominion['id']}").json())
    no_parts = client.post(f"/games/{dominion['id']}/choices", {"move": {"act": "play", "card": "A1"}})
    assert no_parts.status_code == 422 and no_parts.json()["reason"] == "no_parts"

    game = _against_bot(client, "domaine", "greedy")
    state = client.get(f"/games/{game['id']}").json()
    while state["decision"]["kind"] == "setup":  # place castles until the first play; the bot answers
        STATE.validate_python(state)
        move = state["legal"][0]
        with django_capture_on_commit_callbacks(execute=True):  # the bot's turn runs after the commit
            client.post(f"/games/{game['id']}/moves", {"move": move, "expected_seq": state["game"]["last_seq"]})
        state = client.get(f"/games/{game['id']}").json()
        assert state["game"]["my_move"]
    STATE.validate_python(state)
    hand = state["view"]["players"][state["game"]["my_seat"]]["hand"]
    assert state["decision"]["kind"] == "play"
    # Whole moves only: a sale per card, a partless play per card and option; the parts are in plays.
    assert len(state["legal"]) <= 3 * len(hand)
    assert all(set(m) <= {"act", "card", "option"} for m in state["legal"])
    option = next(p for p in state["plays"] if p["next"]["part"] and p["next"]["choices"])
    move = {"act": "play", "card": option["card"], "option": option["option"]}
    step = option["next"]
    while step["part"] is not None and step["choices"]:
        value = step["choices"][0]
        if step["part"] in ("borders", "knights", "squares"):
            move.setdefault(step["part"], []).append(value)
        else:
            move[step["part"]] = value
        answer = client.post(f"/games/{game['id']}/choices", {"move": move})
        assert answer.status_code == 200, answer.content
        step = answer.json()
    wrong = client.post(f"/games/{game['id']}/choices", {"move": {"act": "play", "card": "A1", "knights": ["Z9"]}})
    assert wrong.status_code == 400 and wrong.json()["code"] == "invalid_request"
    played = client.post(f"/games/{game['id']}/moves", {"move": move, "expected_seq": state["game"]["last_seq"]})
    assert played.status_code == 200, played.content
    STATE.validate_python(played.json())
    assert played.json()["game"]["last_seq"] > state["game"]["last_seq"]


def test_a_move_of_no_games_notation_or_of_another_game_is_422(player: Any) -> None:
    client = api_client(player)
    game = _against_bot(client, "dominion", "big_money")
    seq = game["last_seq"]
    shapeless = client.post(
        f"/games/{game['id']}/moves", {"move": {"act": "buy", "card": "Silver", "x": 1}, "expected_seq": seq}
    )
    assert shapeless.status_code == 422 and shapeless.json()["reason"] == "bad_part"
    other_game = client.post(
        f"/games/{game['id']}/moves", {"move": {"act": "take", "from": "deck"}, "expected_seq": seq}
    )
    assert other_game.status_code == 422 and other_game.json()["code"] == "illegal_move"
