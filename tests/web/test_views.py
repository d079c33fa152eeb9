"""The pages: the lobby, creation, joining, the game page, moves, polling, chat, records.

Each view gets the triad: happy path, wrong method, no access.
"""

from __future__ import annotations

import json
import re
from datetime import timedelta
from http import HTTPStatus

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games import services
from games.engine.registry import get_engine
from games.models import Action, ChatMessage, Game
from tests.conftest import dominion_available, make_game, user_to_move, user_waiting
from tests.factories import UserFactory
from tests.web.forms import new_game_fields

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


def url(name: str, game: Game | None = None) -> str:
    return reverse(f"games:{name}", kwargs={"game_id": game.pk} if game else None)


def secret_of(game: Game, position: int) -> str:
    return get_engine(game.kind).view(services.state_at(game), position)["seats"][position]["secret"]


def move_post(game: Game, move: dict, seq: int | None = None) -> dict:
    return {"move": json.dumps(move), "seq": game.last_seq if seq is None else seq}


# ---------------------------------------------------------------------------
# Lobby


def test_lobby_lists_games_by_section(client, game, player, outsider):
    open_game = services.game_create(
        creator=outsider,
        kind="counter",
        options={},
        players=2,
        rated=True,
        private=False,
        time_per_move=game.time_per_move,
    )
    client.force_login(user_to_move(game))
    response = client.get(url("lobby"))
    assert response.status_code == HTTPStatus.OK
    assert [g.pk for g in response.context["my_move_games"]] == [game.pk]
    assert [g.pk for g in response.context["open_games"]] == [open_game.pk]
    client.force_login(user_waiting(game))
    response = client.get(url("lobby"))
    assert [g.pk for g in response.context["my_waiting_games"]] == [game.pk]


def test_lobby_anonymous(client, game):
    response = client.get(url("lobby"))
    assert response.status_code == HTTPStatus.OK
    assert b"Sign in" in response.content


def test_lobby_hides_private_games_from_outsiders(client, player, opponent, outsider):
    private = services.game_create(
        creator=player,
        kind="counter",
        options={},
        players=2,
        rated=False,
        private=True,
        invited=[opponent],
        time_per_move=services.TIME_CONTROLS[0],
    )
    client.force_login(outsider)
    assert private not in client.get(url("lobby")).context["open_games"]
    client.force_login(opponent)
    assert private in client.get(url("lobby")).context["invitations"]


def test_lobby_wrong_method(client):
    assert client.post(url("lobby")).status_code == HTTPStatus.METHOD_NOT_ALLOWED


def test_lobby_query_count_is_bounded(client, django_assert_max_num_queries, player):
    for _ in range(6):
        make_game(player, UserFactory.create())
        services.game_create(
            creator=UserFactory.create(),
            kind="counter",
            options={},
            players=3,
            rated=False,
            private=False,
            time_per_move=services.TIME_CONTROLS[3],
        )
    client.force_login(player)
    # 10, the player's invitations, and matchmaking's section: the open seeks (one query) and whether the
    # player follows anyone (one query; the followed players' games are read only if they do).
    with django_assert_max_num_queries(13):
        response = client.get(url("lobby"))
    assert len(response.context["my_move_games"]) + len(response.context["my_waiting_games"]) == 6


def test_lobby_rows_are_drawn_once_a_minute_and_again_at_once_after_a_move(client, player, opponent):
    """A second look within the minute reuses the drawn rows (no seat query); a move redraws its row."""
    # At the start of a minute, so that both looks fall within it however slow the machine.
    start = timezone.now().replace(second=0, microsecond=0) + timedelta(minutes=1)
    with time_machine.travel(start, tick=True):
        _lobby_rows_are_drawn_once_a_minute(client, player, opponent)


def _lobby_rows_are_drawn_once_a_minute(client, player, opponent):
    game = make_game(player, opponent)
    mover = user_to_move(game)
    client.force_login(player)
    client.get(url("lobby"))
    with CaptureQueriesContext(connection) as again:
        page = client.get(url("lobby")).content.decode()
    assert not [q for q in again.captured_queries if q["sql"].startswith('SELECT "games_seat"')]

    def running_clock(html):
        return re.search(r'<li class="clock running"><span class="name">([^<]+)</span>', html).group(1)

    assert running_clock(page) == mover.shown_name
    services.game_submit_move(game_id=game.pk, user=mover, move={"act": "add", "n": 1}, expected_seq=0)
    page = client.get(url("lobby")).content.decode()
    assert running_clock(page) != mover.shown_name


# ---------------------------------------------------------------------------
# Creating, joining, leaving, cancelling


@pytest.mark.skipif(not dominion_available(), reason="Dominion engine not there yet")
def test_create_dominion_game(client, player):
    client.force_login(player)
    assert client.get(url("new")).status_code == HTTPStatus.OK
    response = client.post(
        url("new"),
        new_game_fields(kingdom="recommended", recommended_set="First Game", time_per_move=str(3600 * 4)),
    )
    game = Game.objects.get()
    assert response.status_code == HTTPStatus.FOUND
    assert response["Location"] == url("detail", game)
    assert game.options == {"kingdom": "First Game"}
    assert game.time_per_move.total_seconds() == 4 * 3600


@pytest.mark.skipif(not dominion_available(), reason="Dominion engine not there yet")
def test_create_dominion_game_against_a_bot_starts_it(client, player):
    client.force_login(player)
    client.post(
        url("new"),
        {
            "players": "2",
            "kingdom": "random",
            "time_per_move": "86400",
            "rated": "casual",
            "visibility": "open",
            "seat_2": "level2",
        },
    )
    game = Game.objects.get()
    assert game.status == Game.Status.ACTIVE
    assert len(game.options["kingdom"]) == 10
    assert client.get(url("detail", game)).status_code == HTTPStatus.OK


def test_create_form_errors_are_400(client, player):
    client.force_login(player)
    response = client.post(
        url("new"),
        {
            "players": "2",
            "kingdom": "pick",
            "cards": ["Village"],
            "time_per_move": "86400",
            "rated": "casual",
            "visibility": "open",
        },
    )
    assert response.status_code == HTTPStatus.BAD_REQUEST
    assert not Game.objects.exists()
    response = client.post(
        url("new"),
        {
            "players": "2",
            "kingdom": "random",
            "time_per_move": "86400",
            "rated": "casual",
            "visibility": "invite",
            "invited": "nobody",
        },
    )
    assert response.status_code == HTTPStatus.BAD_REQUEST
    assert b"nobody" in response.content


def test_create_needs_sign_in_and_get_or_post(client, player):
    assert client.get(url("new")).status_code == HTTPStatus.FOUND
    client.force_login(player)
    assert client.put(url("new")).status_code == HTTPStatus.METHOD_NOT_ALLOWED


def test_join_leave_cancel(client, player, opponent):
    open_game = services.game_create(
        creator=player,
        kind="counter",
        options={},
        players=3,
        rated=False,
        private=False,
        time_per_move=services.TIME_CONTROLS[0],
    )
    client.force_login(opponent)
    assert client.get(url("join", open_game)).status_code == HTTPStatus.METHOD_NOT_ALLOWED
    assert client.post(url("join", open_game)).status_code == HTTPStatus.FOUND
    assert open_game.seats.filter(user=opponent).exists()
    assert client.post(url("leave", open_game)).status_code == HTTPStatus.FOUND
    assert not open_game.seats.filter(user=opponent).exists()
    client.post(url("cancel", open_game))
    open_game.refresh_from_db()
    assert open_game.status == Game.Status.OPEN  # not the creator
    client.force_login(player)
    client.post(url("cancel", open_game))
    open_game.refresh_from_db()
    assert open_game.status == Game.Status.ABORTED


def test_join_private_game_is_404_for_outsiders(client, player, outsider):
    private = services.game_create(
        creator=player,
        kind="counter",
        options={},
        players=2,
        rated=False,
        private=True,
        invited=[],
        time_per_move=services.TIME_CONTROLS[0],
    )
    client.force_login(outsider)
    assert client.post(url("join", private)).status_code == HTTPStatus.NOT_FOUND
    assert client.get(url("detail", private)).status_code == HTTPStatus.NOT_FOUND
    assert private.seats.count() == 1


# ---------------------------------------------------------------------------
# The game page


def test_game_page_for_a_player(client, game):
    user = user_to_move(game)
    client.force_login(user)
    response = client.get(url("detail", game))
    assert response.status_code == HTTPStatus.OK
    assert response.context["my_move"] is True
    assert b'id="game-board"' in response.content
    assert b"Your move" in response.content


def test_game_page_shows_only_the_viewers_secret(client, game):
    for user in (user_to_move(game), user_waiting(game)):
        mine = game.seats.get(user=user).position
        client.force_login(user)
        html = client.get(url("detail", game)).content.decode()
        assert secret_of(game, mine) in html
        assert secret_of(game, 1 - mine) not in html


def test_spectators_get_the_public_view(client, game, outsider):
    for who in (None, outsider):
        client.logout()
        if who:
            client.force_login(who)
        response = client.get(url("detail", game))
        assert response.status_code == HTTPStatus.OK
        assert response.context["viewer"] is None
        assert response.context["view"]["legal"] == []
        html = response.content.decode()
        assert secret_of(game, 0) not in html
        assert secret_of(game, 1) not in html


def test_game_page_wrong_method_and_missing(client, game):
    assert client.post(url("detail", game)).status_code == HTTPStatus.METHOD_NOT_ALLOWED
    assert client.get(reverse("games:detail", kwargs={"game_id": 999999})).status_code == HTTPStatus.NOT_FOUND


def test_game_page_query_count_is_bounded(client, game, django_assert_max_num_queries):
    for _ in range(5):
        user = user_to_move(game)
        services.game_submit_move(game_id=game.pk, user=user, move={"act": "add", "n": 1}, expected_seq=game.last_seq)
        services.chat_post(game_id=game.pk, user=user, text="hi")
        game.refresh_from_db()
    client.force_login(user_to_move(game))
    client.get(url("detail", game))  # warm the state cache, as any earlier visit would
    with django_assert_max_num_queries(8):
        response = client.get(url("detail", game))
    assert len(response.context["log"]) == 5


@pytest.mark.skipif(not dominion_available(), reason="Dominion engine not there yet")
def test_dominion_game_page_hides_the_other_hand(client, player, opponent):
    game = make_game(player, opponent, kind="dominion", options={"kingdom": "First Game"})
    client.force_login(player)
    response = client.get(url("detail", game))
    assert response.status_code == HTTPStatus.OK
    view = response.context["view"]
    mine = game.seats.get(user=player).position
    assert view["seats"][mine]["hand"] is not None
    assert view["seats"][1 - mine]["hand"] is None


# ---------------------------------------------------------------------------
# Moves


def test_move_htmx_returns_the_live_region(client, game):
    user = user_to_move(game)
    client.force_login(user)
    response = client.post(url("move", game), move_post(game, {"act": "add", "n": 2}), **HX)
    assert response.status_code == HTTPStatus.OK
    assert b'id="game-live"' in response.content
    assert b"<html" not in response.content
    assert Action.objects.get(game=game).move == {"act": "add", "n": 2}


def test_move_htmx_answer_is_drawn_from_the_move_without_reading_it_back(client, game, django_assert_max_num_queries):
    """The board after a move comes from what the move committed: game, seats and state are not read twice.

    A move that passes the turn: the user (the session comes from the cache),
    the visibility check (the game's kind and privacy), the locked move
    (BEGIN, lock timeout, game, seats, the action, the next player's
    vacation, the two seats' clocks, their "your move", the game, COMMIT) and
    queueing that outbox row; the answer (the live region) shows no chat, so
    reads none: 13 on PostgreSQL (it was 22-24 when the answer read the game
    back, 16 before the lighter access check and the lazy chat). Three more
    since: the API's token holders (its event stream, one per change), the
    push subscriptions beside the "your move" email, and the log's standing
    answers marks: 16.
    """
    for n in (1, 2):  # a warm cache, as for any game a player has open
        services.game_submit_move(
            game_id=game.pk, user=user_to_move(game), move={"act": "add", "n": n}, expected_seq=game.last_seq
        )
        game.refresh_from_db()
    user = user_to_move(game)
    client.force_login(user)
    client.get(url("detail", game))
    with django_assert_max_num_queries(16):
        response = client.post(url("move", game), move_post(game, {"act": "add", "n": 3}), **HX)
    assert response.status_code == HTTPStatus.OK
    game.refresh_from_db()
    # What the answer shows is the position after the move: the total moved on and the other player is to act.
    assert response.context["game"].last_seq == game.last_seq == 3
    assert response.context["view"] == get_engine(game.kind).view(services.state_at(game), response.context["viewer"])
    assert not response.context["my_move"]


def test_move_plain_post_redirects(client, game):
    client.force_login(user_to_move(game))
    response = client.post(url("move", game), move_post(game, {"act": "add", "n": 1}))
    assert response.status_code == HTTPStatus.FOUND
    assert response["Location"] == url("detail", game)


def test_move_form_fields(client, game):
    client.force_login(user_to_move(game))
    response = client.post(url("move", game), {"act": "add", "seq": 0}, **HX)
    # The counter needs "n", which the form fields do not carry: the engine says why.
    assert response.status_code == HTTPStatus.UNPROCESSABLE_ENTITY
    assert b"Add 1, 2 or 3." in response.content


def test_move_stale_seq(client, game):
    user = user_to_move(game)
    client.force_login(user)
    client.post(url("move", game), move_post(game, {"act": "add", "n": 1}, seq=0), **HX)
    response = client.post(url("move", game), move_post(game, {"act": "add", "n": 1}, seq=0), **HX)
    assert response.status_code == HTTPStatus.CONFLICT
    assert b'id="game-board"' in response.content
    response = client.post(url("move", game), move_post(game, {"act": "add", "n": 1}, seq=0))
    assert response.status_code == HTTPStatus.FOUND
    assert Action.objects.filter(game=game).count() == 1


def test_move_illegal_is_422_with_the_reason(client, game):
    client.force_login(user_to_move(game))
    response = client.post(url("move", game), move_post(game, {"act": "add", "n": 3}, seq=0), **HX)
    assert response.status_code == HTTPStatus.OK
    game.refresh_from_db()
    client.force_login(user_to_move(game))
    response = client.post(url("move", game), move_post(game, {"act": "add", "n": 30}))
    assert response.status_code == HTTPStatus.UNPROCESSABLE_ENTITY
    assert b"Add 1, 2 or 3." in response.content


def test_move_not_your_move_is_403(client, game, outsider):
    client.force_login(user_waiting(game))
    response = client.post(url("move", game), move_post(game, {"act": "add", "n": 1}), **HX)
    assert response.status_code == HTTPStatus.FORBIDDEN
    client.force_login(outsider)
    response = client.post(url("move", game), move_post(game, {"act": "add", "n": 1}))
    assert response.status_code == HTTPStatus.FORBIDDEN
    assert not Action.objects.exists()


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"seq": "x", "act": "add"},
        {"seq": "-1", "act": "add"},
        {"seq": "0"},
        {"seq": "0", "move": "{not json"},
        {"seq": "0", "move": "[1, 2]"},
        {"seq": "0", "move": '{"act": 5}'},
        {"seq": "0", "move": "x" * 5000},
        {"seq": "0", "act": "x" * 100},
        {"seq": "99999999999999999999999", "act": "add"},
    ],
)
def test_malformed_moves_are_4xx(client, game, data):
    client.force_login(user_to_move(game))
    for extra in ({}, HX):
        response = client.post(url("move", game), data, **extra)
        assert 400 <= response.status_code < 500, (data, response.status_code)
    assert not Action.objects.exists()


def test_move_wrong_method_and_anonymous(client, game):
    client.force_login(user_to_move(game))
    assert client.get(url("move", game)).status_code == HTTPStatus.METHOD_NOT_ALLOWED
    client.logout()
    response = client.post(url("move", game), move_post(game, {"act": "add", "n": 1}))
    assert response.status_code == HTTPStatus.FOUND
    assert "/accounts/login/" in response["Location"]
    assert not Action.objects.exists()


def test_move_responses_never_leak_the_other_secret(client, game):
    user = user_to_move(game)
    other = 1 - game.seats.get(user=user).position
    client.force_login(user)
    for data in (
        move_post(game, {"act": "add", "n": 1}),
        move_post(game, {"act": "add", "n": 1}, seq=0),
        move_post(game, {"act": "add", "n": 9}),
    ):
        response = client.post(url("move", game), data, **HX)
        assert secret_of(game, other) not in response.content.decode()


@pytest.mark.skipif(not dominion_available(), reason="Dominion engine not there yet")
def test_dominion_move_through_the_form_fields(client, player, opponent):
    game = make_game(player, opponent, kind="dominion", options={"kingdom": "First Game"})
    client.force_login(user_to_move(game))
    response = client.post(url("move", game), {"act": "end_actions", "seq": 0}, **HX)
    assert response.status_code == HTTPStatus.OK
    response = client.post(url("move", game), {"act": "buy", "card": "Province", "seq": 1}, **HX)
    assert response.status_code == HTTPStatus.UNPROCESSABLE_ENTITY
    assert Action.objects.filter(game=game).count() == 1


# ---------------------------------------------------------------------------
# Polling


def test_poll_204_when_unchanged_then_regions(client, game):
    client.force_login(user_waiting(game))
    page = client.get(url("detail", game))
    cursor = page.context["cursor"]
    response = client.get(url("poll", game), {"seq": 0, "v": cursor}, **HX)
    assert response.status_code == HTTPStatus.NO_CONTENT
    services.game_submit_move(game_id=game.pk, user=user_to_move(game), move={"act": "add", "n": 1}, expected_seq=0)
    response = client.get(url("poll", game), {"seq": 0, "v": cursor}, **HX)
    assert response.status_code == HTTPStatus.OK
    assert b'id="game-live"' in response.content
    services.chat_post(game_id=game.pk, user=user_to_move(game), text="hello there")
    response = client.get(url("poll", game), {"seq": 1, "v": cursor, "chat": 0}, **HX)
    assert b"hello there" in response.content
    assert b'hx-swap-oob="true"' in response.content


def test_poll_sees_a_join(client, player, opponent):
    open_game = services.game_create(
        creator=player,
        kind="counter",
        options={},
        players=2,
        rated=False,
        private=False,
        time_per_move=services.TIME_CONTROLS[0],
    )
    client.force_login(player)
    cursor = client.get(url("detail", open_game)).context["cursor"]
    assert client.get(url("poll", open_game), {"seq": 0, "v": cursor}).status_code == HTTPStatus.NO_CONTENT
    services.game_join(game_id=open_game.pk, user=opponent)
    assert client.get(url("poll", open_game), {"seq": 0, "v": cursor}).status_code == HTTPStatus.OK


def test_poll_bad_requests(client, game):
    assert client.get(url("poll", game), {"seq": "x"}).status_code == HTTPStatus.BAD_REQUEST
    assert client.get(url("poll", game)).status_code == HTTPStatus.BAD_REQUEST
    assert client.post(url("poll", game), {"seq": 0}).status_code == HTTPStatus.METHOD_NOT_ALLOWED


# ---------------------------------------------------------------------------
# Chat


def test_chat_post(client, game, player):
    client.force_login(player)
    response = client.post(url("chat", game), {"text": "<b>good luck</b>"}, **HX)
    assert response.status_code == HTTPStatus.OK
    assert b"&lt;b&gt;good luck&lt;/b&gt;" in response.content
    response = client.post(url("chat", game), {"text": "plain"})
    assert response.status_code == HTTPStatus.FOUND
    assert ChatMessage.objects.count() == 2


def test_chat_refusals(client, game, player, outsider, settings):
    settings.CHAT_RATE_LIMIT = 1
    client.force_login(player)
    assert client.post(url("chat", game), {"text": ""}, **HX).status_code == HTTPStatus.BAD_REQUEST
    assert client.post(url("chat", game), {"text": "x" * 501}, **HX).status_code == HTTPStatus.BAD_REQUEST
    assert client.post(url("chat", game), {"text": "one"}, **HX).status_code == HTTPStatus.OK
    assert client.post(url("chat", game), {"text": "two"}, **HX).status_code == HTTPStatus.TOO_MANY_REQUESTS
    assert client.get(url("chat", game)).status_code == HTTPStatus.METHOD_NOT_ALLOWED
    client.logout()
    assert client.post(url("chat", game), {"text": "anon"}).status_code == HTTPStatus.FOUND
    assert list(ChatMessage.objects.values_list("text", flat=True)) == ["one"]


def test_a_refused_chat_line_without_javascript_shows_its_reason_beside_the_chat_box(client, game, player):
    """Without JavaScript a refused line answers with the page itself, the reason in the chat region (where the
    form's #chat sends the browser) and the text kept, not a redirect with the reason at the top of the page."""
    client.force_login(player)
    response = client.post(url("chat", game), {"text": "   "})
    assert response.status_code == HTTPStatus.BAD_REQUEST
    page = response.content.decode()
    chat = page[page.index('id="game-chat"') :]
    assert 'class="error" role="alert">Write something first.</p>' in chat  # not "This field is required."
    assert 'class="error" role="alert"' not in page[: page.index('id="game-chat"')]
    assert f'action="{url("chat", game)}#chat"' in page
    assert not ChatMessage.objects.exists()


def test_chat_on_a_private_game_is_404_for_outsiders(client, player, opponent, outsider):
    private = make_game(player, opponent, private=True)
    client.force_login(outsider)
    assert client.post(url("chat", private), {"text": "hi"}).status_code == HTTPStatus.NOT_FOUND
    assert not ChatMessage.objects.exists()


# ---------------------------------------------------------------------------
# Records


def test_record_of_a_finished_game(client, game, outsider):
    assert client.get(url("record", game)).status_code == HTTPStatus.NOT_FOUND
    while game.is_active:
        services.game_submit_move(
            game_id=game.pk, user=user_to_move(game), move={"act": "add", "n": 2}, expected_seq=game.last_seq
        )
        game.refresh_from_db()
    client.force_login(outsider)
    response = client.get(url("record", game))
    assert response.status_code == HTTPStatus.OK
    assert "attachment" in response["Content-Disposition"]
    record = response.json()
    assert record["seed"] == game.seed
    assert len(record["moves"]) == 5
    page = client.get(url("detail", game)).content.decode()
    assert secret_of(game, 0) in page  # everything is public once the game is over
    assert client.post(url("record", game)).status_code == HTTPStatus.METHOD_NOT_ALLOWED


def test_unchanged_poll_is_cheap(client, game, django_assert_max_num_queries):
    client.force_login(user_waiting(game))
    cursor = client.get(url("detail", game)).context["cursor"]
    with django_assert_max_num_queries(6):
        response = client.get(url("poll", game), {"seq": 0, "v": cursor}, **HX)
    assert response.status_code == HTTPStatus.NO_CONTENT


def test_a_chat_only_poll_leaves_the_board_alone(client, game, player):
    """A poll that finds only new chat swaps the chat out of band and not the live region."""
    client.force_login(player)
    cursor = client.get(url("detail", game)).context["cursor"]
    services.chat_post(game_id=game.pk, user=player, text="hello there")
    response = client.get(url("poll", game), {"seq": game.last_seq, "v": cursor, "chat": 0}, HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert response.status_code == HTTPStatus.OK
    assert response["HX-Reswap"] == "none"
    assert "hello there" in body and 'id="game-live"' not in body
    assert 'id="chat-cursor"' in body and 'hx-swap-oob="true"' in body


def test_create_a_game_with_a_fischer_clock(client, player):
    """The form offers a Fischer clock: the time per move becomes the bank, plus an increment."""
    client.force_login(player)
    response = client.post(
        url("new"),
        {
            "players": 2,
            "kingdom": "recommended",
            "recommended_set": "First Game",
            "time_per_move": 7 * 86400,
            "clock": "fischer",
            "increment": 86400,
            "rated": "casual",
            "visibility": "open",
            "invited": "",
        },
    )
    assert response.status_code == HTTPStatus.FOUND
    game = Game.objects.latest("pk")
    assert game.clock == Game.Clock.FISCHER
    assert game.increment.total_seconds() == 86400 and game.time_per_move.days == 7


def test_a_refused_chat_message_stays_in_the_box(client, game, player, settings):
    settings.CHAT_RATE_LIMIT = 0
    client.force_login(player)
    response = client.post(url("chat", game), {"text": "my long thought"}, HTTP_HX_REQUEST="true")
    assert response.status_code == HTTPStatus.TOO_MANY_REQUESTS
    assert 'value="my long thought"' in response.content.decode()


def test_the_log_lists_the_newest_entry_first(client, game):
    mover = user_to_move(game)
    services.game_submit_move(game_id=game.pk, user=mover, move={"act": "add", "n": 1}, expected_seq=0)
    game.refresh_from_db()
    services.game_submit_move(game_id=game.pk, user=user_to_move(game), move={"act": "add", "n": 2}, expected_seq=1)
    client.force_login(mover)
    html = client.get(url("detail", game)).content.decode()
    log = html[html.index('id="game-log"') :]
    assert log.index("n=2") < log.index("n=1")


def test_an_unknown_page_is_a_404_in_the_site_layout(client, settings):
    settings.DEBUG = False
    response = client.get("/games/999999/")
    assert response.status_code == HTTPStatus.NOT_FOUND
    assert "Back to the lobby" in response.content.decode()


@pytest.mark.django_db(transaction=True)
def test_with_tasks_inline_the_answer_to_a_move_shows_the_bots_reply(client, player, settings):
    """Without a broker the bot answers inside the request: the answer must show that, not the position before."""
    settings.CELERY_TASK_ALWAYS_EAGER = True
    game = services.game_create(
        creator=player,
        kind="counter",
        options={"target": 10},
        players=2,
        rated=False,
        private=False,
        time_per_move=timedelta(days=1),
        bots=["first"],
    )
    game.refresh_from_db()
    client.force_login(player)
    response = client.post(url("move", game), move_post(game, {"act": "add", "n": 1}), **HX)
    assert response.status_code == HTTPStatus.OK
    game.refresh_from_db()
    assert game.last_seq >= 2  # the bot did answer, inside the request
    assert set(re.findall(r"\?seq=(\d+)", response.content.decode())) == {str(game.last_seq)}


def test_an_invitation_is_listed_as_such_until_the_invited_player_joins(client, player, opponent, outsider):
    game = services.game_create(
        creator=player,
        kind="counter",
        options={},
        players=3,
        rated=False,
        private=True,
        invited=[opponent],
        time_per_move=services.TIME_CONTROLS[3],
    )
    client.force_login(opponent)
    response = client.get(url("lobby"))
    assert [g.pk for g in response.context["invitations"]] == [game.pk]
    assert game.pk not in [g.pk for g in response.context["open_games"]]
    assert "Invitations" in response.content.decode()
    services.game_join(game_id=game.pk, user=opponent)
    assert client.get(url("lobby")).context["invitations"] == []
    client.force_login(outsider)
    assert client.get(url("lobby")).context["invitations"] == []


def test_a_cached_board_is_only_ever_shown_to_its_own_seat(client, game, player, opponent):
    """The board fragment is cached per seat: each player, in either order, sees only their own secret."""
    pages = {}
    for user in (player, opponent, player, opponent):  # the second round is served from the cache
        client.force_login(user)
        pages[user] = client.get(url("detail", game)).content.decode()
    for user, other in ((player, opponent), (opponent, player)):
        mine, theirs = (game.seats.get(user=u).position for u in (user, other))
        assert secret_of(game, mine) in pages[user] and secret_of(game, theirs) not in pages[user]


def test_the_form_token_of_a_cached_board_is_accepted(game):
    """A cached board's forms carry the CSRF token of the session that drew it, which still validates."""
    from django.test import Client

    csrf_client = Client(enforce_csrf_checks=True)
    mover = user_to_move(game)
    csrf_client.force_login(mover)
    csrf_client.get(url("detail", game))
    page = csrf_client.get(url("detail", game)).content.decode()  # drawn from the cache
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    response = csrf_client.post(
        url("move", game), {**move_post(game, {"act": "add", "n": 1}), "csrfmiddlewaretoken": token}
    )
    assert response.status_code == HTTPStatus.FOUND
    game.refresh_from_db()
    assert game.last_seq == 1


def test_a_poll_settles_when_the_newest_chat_line_is_one_the_viewer_does_not_see(client, game, player, opponent):
    """The page's chat cursor is the newest line the viewer is shown; a line from a player they blocked (or
    one a moderator hid) is never shown, so the poll must not count it as news: else every poll of every
    open page answers 200 with the whole chat instead of 204, for as long as that line is the newest."""
    from accounts.services import block_create

    services.chat_post(game_id=game.pk, user=player, text="hello")
    block_create(blocker=player, blocked=opponent)
    services.chat_post(game_id=game.pk, user=opponent, text="a line the player blocked")
    client.force_login(player)
    page = client.get(url("detail", game))
    cursor = page.context["chat_cursor"]
    assert "a line the player blocked" not in page.content.decode()
    response = client.get(url("poll", game), {"seq": game.last_seq, "v": page.context["cursor"], "chat": cursor}, **HX)
    assert response.status_code == HTTPStatus.NO_CONTENT


def test_a_deleted_players_name_leaves_the_cached_board_and_log_at_once(client, player, opponent):
    """A deleted account shows as "deleted player" everywhere; the board and the log are cached per
    position, and deleting an account changes no position, so their keys must see the names."""
    from accounts.services import user_delete

    opponent.display_name = "Zebediah"
    opponent.save()
    game = make_game(player, opponent, kind="dominion", options={"kingdom": "First Game"})
    mover = user_to_move(game)
    services.game_submit_move(game_id=game.pk, user=mover, move={"act": "end_actions"}, expected_seq=0)
    client.force_login(player)
    client.get(url("detail", game))
    assert "Zebediah" in client.get(url("detail", game)).content.decode()  # drawn, then served from the cache
    user_delete(user=opponent)
    page = client.get(url("detail", game)).content.decode()
    assert "Zebediah" not in page


def test_a_page_waiting_on_others_tells_a_reader_without_javascript_to_reload_it(client, game):
    client.force_login(user_waiting(game))
    page = client.get(url("detail", game)).content.decode()
    hint = page[page.index("<noscript>") : page.index("</noscript>")]
    assert f'<a href="{url("detail", game)}">Reload the page</a>' in hint
    client.force_login(user_to_move(game))
    assert "Reload the page" not in client.get(url("detail", game)).content.decode()


def test_an_empty_open_games_list_links_to_starting_one(client, outsider):
    client.force_login(outsider)
    html = client.get(reverse("games:lobby")).content.decode()
    assert "No open games." in html
    assert f'<a href="{reverse("games:new")}">Start one!</a>' in html


@pytest.mark.parametrize("action", ["move", "chat", "join", "resign"])
def test_a_signed_out_post_to_a_game_action_signs_in_back_to_the_game_page(client, game, action):
    response = client.post(reverse(f"games:{action}", args=[game.pk]), {"seq": "0", "act": "add"})
    assert response.status_code == 302
    login, _, next_ = response["Location"].partition("?next=")
    assert login == reverse("account_login")
    # Back to the page after signing in: the action's own address answers only POST (a 405 on GET).
    assert next_ == f"/games/{game.pk}/"
