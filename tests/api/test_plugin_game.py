"""A game the API does not know by name is played through it (issue 29): the tests' ``counter``.

The counter game is installed from its folder alone (``tests/settings.py``);
its API part (``tests/counter/api.py``) types only its move, so its state is
described by the generic shape. The API creates it, seats a second player,
takes its moves and shows its state as for any game, hidden information
included, and the served schema names it among the games.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from api import gameshapes
from tests.api.conftest import api_client

pytestmark = pytest.mark.django_db


def test_the_counter_game_is_played_to_its_end_through_the_api(player: Any, opponent: Any) -> None:
    mine, theirs = api_client(player), api_client(opponent)
    created = mine.post("/games", {"kind": "counter", "players": 2})
    assert created.status_code == 201, created.content
    game_id = created.json()["id"]
    assert created.json()["kind"] == "counter" and created.json()["status"] == "open"
    assert theirs.post(f"/games/{game_id}/join").status_code == 200
    clients = {c.get(f"/games/{game_id}").json()["game"]["my_seat"]: c for c in (mine, theirs)}
    for _turn in range(20):
        states = {seat: c.get(f"/games/{game_id}").json() for seat, c in clients.items()}
        for seat, state in states.items():
            gameshapes.STATE.validate_python(state)  # the generic state shape
            other = state["view"]["seats"][1 - seat]
            assert state["view"]["game_over"] or other["secret"] is None  # the other seat's secret stays hidden
        if states[0]["game"]["status"] != "active":
            break
        seat, state = next((s, st) for s, st in states.items() if st["game"]["my_move"])
        assert state["legal"] and not states[1 - seat]["legal"]
        for move in state["legal"]:
            gameshapes.MOVES["counter"].validate_python(move)  # its part's move shape
        moved = clients[seat].post(
            f"/games/{game_id}/moves", {"move": state["legal"][-1], "expected_seq": state["game"]["last_seq"]}
        )
        assert moved.status_code == 200, moved.content
        assert moved.json()["view"]["total"] == state["view"]["total"] + state["legal"][-1]["n"]
    else:
        raise AssertionError("the counter game did not end")
    final = mine.get(f"/games/{game_id}").json()
    assert final["game"]["status"] == "finished" and final["view"]["total"] == final["view"]["target"] == 10
    refused = mine.post(f"/games/{game_id}/moves", {"move": {"act": "add", "n": 1}, "expected_seq": 0})
    assert refused.status_code == 409


def test_an_illegal_counter_move_is_refused_with_the_engines_reason(player: Any, opponent: Any) -> None:
    mine, theirs = api_client(player), api_client(opponent)
    game_id = mine.post("/games", {"kind": "counter", "players": 2}).json()["id"]
    theirs.post(f"/games/{game_id}/join")
    mover = next(c for c in (mine, theirs) if c.get(f"/games/{game_id}").json()["game"]["my_move"])
    refused = mover.post(f"/games/{game_id}/moves", {"move": {"act": "add", "n": 5}, "expected_seq": 0})
    assert refused.status_code == 422 and refused.json()["reason"] == "bad_number"
    no_parts = mover.post(f"/games/{game_id}/choices", {"move": {"act": "play", "card": "A1"}})
    assert no_parts.status_code == 422 and no_parts.json()["reason"] == "no_parts"


def test_the_counter_game_is_sought_through_the_api(player: Any, opponent: Any) -> None:
    body = {"kind": "counter", "players_min": 2, "players_max": 2, "rated": False}
    first = api_client(player).post("/seeks", body)
    assert first.status_code in (200, 201), first.content
    second = api_client(opponent).post("/seeks", body)
    assert second.status_code in (200, 201), second.content
    game_id = second.json()["game_id"] or api_client(player).get(f"/seeks/{first.json()['id']}").json()["game_id"]
    assert game_id is not None
    state = api_client(player).get(f"/games/{game_id}").json()
    assert state["kind"] == "counter" and state["game"]["status"] == "active"


def test_the_schema_names_the_counter_game_and_types_its_move() -> None:
    schema = Client().get("/api/v1/openapi.json").json()
    parts = schema["components"]["schemas"]
    assert "counter" in parts["CreateGameIn"]["properties"]["kind"]["enum"]
    assert {"$ref": "#/components/schemas/CounterAdd"} in parts["Move"]["anyOf"]
    states = parts["GameState"]["discriminator"]["mapping"]
    assert states["counter"] == "#/components/schemas/UntypedGameState"
    assert states["dominion"] == "#/components/schemas/DominionState"
    assert "kingdom" in parts["CreateGameIn"]["properties"]  # a game's own field of POST /games
