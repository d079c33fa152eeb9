"""The API's rules: tokens and scopes, hidden information, private games, moves' errors, chat, the event stream."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
import time_machine
from django.core.cache import cache

from api.models import ApiToken
from api.tokens import token_create, token_revoke
from games import services
from games.models import Game
from games.replay import snapshot_at
from tests.api.conftest import ApiClient, api_client
from tests.conftest import make_game, user_to_move, user_waiting
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def _problem(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.content
    assert response["Content-Type"] == "application/problem+json"
    assert response["Cache-Control"] == "private, no-store"
    body = response.json()
    assert body["status"] == status and body["code"] == code and body["detail"]
    return body


def test_a_token_is_stored_hashed_and_works_until_revoked(player: Any) -> None:
    token, raw = token_create(user=player, name="cli", scopes=["read"])
    assert raw.startswith("hrld_")
    assert not ApiToken.objects.filter(digest=raw).exists()
    assert raw not in str(list(ApiToken.objects.values()))
    client = ApiClient(raw)
    me = client.get("/me")
    assert me.status_code == 200 and me["Cache-Control"] == "private, no-store"
    assert me.json()["username"] == "player" and me.json()["scopes"] == ["read"]
    assert token_revoke(user=player, token_id=token.pk)
    _problem(client.get("/me"), 401, "unauthorized")


def test_no_token_or_a_wrong_one_is_401(player: Any) -> None:
    response = ApiClient(None).get("/me")
    assert _problem(response, 401, "unauthorized")
    assert response["WWW-Authenticate"].startswith("Bearer")
    _problem(ApiClient("hrld_not-a-token").get("/me"), 401, "unauthorized")


def test_a_token_without_play_cannot_move(game: Game) -> None:
    mover = user_to_move(game)
    reader = api_client(mover, scopes=("read", "chat"))
    before = game.last_seq
    response = reader.post(f"/games/{game.pk}/moves", {"move": {"act": "add", "n": 1}, "expected_seq": before})
    _problem(response, 403, "missing_scope")
    game.refresh_from_db()
    assert game.last_seq == before
    # The same user with a play token moves.
    player = api_client(mover)
    moved = player.post(f"/games/{game.pk}/moves", {"move": {"act": "add", "n": 1}, "expected_seq": before})
    assert moved.status_code == 200, moved.content
    assert moved.json()["game"]["last_seq"] == before + 1


def test_a_token_without_chat_cannot_post(game: Game, player: Any) -> None:
    client = api_client(player, scopes=("read", "play"))
    _problem(client.post(f"/games/{game.pk}/chat", {"text": "hi"}), 403, "missing_scope")


def test_move_errors_are_problems(game: Game) -> None:
    mover, waiting = user_to_move(game), user_waiting(game)
    seq = game.last_seq
    stale = api_client(mover).post(f"/games/{game.pk}/moves", {"move": {"act": "add", "n": 1}, "expected_seq": seq + 5})
    problem = _problem(stale, 409, "stale_move")
    assert problem["current_seq"] == seq and "page" not in problem["detail"]  # a program has no page
    _problem(
        api_client(waiting).post(f"/games/{game.pk}/moves", {"move": {"act": "add", "n": 1}, "expected_seq": seq}),
        403,
        "not_your_move",
    )
    illegal = api_client(mover).post(f"/games/{game.pk}/moves", {"move": {"act": "add", "n": 99}, "expected_seq": seq})
    _problem(illegal, 422, "illegal_move")
    _problem(
        api_client(mover).post(f"/games/{game.pk}/moves", {"move": {}, "expected_seq": seq}), 400, "invalid_request"
    )
    _problem(api_client(mover).post(f"/games/{game.pk}/moves", {"expected_seq": seq}), 400, "invalid_request")
    game.refresh_from_db()
    assert game.last_seq == seq


def test_a_private_game_is_404_to_outsiders(player: Any, opponent: Any, outsider: Any) -> None:
    game = make_game(player, opponent, private=True)
    services.chat_post(game_id=game.pk, user=player, text="secret plans")
    client = api_client(outsider)
    missing = api_client(outsider).get("/games/999999")
    body = _problem(missing, 404, "not_found")
    for response in (
        client.get(f"/games/{game.pk}"),
        client.get(f"/games/{game.pk}/chat"),
        client.get(f"/games/{game.pk}/record"),
        client.post(f"/games/{game.pk}/join"),
        client.post(f"/games/{game.pk}/leave"),
        client.post(f"/games/{game.pk}/chat", {"text": "hello"}),
        client.post(f"/games/{game.pk}/moves", {"move": {"act": "add", "n": 1}, "expected_seq": 0}),
    ):
        assert _problem(response, 404, "not_found")["detail"] == body["detail"]
    assert game.pk not in [g["id"] for g in client.get("/games/open").json()]
    assert api_client(player).get(f"/games/{game.pk}").status_code == 200


def _hands_shown(data: Any, found: list[tuple[int, Any]]) -> list[tuple[int, Any]]:
    """Every (seat, hand) a response shows, wherever it sits in the data."""
    if isinstance(data, dict):
        if "hand" in data and data["hand"] is not None:
            found.append((data.get("seat", -1), data["hand"]))
        for value in data.values():
            _hands_shown(value, found)
    elif isinstance(data, list):
        for value in data:
            _hands_shown(value, found)
    return found


@pytest.mark.parametrize("kind", ["dominion", "domaine"])
def test_another_players_hand_never_appears(kind: str, player: Any, opponent: Any, outsider: Any) -> None:
    options = {"kingdom": "First Game"} if kind == "dominion" else {}
    game = make_game(player, opponent, kind=kind, options=options)
    services.chat_post(game_id=game.pk, user=opponent, text="good luck")
    for user in (player, opponent):
        seat = game.seats.get(user=user).position
        client = api_client(user)
        responses = [
            client.get("/me"),
            client.get("/games"),
            client.get("/games/my-move"),
            client.get("/games/open"),
            client.get(f"/games/{game.pk}"),
            client.get(f"/games/{game.pk}/chat"),
            client.get("/events", after=0),
        ]
        shown: list[tuple[int, Any]] = []
        for response in responses:
            assert response.status_code == 200, response.content
            _hands_shown(response.json(), shown)
        # Only the caller's own hand, and it is the real one.
        assert shown and {s for s, _hand in shown} == {seat}
        state = snapshot_at(Game.objects.get(pk=game.pk)).state
        own = state.hands[seat] if kind == "dominion" else state.players[seat].hand
        assert sorted(shown[0][1]) == sorted(own)
    # A spectator sees no hand at all.
    watcher = api_client(outsider)
    watched = watcher.get(f"/games/{game.pk}")
    assert watched.status_code == 200 and _hands_shown(watched.json(), []) == []
    assert watched.json()["legal"] == [] and watched.json()["decision"] is None


def test_state_has_the_decision_and_legal_moves_only_for_the_mover(game: Game) -> None:
    mover, waiting = user_to_move(game), user_waiting(game)
    mine = api_client(mover).get(f"/games/{game.pk}").json()
    theirs = api_client(waiting).get(f"/games/{game.pk}").json()
    assert mine["game"]["my_move"] and mine["legal"]
    assert not theirs["game"]["my_move"] and theirs["legal"] == [] and theirs["decision"] is None


def test_create_join_and_play_through_the_api(player: Any, opponent: Any) -> None:
    created = api_client(player).post("/games", {"kind": "domaine", "players": 2, "time_per_move": 86400})
    assert created.status_code == 201, created.content
    game_id = created.json()["id"]
    assert created.json()["status"] == "open"
    joined = api_client(opponent).post(f"/games/{game_id}/join")
    assert joined.status_code == 200 and joined.json()["status"] == "active"
    mover = (
        player
        if player.pk
        in [
            s.user_id
            for s in Game.objects.get(pk=game_id).seats.filter(position__in=Game.objects.get(pk=game_id).to_act)
        ]
        else opponent
    )
    state = api_client(mover).get(f"/games/{game_id}").json()
    assert state["decision"]["kind"] == "setup"
    moved = api_client(mover).post(
        f"/games/{game_id}/moves", {"move": state["legal"][0], "expected_seq": state["game"]["last_seq"]}
    )
    assert moved.status_code == 200, moved.content
    assert moved.json()["game"]["last_seq"] == 1 and not moved.json()["game"]["my_move"]


def test_bad_options_are_422(player: Any) -> None:
    client = api_client(player)
    _problem(client.post("/games", {"kind": "dominion", "time_per_move": 7}), 400, "invalid_request")
    _problem(client.post("/games", {"kind": "dominion", "kingdom": "Nope"}), 422, "invalid_options")
    _problem(client.post("/games", {"kind": "dominion", "bots": ["nobody"]}), 422, "invalid_options")
    _problem(client.post("/games", {"kind": "chess"}), 400, "invalid_request")
    # Another game's option is refused, not silently dropped: the program meant something by it.
    foreign = _problem(client.post("/games", {"kind": "domaine", "kingdom": "First Game"}), 422, "invalid_options")
    assert "Domaine games have no option kingdom" in foreign["detail"]


def test_chat_through_the_api(game: Game, player: Any, opponent: Any) -> None:
    posted = api_client(player).post(f"/games/{game.pk}/chat", {"text": "well played"})
    assert posted.status_code == 201
    lines = api_client(opponent).get(f"/games/{game.pk}/chat").json()
    assert [line["text"] for line in lines] == ["well played"]
    _problem(api_client(player).post(f"/games/{game.pk}/chat", {"text": "two\nlines"}), 400, "invalid_request")


def test_the_event_stream_tells_the_other_player(game: Game) -> None:
    mover, waiting = user_to_move(game), user_waiting(game)
    watcher = api_client(waiting)
    start = watcher.get("/events").json()
    assert start["events"] == []
    nothing = watcher.get("/events", after=start["cursor"], wait=0).json()
    assert nothing["events"] == [] and nothing["cursor"] == start["cursor"]
    api_client(mover).post(f"/games/{game.pk}/moves", {"move": {"act": "add", "n": 1}, "expected_seq": game.last_seq})
    page = watcher.get("/events", after=start["cursor"]).json()
    kinds = [(e["kind"], e["game"]) for e in page["events"]]
    assert ("move", game.pk) in kinds and ("your_move", game.pk) in kinds
    assert page["cursor"] == page["events"][-1]["id"]
    assert watcher.get("/events", after=page["cursor"]).json()["events"] == []


def test_no_stream_rows_for_users_without_tokens(game: Game) -> None:
    from api.models import StreamEvent

    services.chat_post(game_id=game.pk, user=user_to_move(game), text="hi")
    assert not StreamEvent.objects.exists()


def test_rate_limits_answer_429_with_retry_after(player: Any, settings: Any) -> None:
    settings.RATELIMIT_ENABLE = True
    settings.HERALD_API_RATE_LIMITS = {"read": "3/m", "write": "3/m"}
    cache.clear()
    client = api_client(player)
    # Inside one window (a window that ended between two requests would start the count again).
    with time_machine.travel(datetime(2026, 6, 1, 12, 0, 0, tzinfo=UTC), tick=False):
        statuses = [client.get("/me").status_code for _ in range(4)]
        refused = client.get("/me")
    assert statuses == [200, 200, 200, 429]
    assert int(refused["Retry-After"]) >= 1
    assert _problem(refused, 429, "rate_limited")["retry_after"] >= 1


def test_bot_accounts_have_limits_of_their_own(settings: Any) -> None:
    from accounts.services import user_make_bot

    settings.RATELIMIT_ENABLE = True
    settings.HERALD_API_RATE_LIMITS = {"read": "2/m", "write": "2/m"}
    settings.HERALD_API_BOT_RATE_LIMITS = {"read": "5/m", "write": "5/m"}
    cache.clear()
    bot = user_make_bot(user=UserFactory.create(username="robo"))
    client = api_client(bot)
    assert [client.get("/me").status_code for _ in range(6)] == [200] * 5 + [429]


def test_the_schemas_time_controls_are_the_sites() -> None:
    from typing import get_args

    from api.schemas import TimeControl

    assert list(get_args(TimeControl)) == [int(d.total_seconds()) for d in services.TIME_CONTROLS]


def test_the_schema_and_the_browsable_docs_are_served() -> None:
    from django.test import Client

    schema = Client().get("/api/v1/openapi.json")
    assert schema.status_code == 200 and schema.json()["openapi"].startswith("3.")
    assert "/api/v1/games/{game_id}/moves" in schema.json()["paths"]
    docs = Client().get("/api/v1/docs")
    assert docs.status_code == 200
    assert b"/static/ninja/swagger-ui-bundle.js" in docs.content and b"cdn" not in docs.content


def test_text_the_database_cannot_store_is_400_not_500(player: Any, game: Game) -> None:
    # PostgreSQL refuses NUL in text and UTF-8 refuses lone surrogates: both are the client's error.
    client = api_client(player)
    for bad in ("a\x00b", "\ud800"):
        _problem(client.post("/games", {"kind": "dominion", "invited": [bad]}), 400, "invalid_request")
        _problem(client.post("/games", {"kind": "dominion", "kingdom": bad}), 400, "invalid_request")
        _problem(client.post(f"/games/{game.pk}/chat", {"text": bad}), 400, "invalid_request")
        move = {"move": {"act": "add", "n": bad}, "expected_seq": game.last_seq}
        _problem(client.post(f"/games/{game.pk}/moves", move), 400, "invalid_request")
    _problem(client.get("/players/a%00b"), 400, "invalid_request")
    _problem(client.get("/ladders/a%00b"), 400, "invalid_request")
