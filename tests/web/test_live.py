"""Server push (games/views/live.py): each stream gets only what its viewer may see, and moves reach it.

The streams are read through Django's AsyncClient (the ASGI path) with the
in-process hub that runs without Redis; tests/faults/test_live_redis_down.py
runs them over a Redis of its own, and tests/browser/test_live_flow.py in a
browser.
"""

from __future__ import annotations

import json
import re
from datetime import timedelta
from http import HTTPStatus
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.contrib.auth.models import AnonymousUser, Group, Permission
from django.test import AsyncClient, RequestFactory
from django.urls import reverse

from accounts.models import User
from games import live, services
from games.domaine.eventtext import card_name
from games.models import Game
from games.views.live import CSRF_PLACEHOLDER, _viewer, live_cursor, render_game_views
from ops.live_hub import publish
from tests.conftest import make_game, user_to_move
from tests.factories import UserFactory
from tests.tournaments.conftest import make_tournament
from tests.web.test_domaine_views import at_step, bot_moves
from tests.web.test_domaine_views import hand_on_page as domaine_hand_on_page
from tests.web.test_dominion_pages import names_drawn, play_with_bots

pytestmark = pytest.mark.django_db


def events_of(raw: bytes) -> list[tuple[str, Any]]:
    """The (event, data) pairs of an SSE text (comments and ``retry`` left out)."""
    out = []
    for block in raw.decode().split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line and not line.startswith(":"))
        if "event" in fields:
            out.append((fields["event"], json.loads(fields.get("data", "null"))))
    return out


def first_events(user: Any, url: str) -> tuple[int, list[tuple[str, Any]]]:
    """Open the stream at ``url`` as ``user`` (None: anonymous); return its status and its first chunk's events."""

    async def read() -> tuple[int, bytes]:
        client = AsyncClient()
        if user is not None:
            await sync_to_async(client.force_login)(user)
        response = await client.get(url)
        if not response.streaming:
            return response.status_code, response.content
        chunks = response.streaming_content  # type: ignore[attr-defined]
        try:
            return response.status_code, await anext(chunks)
        finally:
            await chunks.aclose()

    status, raw = async_to_sync(read)()
    return status, events_of(raw) if status == HTTPStatus.OK else []


def hand_in(html: str) -> list[str] | None:
    """The card names of the page's "hand" section, or None without one."""
    section = re.search(r'<section class="hand".*?</section>', html, re.S)
    if section is None:
        return None
    return sorted(
        n.replace("\u00ad", "") for n in re.findall(r'<span class="card-name">([^<]+)</span>', section.group(0))
    )


@pytest.fixture
def dominion_game(player, opponent):
    game = make_game(player, opponent, kind="dominion", options={"kingdom": "First Game"})
    return play_with_bots(game, 25)


def stream_url(game: Game, seq: int = -1) -> str:
    """A stream for a page drawn at ``seq`` (-1: older than any, so the stream sends the present at once)."""
    return reverse("games:live", args=[game.pk]) + f"?seq={seq}&v=x"


def test_each_viewers_stream_draws_that_viewers_page_and_no_other_hand(dominion_game, player, opponent, outsider):
    state = services.state_at(dominion_game)
    seat_of = {s.user_id: s.position for s in dominion_game.seats.all()}
    for user in (player, opponent, outsider, None):
        status, events = first_events(user, stream_url(dominion_game))
        assert status == HTTPStatus.OK
        [(name, data)] = events
        assert name == "live" and data["seq"] == dominion_game.last_seq
        html = data["html"]
        assert "seed" not in html
        if user in (player, opponent):
            other = opponent if user == player else player
            assert hand_in(html) == sorted(state.hands[seat_of[user.pk]])
            assert names_drawn(html, user.shown_name), "a seat's own draws are named"
            assert names_drawn(html, other.shown_name) == []
            # Its forms carry the placeholder, never a session's token (live.js puts the page's own there).
            tokens = set(re.findall(r'name="csrfmiddlewaretoken" value="([^"]*)"', html))
            assert tokens == {CSRF_PLACEHOLDER}
        else:
            assert hand_in(html) is None
            assert names_drawn(html, player.shown_name) == [] and names_drawn(html, opponent.shown_name) == []


def test_a_domaine_stream_carries_only_the_viewers_own_hand_and_never_the_deck(player, opponent, outsider):
    """Domaine hides the other hand and the deck: no stream's payload names them, for seats, spectators or visitors."""
    game = bot_moves(make_game(player, opponent, kind="domaine"), until=at_step("play"))
    state = services.state_at(game)
    hands = {s.user_id: list(state.players[s.position].hand) for s in game.seats.all()}
    everyone_sees = set(state.display)
    for user in (player, opponent, outsider, None):
        status, events = first_events(user, stream_url(game))
        assert status == HTTPStatus.OK
        [(name, data)] = events
        assert name == "live" and data["seq"] == game.last_seq
        html = data["html"]
        mine = hands.get(user.pk, []) if user is not None else []
        assert sorted(domaine_hand_on_page(html)) == sorted(mine)
        secret = ({c for h in hands.values() for c in h} | set(state.deck[:3])) - set(mine) - everyone_sees
        assert secret, "something is hidden from this viewer"
        for card in secret:
            assert f'data-card="{card}"' not in html
            assert f'class="dm-card-name">{card_name(card)}</strong>' not in html
            assert f'"card": "{card}"' not in html and f"&quot;card&quot;:&quot;{card}&quot;" not in html
        assert '"deck"' not in html and "view-dump" not in html and "seed" not in html


def test_one_render_per_view_and_each_key_gets_its_own_seats_eyes(dominion_game, player, opponent, outsider):
    """The hub's renderer, as one process runs it for all its pages: seats, a spectator and a visitor."""
    factory = RequestFactory()
    views = {}
    for user in (player, opponent, outsider, AnonymousUser()):
        request = factory.get("/")
        request.user = user
        seat = dominion_game.seats.filter(user=user if user.is_authenticated else None).first()
        key, viewer = _viewer(request, seat if user.is_authenticated else None)
        views[key] = viewer
    assert len(views) == 4
    payloads = render_game_views({"topic": f"game:{dominion_game.pk}"}, views)
    state = services.state_at(dominion_game)
    for key, viewer in views.items():
        [(name, data)] = events_of(payloads[key])
        hand = hand_in(data["html"])
        if viewer.seat is None:
            assert hand is None
        else:
            assert hand == sorted(state.hands[viewer.seat])
    # The same position again draws nothing (a message heard twice, a chat line).
    assert render_game_views({"topic": f"game:{dominion_game.pk}"}, views) == {}


def test_a_page_that_is_up_to_date_gets_nothing_at_once(game, player):
    game_now = Game.objects.get(pk=game.pk)
    url = reverse("games:live", args=[game.pk]) + f"?seq={game_now.last_seq}&v={live_cursor(game_now)}"
    status, events = first_events(player, url)
    assert status == HTTPStatus.OK and events == []


def test_a_private_game_has_no_stream_for_others_and_a_bad_seq_is_refused(player, opponent, outsider):
    private = make_game(player, opponent, private=True)
    assert first_events(outsider, stream_url(private))[0] == HTTPStatus.NOT_FOUND
    assert first_events(None, stream_url(private))[0] == HTTPStatus.NOT_FOUND
    bad = reverse("games:live", args=[private.pk]) + "?seq=x"
    assert first_events(player, bad)[0] == HTTPStatus.BAD_REQUEST


@pytest.mark.django_db(transaction=True)
def test_a_move_and_a_chat_line_reach_an_open_stream(site_test, player, opponent):
    """End to end in one process: the move commits, the hub renders, the open stream gets it."""
    game = make_game(player, opponent)
    watcher = opponent if user_to_move(game) == player else player
    mover = user_to_move(game)

    async def run() -> list[tuple[str, Any]]:
        client = AsyncClient()
        await sync_to_async(client.force_login)(watcher)
        fresh = await sync_to_async(Game.objects.get)(pk=game.pk)
        cursor = await sync_to_async(live_cursor)(fresh)
        response = await client.get(reverse("games:live", args=[game.pk]) + f"?seq={game.last_seq}&v={cursor}")
        chunks = response.streaming_content  # type: ignore[attr-defined]
        await anext(chunks)

        async def until(name: str) -> tuple[str, Any]:
            # The watcher's own arrival (presence) may redraw its page first: that is a "live" at seq 0.
            while True:
                for event in events_of(await anext(chunks)):
                    if event[0] == name and (name != "live" or event[1]["seq"] > game.last_seq):
                        return event

        await sync_to_async(services.game_submit_move)(
            game_id=game.pk, user=mover, move={"act": "add", "n": 1}, expected_seq=game.last_seq
        )
        got = [await until("live")]
        await sync_to_async(services.chat_post)(game_id=game.pk, user=mover, text="hello")
        got.append(await until("chat"))
        await chunks.aclose()
        return got

    events = async_to_sync(run)()
    assert [name for name, _data in events] == ["live", "chat"]
    assert events[0][1]["seq"] == game.last_seq + 1
    # A chat line says only "look again": the page fetches the lines drawn for its viewer.
    assert events[1][1] == {"seq": None}


def stream_after(user: Any, url: str, act: Any) -> list[tuple[str, Any]]:
    """Open the stream at ``url`` as ``user``, run ``act()`` (sync, this thread), return the next chunk's events."""

    async def run() -> list[tuple[str, Any]]:
        client = AsyncClient()
        if user is not None:
            await sync_to_async(client.force_login)(user)
        response = await client.get(url)
        chunks = response.streaming_content  # type: ignore[attr-defined]
        try:
            await anext(chunks)
            await sync_to_async(act)()
            return events_of(await anext(chunks))
        finally:
            await chunks.aclose()

    return async_to_sync(run)()


def test_the_lobby_hears_a_move_in_a_game_it_lists_and_says_only_look_again(
    game, player, opponent, django_capture_on_commit_callbacks
):
    mover = user_to_move(game)
    watcher = opponent if mover == player else player

    def move() -> None:
        with django_capture_on_commit_callbacks(execute=True):
            services.game_submit_move(game_id=game.pk, user=mover, move={"act": "add", "n": 1}, expected_seq=0)

    assert stream_after(watcher, reverse("games:lobby_live"), move) == [("lobby", {"seq": 1})]


def test_a_new_open_game_reaches_an_anonymous_lobby(player, django_capture_on_commit_callbacks):
    def create() -> None:
        with django_capture_on_commit_callbacks(execute=True):
            services.game_create(
                creator=player,
                kind="counter",
                options={"target": 10},
                players=2,
                rated=False,
                private=False,
                time_per_move=timedelta(days=1),
            )

    assert [name for name, _data in stream_after(None, reverse("games:lobby_live"), create)] == ["lobby"]


def test_a_tournament_table_result_reaches_the_tournament_page(player):
    moderator = UserFactory(username="mod", is_staff=True)
    group, _new = Group.objects.get_or_create(name="Moderators")
    group.permissions.add(Permission.objects.get(codename="moderate_games", content_type__app_label="moderation"))
    moderator.groups.add(group)
    tournament = make_tournament(User.objects.get(pk=moderator.pk))
    url = reverse("tournaments:live", args=[tournament.pk])
    events = stream_after(None, url, lambda: publish(live.tournament_topic(tournament.pk)))
    assert [name for name, _data in events] == ["tournament"]
    assert first_events(None, reverse("tournaments:live", args=[tournament.pk + 1000]))[0] == HTTPStatus.NOT_FOUND
