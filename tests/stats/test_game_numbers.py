"""A finished game's numbers, as stored, equal what its replay shows position by position."""

from __future__ import annotations

from collections import Counter

import pytest
from django.urls import reverse

from games import services
from games.engine.dominion.cards import CARDS
from stats.models import CardStats, CardTotal, GameStats, PlayerStats, Tally
from stats.services import stats_catch_up, stats_record_game
from tests.accounts.conftest import T0, finished_game
from tests.conftest import make_game
from tests.factories import UserFactory
from tests.stats.conftest import play_game

pytestmark = pytest.mark.django_db


def dominion_vp(cards: list[str]) -> int:
    """Victory points of a set of cards, by the rules (section 10), computed here from the card data."""
    gardens = sum(1 for c in cards if c == "Gardens")
    return sum(CARDS[c].vp for c in cards) + gardens * (len(cards) // 10)


def test_dominion_numbers_equal_the_replay_turn_by_turn():
    a, b, c = UserFactory.create_batch(3)
    game = play_game([a, b, c], seed=4)
    assert stats_record_game(game_id=game.pk)
    stats = GameStats.objects.get(game=game)

    positions = services.replay_states(game)
    n = 3
    expected: list[list[list[int]]] = [[] for _ in range(n)]
    first: list[dict[str, int]] = [{} for _ in range(n)]
    bought: list[Counter] = [Counter() for _ in range(n)]
    previous = None
    for _seq, _seat, _move, st, events in positions:
        for p in range(n):
            if previous is None or st.turns[p] != previous.turns[p]:
                owned = st.owned(p)
                money = sum(CARDS[x].coins for x in owned if "Treasure" in CARDS[x].types)
                expected[p].append([dominion_vp(owned), money, len(owned)])
        for e in events:
            if e.kind in ("buy", "gain"):
                first[e.player].setdefault(e.data["card"], previous.turns[previous.current] + 1)
            if e.kind == "buy":
                bought[e.player][e.data["card"]] += 1
        previous = st
    final = positions[-1][3]

    assert stats.data["series"] == expected
    assert stats.data["first"] == first
    assert stats.data["decks"] == [dict(Counter(final.owned(p))) for p in range(n)]
    assert stats.turns == max(final.turns)
    seats = list(game.seats.order_by("position"))
    # The last point of each line is the seat's final score, as the game recorded it.
    assert [expected[p][-1][0] for p in range(n)] == [s.score for s in seats]
    assert list(PlayerStats.objects.filter(game=game).order_by("position").values_list("won", flat=True)) == [
        s.rank == 1 for s in seats
    ]
    for row in CardStats.objects.filter(game=game):
        assert row.card in final.kingdom
        assert row.bought == bought[row.position][row.card]
        assert row.first == first[row.position].get(row.card)
    assert CardStats.objects.filter(game=game).count() == 10 * n


def test_domaine_numbers_equal_the_replay():
    a, b = UserFactory.create_batch(2)
    game = play_game([a, b], kind="domaine", seed=2)
    assert stats_record_game(game_id=game.pk)
    stats = GameStats.objects.get(game=game)
    positions = services.replay_states(game)
    expected: list[list[list[int]]] = [[], []]
    played = [0, 0]
    for _seq, _seat, _move, st, events in positions:
        for e in events:
            if e.kind == "turn":
                for p in range(2):
                    knights = sum(1 for k in st.board.knight if k == p)
                    expected[p].append([st.scores()[p], st.players[p].gold, knights])
            if e.kind == "play":
                played[e.player] += 1
    final = positions[-1][3]
    for p in range(2):
        expected[p].append([final.scores()[p], final.players[p].gold, sum(1 for k in final.board.knight if k == p)])
    assert stats.data["series"] == expected
    assert stats.data["played"] == played
    domains = final.board.derived().domains.values()
    assert stats.data["castles"] == [sum(1 for d in domains if d.owner == p) for p in range(2)]
    assert [pts[-1][0] for pts in expected] == list(game.seats.order_by("position").values_list("score", flat=True))


def test_a_game_is_measured_once_after_the_commit_that_finishes_it(django_capture_on_commit_callbacks):
    a, b = UserFactory.create_batch(2)
    with django_capture_on_commit_callbacks(execute=True):
        game = play_game([a, b], seed=5)
    assert GameStats.objects.filter(game=game).exists()
    assert PlayerStats.objects.filter(game=game).count() == 2
    assert not stats_record_game(game_id=game.pk), "a second run writes nothing"
    assert PlayerStats.objects.filter(game=game).count() == 2


def test_the_sweep_measures_games_whose_task_was_lost_and_forgets_aborted_ones():
    a, b = UserFactory.create_batch(2)
    game = play_game([a, b], seed=6)  # no commit callbacks run here: as if the broker had been down
    assert not GameStats.objects.filter(game=game).exists()
    assert stats_catch_up() == 1
    assert GameStats.objects.get(game=game).counted
    assert stats_catch_up() == 0
    game.status = game.Status.ABORTED
    game.save(update_fields=["status"])
    assert stats_catch_up() == 1
    assert not GameStats.objects.filter(game=game).exists()
    assert not CardStats.objects.filter(game=game).exists()


def test_the_finished_game_page_and_replay_show_the_charts_with_their_numbers(client):
    a, b = UserFactory.create_batch(2)
    game = play_game([a, b], seed=7)
    page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert "Statistics of this game" not in page, "nothing before the game is measured"
    stats_record_game(game_id=game.pk)
    stats = GameStats.objects.get(game=game)
    for url in (reverse("games:detail", args=[game.pk]), reverse("games:replay", args=[game.pk])):
        page = client.get(url).content.decode()
        assert "Statistics of this game" in page
        assert page.count("<polyline") == 3 * 2
        assert "Victory points" in page and "Money in deck" in page and "Cards in deck" in page
        # The table holds every seat's final victory points.
        for series in stats.data["series"]:
            assert f'<td class="num">{series[-1][0]}</td>' in page
        assert "Final decks" in page and "first gained" in page


def test_a_running_game_shows_no_statistics(client, player, opponent):
    game = make_game(player, opponent, kind="dominion", options={"kingdom": "First Game"})
    client.force_login(player)
    page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert "Statistics of this game" not in page


def test_a_game_without_a_statistics_part_gets_seat_rows_but_no_charts_and_counts_nowhere(
    client, caplog, counter_without_stats
):
    a, b = UserFactory.create_batch(2)
    game = finished_game([a, b], [2, 1], finished=T0)  # the fake "counter" game, rated
    assert stats_record_game(game_id=game.pk)
    assert list(PlayerStats.objects.filter(game=game).order_by("position").values_list("won", flat=True)) == [
        False,
        True,
    ]
    assert not GameStats.objects.get(game=game).counted
    assert not CardTotal.objects.exists() and not Tally.objects.exists()
    assert "does not replay" not in caplog.text
    assert "Statistics of this game" not in client.get(reverse("games:detail", args=[game.pk])).content.decode()
