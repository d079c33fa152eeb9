"""Who may use a token: the API refuses banned, muted, deactivated and deleted accounts as the site's pages do."""

from __future__ import annotations

import time
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import Group
from django.utils import timezone

from accounts import services as account_services
from accounts.models import User
from api import stream
from api.models import ApiToken
from games import services
from games.models import ChatMessage, Game
from moderation import services as moderation
from tests.api.conftest import api_client
from tests.conftest import seated, user_to_move
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def moderator(db: None) -> User:
    user = UserFactory.create(username="mod", is_staff=True)
    user.groups.add(Group.objects.get(name="Moderators"))
    return User.objects.get(pk=user.pk)


def _problem(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.content
    assert response["Content-Type"] == "application/problem+json"
    body = response.json()
    assert body["status"] == status and body["code"] == code and body["detail"]
    return body


def test_a_banned_users_tokens_are_refused_everywhere_until_the_ban_is_lifted(game: Game, moderator: User) -> None:
    mover = user_to_move(game)
    client = api_client(mover)
    assert client.get("/me").status_code == 200
    moderation.user_ban(moderator=moderator, user=mover, reason="abuse")
    seq = game.last_seq
    for response in (
        client.get("/me"),
        client.get("/games"),
        client.get(f"/games/{game.pk}"),
        client.get(f"/games/{game.pk}/chat"),
        client.get("/events", after=0),
        client.post(f"/games/{game.pk}/moves", {"move": {"act": "add", "n": 1}, "expected_seq": seq}),
        client.post(f"/games/{game.pk}/chat", {"text": "hi"}),
        client.post("/games", {"kind": "counter", "players": 2}),
    ):
        body = _problem(response, 403, "account_suspended")
        assert "suspended" in body["detail"] and body["until"] is None
    game.refresh_from_db()
    assert game.last_seq == seq and not ChatMessage.objects.filter(game=game).exists()
    moderation.user_unban(moderator=moderator, user=mover)
    assert client.get("/me").status_code == 200
    moved = client.post(f"/games/{game.pk}/moves", {"move": {"act": "add", "n": 1}, "expected_seq": seq})
    assert moved.status_code == 200, moved.content


def test_a_suspension_with_an_end_says_until_when(player: User, moderator: User) -> None:
    client = api_client(player)
    until = timezone.now() + timedelta(days=3)
    moderation.user_ban(moderator=moderator, user=player, reason="", until=until)
    body = _problem(client.get("/me"), 403, "account_suspended")
    assert datetime.fromisoformat(body["until"]) == until
    assert until.strftime("%Y-%m-%d %H:%M") in body["detail"]
    chinese = client.client.get("/api/v1/me", headers={**client.headers, "Accept-Language": "zh-hant"}).json()
    assert chinese["code"] == "account_suspended" and "suspended" not in chinese["detail"]


def test_a_muted_user_reads_and_plays_but_cannot_chat(game: Game, moderator: User) -> None:
    mover = user_to_move(game)
    client = api_client(mover)
    moderation.user_mute(moderator=moderator, user=mover, reason="")
    assert client.get("/me").status_code == 200
    assert client.get(f"/games/{game.pk}/chat").status_code == 200
    moved = client.post(f"/games/{game.pk}/moves", {"move": {"act": "add", "n": 1}, "expected_seq": game.last_seq})
    assert moved.status_code == 200, moved.content
    _problem(client.post(f"/games/{game.pk}/chat", {"text": "hi"}), 403, "chat_refused")


def test_a_ban_ends_a_long_poll_that_is_waiting(
    game: Game, player: User, moderator: User, monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    settings.HERALD_API_EVENTS_MAX_WAIT = 25
    client = api_client(player)
    naps: list[float] = []

    def nap(seconds: float) -> None:
        naps.append(seconds)
        if len(naps) == 1:
            moderation.user_ban(moderator=moderator, user=player, reason="")
        if len(naps) == 2:
            # Had the ban not ended the wait, the next event would be handed over.
            services.chat_post(game_id=game.pk, user=seated(game.seats.exclude(user=player).get()), text="psst")

    monkeypatch.setattr(stream.time, "sleep", nap)
    started = time.monotonic()
    _problem(client.get("/events", after=0, wait=20), 403, "account_suspended")
    assert len(naps) == 1 and time.monotonic() - started < 5


def test_deleting_an_account_revokes_its_tokens(player: User) -> None:
    client = api_client(player)
    account_services.user_delete(user=player)
    assert not ApiToken.objects.filter(user=player, revoked__isnull=True).exists()
    _problem(client.get("/me"), 401, "unauthorized")


def test_deactivating_an_account_revokes_its_tokens(game: Game, player: User, opponent: User) -> None:
    client = api_client(player)
    api_client(opponent)
    player.is_active = False
    player.save()
    assert not ApiToken.objects.filter(user=player, revoked__isnull=True).exists()
    _problem(client.get("/me"), 401, "unauthorized")
    # Reactivated, the account needs a new token: the old ones stay revoked.
    player.is_active = True
    player.save()
    _problem(client.get("/me"), 401, "unauthorized")
    assert api_client(player).get("/me").status_code == 200


def test_malformed_json_is_a_documented_problem_in_the_request_language(player: User) -> None:
    client = api_client(player)
    raw = client.client.post("/api/v1/games", "{not json", content_type="application/json", headers={**client.headers})
    body = _problem(raw, 400, "malformed_json")
    assert "JSON" in body["detail"]
    chinese = client.client.post(
        "/api/v1/games",
        "{not json",
        content_type="application/json",
        headers={**client.headers, "Accept-Language": "zh-hant"},
    ).json()
    assert chinese["code"] == "malformed_json"
    assert "Cannot parse" not in chinese["detail"] and "request" not in chinese["detail"]
    assert chinese["title"] != "Bad Request"
    # Every code the API sends is in docs/api.md's table.
    docs = (Path(__file__).resolve().parents[2] / "docs" / "api.md").read_text(encoding="utf-8")
    assert "| `malformed_json` |" in docs


def test_a_validation_error_names_the_field_once_and_its_problem_is_translated(player: User) -> None:
    client = api_client(player)
    bad = {"kind": "dominion", "players": "many"}
    body = _problem(client.post("/games", bad), 400, "invalid_request")
    assert ["body", "players"] in [error["loc"] for error in body["errors"]]
    chinese = client.client.post(
        "/api/v1/games", bad, content_type="application/json", headers={**client.headers, "Accept-Language": "zh-hant"}
    ).json()
    assert chinese["code"] == "invalid_request"
    assert chinese["title"] != "Bad Request" and "malformed" not in chinese["detail"]
