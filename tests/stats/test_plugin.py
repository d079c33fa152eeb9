"""A game's statistics come from its own folder: the tests' counter game has a part (tests/counter/stats.py).

Counter games played to the end through the site's services are measured by
that part, counted in the totals, drawn on the game's page, listed on a
statistics page of their own beside the other games' and on the players'
profiles. The same game with no statistics part is simply left out.
"""

from __future__ import annotations

from http import HTTPStatus

import pytest
from django.urls import reverse

from stats.models import GameStats, PlayerStats, Tally
from tests.factories import UserFactory
from tests.stats.conftest import play_game

pytestmark = pytest.mark.django_db


def _counter_game(a, b, seed: int):
    """A rated counter game to 10 in which both seats always add 1: the second seat reaches 10 and wins."""
    return play_game([a, b], kind="counter", options={"target": 10}, policy="first", seed=seed)


def test_counter_games_played_to_the_end_are_in_the_statistics(client, django_capture_on_commit_callbacks):
    a, b = UserFactory.create_batch(2)
    with django_capture_on_commit_callbacks(execute=True):
        games = [_counter_game(a, b, seed) for seed in (1, 2)]
    for game in games:
        stats = GameStats.objects.get(game=game)
        assert stats.counted
        assert stats.data == {"series": [[0, 1, 2, 3, 4, 5]] * 2, "adds": [5, 5]}
    assert Tally.objects.get(kind="counter", measure="seat", value="1", players=2).wins == 2

    page = client.get(reverse("stats:kind", args=["counter"])).content.decode()
    assert "Over 2 rated finished games." in page
    assert '<th scope="row">seat 1</th><td class="num">2</td><td class="num">2</td><td class="num">100%</td>' in page
    assert '<th scope="row">adds 5</th><td class="num">4</td><td class="num">2</td><td class="num">50%</td>' in page
    # Its tab sits beside the other games' on every statistics page.
    tab = f'href="{reverse("stats:kind", args=["counter"])}"'
    assert tab in page and tab in client.get(reverse("stats:kind", args=["dominion"])).content.decode()

    game_page = client.get(games[0].get_absolute_url()).content.decode()
    assert "Statistics of this game" in game_page and "Added by each seat" in game_page
    assert game_page.count("<polyline") == 2, "one line per seat"
    assert tab in game_page, "the link to the statistics of all counter games"

    profile = client.get(a.get_absolute_url()).content.decode()
    assert '<td>Counter</td><td class="num">2</td><td class="num">2</td>' in profile, "2 players, 2 games"
    assert "Favourite cards" not in profile, "a game without cards lists none"


def test_a_game_without_a_statistics_part_is_left_out(
    client, django_capture_on_commit_callbacks, counter_without_stats
):
    a, b = UserFactory.create_batch(2)
    with django_capture_on_commit_callbacks(execute=True):
        game = _counter_game(a, b, seed=3)
    assert PlayerStats.objects.filter(game=game).count() == 2, "its seats still count on the profiles"
    assert not GameStats.objects.get(game=game).counted
    assert not Tally.objects.exists()

    assert client.get("/stats/counter/").status_code == HTTPStatus.NOT_FOUND
    assert client.get("/stats/counter/anything/").status_code == HTTPStatus.NOT_FOUND
    assert client.get("/stats/dominion/Militia/").status_code == HTTPStatus.OK, "the other games keep theirs"
    assert "/stats/counter/" not in client.get(reverse("stats:kind", args=["dominion"])).content.decode()
    game_page = client.get(game.get_absolute_url()).content.decode()
    assert "Statistics of this game" not in game_page
    assert 'hx-select="#game-stats"' not in game_page, "the page does not wait for numbers that never come"
    assert "<td>Counter</td>" in client.get(a.get_absolute_url()).content.decode()


@pytest.mark.parametrize(
    "url",
    ["/stats/nonsense/", "/stats/nonsense/x/", "/stats/Dominion/", "/stats/counter/anything/", "/stats/domaine/B3/"],
)
def test_a_statistics_page_no_game_has_is_a_404(client, url):
    assert client.get(url).status_code == HTTPStatus.NOT_FOUND
