"""Profile pages and the rating changes on a finished game's page."""

from __future__ import annotations

from datetime import timedelta
from http import HTTPStatus

import pytest
from django.template.loader import render_to_string
from django.urls import reverse

from accounts import services as account_services
from ratings.services import rating_update
from tests.accounts.conftest import T0, finished_game
from tests.conftest import make_game
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def history(player, opponent, outsider):
    """player beat opponent twice, lost once and forfeited once; one rated 3-player game."""
    games = [
        finished_game([player, opponent], [1, 2], finished=T0),
        finished_game([player, opponent], [1, 2], finished=T0 + timedelta(days=1)),
        finished_game([player, opponent], [2, 1], finished=T0 + timedelta(days=2)),
        finished_game([player, opponent], [1, 2], finished=T0 + timedelta(days=3), forfeited=(0,)),
        finished_game([player, opponent, outsider], [1, 3, 2], finished=T0 + timedelta(days=4)),
    ]
    for g in games:
        rating_update(game=g)
    return games


def test_profile_shows_rating_record_chart_and_finished_games(client, player, history):
    response = client.get(reverse("accounts:profile", args=[player.username]))
    assert response.status_code == HTTPStatus.OK
    [standing] = response.context["standings"]
    assert (standing.played, standing.won, standing.lost, standing.forfeited) == (5, 3, 1, 1)
    assert standing.games == 5 and not standing.provisional
    html = response.content.decode()
    assert "<svg" in html and "<polyline" in html
    assert html.count("<circle") == 5
    # Most recently finished first, each with a replay link.
    finished = list(response.context["finished_page"])
    assert [g.pk for g in finished] == [g.pk for g in reversed(history)]
    assert reverse("games:replay", args=[history[-1].pk]) in html
    assert response.context["head_to_head"] is None


def test_head_to_head_for_a_signed_in_visitor(client, player, opponent, history):
    client.force_login(opponent)
    response = client.get(reverse("accounts:profile", args=[player.username]))
    h2h = response.context["head_to_head"]
    # opponent's view: behind in 3 (two wins of player, the 3-player game), ahead in 2 (a win and the forfeit).
    assert (h2h.played, h2h.won, h2h.lost, h2h.drawn) == (5, 2, 3, 0)
    html = response.content.decode()
    assert "You against this player" in html
    assert "5 games together: you finished ahead 2 times, behind 3 times, level 0 times." in html


def test_head_to_head_says_one_game_and_once_in_the_singular(client, player, opponent, history):
    from games.models import Game

    Game.objects.filter(pk__in=[g.pk for g in history[1:]]).update(status=Game.Status.ABORTED)
    client.force_login(opponent)
    response = client.get(reverse("accounts:profile", args=[player.username]))
    html = response.content.decode()
    assert response.context["head_to_head"].played == 1
    assert "1 game together: you finished ahead" in html and "1 games" not in html
    assert " once" in html


def test_profile_lists_current_games_but_not_others_private_ones(client, player, opponent, outsider):
    public = make_game(player, opponent)
    secret = make_game(player, opponent, private=True)
    client.force_login(outsider)
    response = client.get(reverse("accounts:profile", args=[player.username]))
    shown = {g.pk for g in response.context["current_games"]}
    assert public.pk in shown and secret.pk not in shown
    client.force_login(player)
    response = client.get(reverse("accounts:profile", args=[player.username]))
    assert {public.pk, secret.pk} <= {g.pk for g in response.context["current_games"]}


def test_profile_of_a_deleted_account_is_404(client):
    user = UserFactory.create()
    account_services.user_delete(user=user)
    user.refresh_from_db()
    assert client.get(reverse("accounts:profile", args=[user.username])).status_code == HTTPStatus.NOT_FOUND


def test_profile_of_nobody_is_404(client):
    assert client.get(reverse("accounts:profile", args=["nobody"])).status_code == HTTPStatus.NOT_FOUND


def test_the_game_page_include_shows_each_seats_rating_change(player, opponent):
    game = finished_game([player, opponent], [1, 2], finished=T0)
    changes = {rc.user_id: rc for rc in rating_update(game=game)}
    # This game has no move log to replay, so render the include alone.
    html = render_to_string(
        "ratings/_game_changes.html", {"game": game, "seats": list(game.seats.select_related("user"))}
    )
    assert "Rating changes" in html
    for rc in changes.values():
        assert f"{rc.display_before} →" in html
        assert str(rc.display_after) in html
    assert "(+" in html and "(-" in html


def test_rated_game_page_end_to_end_shows_the_change(client, player, opponent):
    from games import services

    game = services.game_create(
        creator=player,
        kind="counter",
        options={"target": 3},
        players=2,
        rated=True,
        private=False,
        time_per_move=timedelta(days=1),
    )
    services.game_join(game_id=game.pk, user=opponent)
    game.refresh_from_db()
    mover = game.seats.get(position=game.to_act[0]).user
    services.game_submit_move(game_id=game.pk, user=mover, move={"act": "add", "n": 3}, expected_seq=0)
    response = client.get(game.get_absolute_url())
    assert response.status_code == HTTPStatus.OK
    html = response.content.decode()
    assert "Rating changes" in html
    assert "1500 →" in html


def test_deleting_an_account_cancels_its_open_games_and_leaves_the_others_as_the_players_own_buttons_do(
    player, opponent
):
    # Through the games' own cancel and leave: locked, and announced (GameCancelled) to the apps that
    # listen, e.g. a tournament waiting to fill a table or the API's event stream.
    from games import events
    from games import services as game_services
    from games.models import Game

    leaver = UserFactory.create()
    theirs = game_services.game_create(
        creator=leaver,
        kind="counter",
        options={},
        players=3,
        rated=False,
        private=False,
        time_per_move=game_services.TIME_CONTROLS[0],
    )
    other = game_services.game_create(
        creator=player,
        kind="counter",
        options={},
        players=3,
        rated=False,
        private=False,
        time_per_move=game_services.TIME_CONTROLS[0],
    )
    game_services.game_join(game_id=other.pk, user=leaver)
    heard: list[events.GameCancelled] = []
    events.subscribe(events.GameCancelled, heard.append)
    try:
        account_services.user_delete(user=leaver)
    finally:
        events.unsubscribe(events.GameCancelled, heard.append)
    theirs.refresh_from_db()
    other.refresh_from_db()
    assert theirs.status == Game.Status.ABORTED and [(e.game.pk, e.why) for e in heard] == [(theirs.pk, "creator")]
    assert other.status == Game.Status.OPEN and not other.seats.filter(user=leaver).exists()
