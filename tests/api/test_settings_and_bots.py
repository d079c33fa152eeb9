"""The settings page's API section (tokens made, shown once, revoked) and bot accounts."""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.sessions.models import Session
from django.test import Client

from accounts.services import AccountError, user_make_bot
from api import stream
from api.models import ApiToken, StreamEvent
from api.stream import read
from api.tasks import prune_stream
from games import services
from games.models import Game
from tests.api.conftest import ApiClient, api_client
from tests.conftest import make_game, seated
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def _signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_token_is_made_shown_once_and_revoked_on_the_settings_page(player: Any) -> None:
    client = _signed_in(player)
    page = client.get("/settings/")
    assert b'id="api"' in page.content and b"You have no API tokens." in page.content
    made = client.post("/settings/api/tokens", {"name": "my bot", "scopes": ["read", "play"]}, follow=True)
    assert made.redirect_chain == [("/settings/api/tokens/new", 302)] and made.status_code == 200
    raw = made.content.decode().split('<code class="token" id="token">')[1].split("<")[0]
    assert raw.startswith("hrld_")
    reloaded = client.get("/settings/api/tokens/new", follow=True)  # a reload shows it no more, makes none
    assert raw not in reloaded.content.decode() and "shown only once" in reloaded.content.decode()
    assert ApiToken.objects.filter(user=player).count() == 1
    stored = "".join(str(s.get_decoded()) for s in Session.objects.all())
    assert raw not in stored  # the raw token never rests in the database, sessions included
    token = ApiToken.objects.get(user=player)
    assert token.scopes == ["play", "read"] and token.digest != raw
    listed = client.get("/settings/").content.decode()
    assert "my bot" in listed and token.prefix in listed and raw not in listed  # never shown again
    assert ApiClient(raw).get("/me").status_code == 200
    assert client.post(f"/settings/api/tokens/{token.pk}/revoke").status_code == 302
    assert ApiClient(raw).get("/me").status_code == 401


def test_the_token_address_opened_in_the_browser_goes_to_the_settings(player: Any) -> None:
    response = _signed_in(player).get("/settings/api/tokens")
    assert response.status_code == 302 and response["Location"] == "/settings/#api"
    assert not ApiToken.objects.exists()


def test_a_token_needs_a_name_and_a_scope(player: Any) -> None:
    client = _signed_in(player)
    assert client.post("/settings/api/tokens", {"name": "", "scopes": ["read"]}).status_code == 302
    assert client.post("/settings/api/tokens", {"name": "x", "scopes": ["admin"]}).status_code == 302
    assert not ApiToken.objects.exists()


def test_nobody_revokes_another_users_token(player: Any, opponent: Any) -> None:
    api_client(player)
    token = ApiToken.objects.get(user=player)
    _signed_in(opponent).post(f"/settings/api/tokens/{token.pk}/revoke")
    token.refresh_from_db()
    assert token.revoked is None


def test_a_fresh_account_becomes_a_bot_account_marked_everywhere(player: Any) -> None:
    robo = UserFactory.create(username="robo")
    client = _signed_in(robo)
    assert client.post("/settings/api/bot", {}).status_code == 302  # no confirmation: nothing
    robo.refresh_from_db()
    assert not robo.bot_account
    client.post("/settings/api/bot", {"confirm": "1"})
    robo.refresh_from_db()
    assert robo.bot_account and robo.shown_name == "robo (bot)"
    game = make_game(player, robo)
    for path in ("/", game.get_absolute_url(), "/players/robo/"):
        assert "robo (bot)" in _signed_in(player).get(path).content.decode(), path
    seats = api_client(player).get(f"/games/{game.pk}").json()["game"]["seats"]
    assert {s["username"]: (s["bot_account"], s["name"]) for s in seats} == {
        "player": (False, "player"),
        "robo": (True, "robo (bot)"),
    }


def test_an_account_that_has_played_cannot_become_a_bot(game: Game, player: Any) -> None:
    with pytest.raises(AccountError):
        user_make_bot(user=player)


def test_rated_games_do_not_pair_bot_accounts_with_people(player: Any, settings: Any) -> None:
    robo = user_make_bot(user=UserFactory.create(username="robo"))
    game = services.game_create(
        creator=player,
        kind="counter",
        options={"target": 10},
        players=2,
        rated=True,
        private=False,
        time_per_move=timedelta(days=1),
    )
    with pytest.raises(services.CannotJoin):
        services.game_join(game_id=game.pk, user=robo)
    settings.HERALD_RATE_BOT_ACCOUNTS = True
    assert services.game_join(game_id=game.pk, user=robo).is_active


def test_the_long_poll_answers_when_something_happens(
    game: Game, player: Any, opponent: Any, monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    settings.HERALD_API_EVENTS_MAX_WAIT = 25
    api_client(player)
    api_client(opponent)
    waiting = seated(game.seats.exclude(position__in=game.to_act).get())
    mover = seated(game.seats.get(position=game.to_act[0]))
    started = time.monotonic()
    assert read(waiting, after=0, wait=0.3) == [] and time.monotonic() - started >= 0.3
    naps: list[float] = []

    def nap(seconds: float) -> None:
        # The opponent moves while the reader waits (in this thread: the test's transaction is not shared).
        naps.append(seconds)
        if len(naps) == 2:
            services.game_submit_move(game_id=game.pk, user=mover, move={"act": "add", "n": 1}, expected_seq=0)

    monkeypatch.setattr(stream.time, "sleep", nap)
    rows = read(waiting, after=0, wait=20)
    assert [r.kind for r in rows][:1] == ["move"] and len(naps) == 2


def test_servers_that_cannot_wait_say_when_to_poll_again(game: Game, player: Any, settings: Any) -> None:
    settings.HERALD_API_EVENTS_MAX_WAIT = 0
    settings.HERALD_API_EVENTS_POLL_AFTER = 5
    client = api_client(player)
    cursor = client.get("/events").json()["cursor"]
    started = time.monotonic()
    page = client.get("/events", after=cursor, wait=25).json()
    assert time.monotonic() - started < 2
    assert page["events"] == [] and page["poll_after"] == 5
    settings.HERALD_API_EVENTS_MAX_WAIT = 25
    assert client.get("/events", after=cursor, wait=0).json()["poll_after"] == 0


def test_old_stream_rows_are_pruned(game: Game, player: Any) -> None:
    api_client(player)
    services.chat_post(game_id=game.pk, user=player, text="hello")
    assert StreamEvent.objects.count() == 1
    StreamEvent.objects.update(created=game.created - timedelta(days=stream.KEEP_DAYS + 1))
    services.chat_post(game_id=game.pk, user=player, text="again")
    assert prune_stream() == 1
    assert StreamEvent.objects.count() == 1


def test_a_change_never_uses_another_changes_token_holders(game: Game, player: Any) -> None:
    # A stale answer for this game and seq (another change, another test's database) is not used.
    stream._last.key = (game.pk, game.last_seq)
    stream._last.ids = {player.pk}
    services.chat_post(game_id=game.pk, user=player, text="hello")
    assert not StreamEvent.objects.exists()


def test_the_bare_api_address_leads_to_its_browsable_docs(client: Any) -> None:
    response = client.get("/api/v1/")
    assert response.status_code == 302 and response["Location"] == "/api/v1/docs"
    assert client.get(response["Location"]).status_code == 200
