"""Site-wide statistics equal a from-scratch count over a small corpus of games played through the site."""

from __future__ import annotations

import io
from collections import Counter, defaultdict
from http import HTTPStatus
from typing import Any

import pytest
from django.core.management import call_command
from django.urls import reverse

from games import services
from games.domaine import stats as domaine_stats
from games.dominion import stats as dominion_stats
from games.engine.dominion.cards import KINGDOM_CARDS
from ratings.models import RatingChange
from stats import selectors
from stats.models import CardTotal, GameStats, Tally
from stats.services import stats_catch_up
from tests.factories import UserFactory
from tests.stats.conftest import play_game

pytestmark = pytest.mark.django_db


def corpus() -> dict[str, list]:
    """Rated Dominion games of 2 and 3 players (some on the same kingdom), rated Domaine games,
    and games that must not count: a casual one and one with a bot."""
    a, b, c, d = UserFactory.create_batch(4)
    dominion = [
        play_game([a, b], options={"kingdom": "First Game"}, seed=1),
        play_game([b, c], options={"kingdom": "First Game"}, seed=2),
        play_game([a, c], seed=3),
        play_game([a, b, c], options={"kingdom": "Big Money"}, seed=4),
        play_game([b, c, d], seed=5),
    ]
    domaine = [play_game([a, b], kind="domaine", seed=6), play_game([c, d, a], kind="domaine", seed=7)]
    uncounted = [play_game([a, d], rated=False, seed=8), play_game([a], bots=("big_money",), rated=False, seed=9)]
    stats_catch_up()
    return {"dominion": dominion, "domaine": domaine, "uncounted": uncounted, "users": [a, b, c, d]}


def scratch_cards(games) -> dict:
    """Count every card's numbers from the games' replays: (card, players) -> Counter, and games per count."""
    cells: dict[tuple[str, int], Counter] = defaultdict(Counter)
    totals: Counter = Counter()
    for game in games:
        positions = services.replay_states(game)
        kingdom = positions[-1][3].kingdom
        buyers = defaultdict(set)
        for *_rest, events in positions:
            for e in events:
                if e.kind == "buy":
                    buyers[e.data["card"]].add(e.player)
        seats = list(game.seats.order_by("position"))
        n = len(seats)
        totals[n] += 1
        for card in kingdom:
            cell = cells[(card, n)]
            cell["games"] += 1
            for s in seats:
                cell["present"] += 1
                bought = s.position in buyers[card]
                cell["bought"] += bought
                cell["won_bought"] += bought and s.rank == 1
                cell["won_not"] += (not bought) and s.rank == 1
    return {"cells": cells, "totals": totals}


def assert_card_table_matches(scratch: dict) -> None:
    for players in (None, 2, 3, 4):
        counts = [players] if players else [2, 3, 4]
        rows = {r.card: r for r in dominion_stats.card_table(players=players)}
        assert set(rows) == set(KINGDOM_CARDS)
        assert selectors.rated_games("dominion", players) == sum(scratch["totals"][n] for n in counts)
        for card, row in rows.items():
            want: Counter[str] = sum((scratch["cells"].get((card, n), Counter()) for n in counts), Counter())
            got = Counter(
                games=row.games,
                present=row.present,
                bought=row.bought,
                won_bought=row.won_bought,
                won_not=row.won_not,
            )
            assert +got == +want, (card, players)


def scratch_domaine(games) -> dict[str, Counter]:
    out: dict[str, Counter] = defaultdict(Counter)
    for game in games:
        positions = services.replay_states(game)
        final = positions[-1][3]
        domains = final.board.derived().domains.values()
        played = Counter(e.player for *_r, events in positions for e in events if e.kind == "play")
        for s in game.seats.all():
            won = s.rank == 1
            castles = sum(1 for dm in domains if dm.owner == s.position)
            for measure, value in (("seat", s.position), ("castles", castles), ("played", played[s.position] // 5 * 5)):
                out[measure][(str(value), "seats")] += 1
                out[measure][(str(value), "wins")] += won
    return out


def assert_domaine_matches(scratch: dict[str, Counter], games: int) -> None:
    tables = domaine_stats.tables()
    assert tables.games == games
    for measure in ("seat", "castles", "played"):
        got: Counter[Any] = Counter()
        for r in tables.by[measure]:
            got[(r.value, "seats")] += r.seats
            got[(r.value, "wins")] += r.wins
        assert +got == +scratch[measure], measure


def test_site_wide_numbers_equal_a_count_from_scratch_and_survive_a_rebuild():
    games = corpus()
    assert GameStats.objects.count() == 9
    assert GameStats.objects.filter(counted=True).count() == 7, "casual and bot games do not count"
    cards = scratch_cards(games["dominion"])
    domaine = scratch_domaine(games["domaine"])
    assert_card_table_matches(cards)
    assert_domaine_matches(domaine, 2)

    # Rating bands: each player counts in the band of their rating going into the game.
    bands = Counter()
    for rc in RatingChange.objects.filter(kind="dominion"):
        bands["b" if 1400 <= rc.display_before < 1600 else "other"] += 10  # ten kingdom cards each
    detail_present = sum(r.present for card in KINGDOM_CARDS for _code, r in dominion_stats.card_detail(card).by_band)
    assert detail_present == sum(bands.values())

    before = (
        sorted(
            CardTotal.objects.values_list(
                "card", "players", "band", "games", "present", "bought", "won_bought", "won_not"
            )
        ),
        sorted(Tally.objects.values_list("kind", "measure", "value", "players", "seats", "wins")),
    )
    out = io.StringIO()
    call_command("rebuild_stats", "--workers", "1", stdout=out, stderr=io.StringIO())
    assert "measured 9 finished games" in out.getvalue()
    after = (
        sorted(
            CardTotal.objects.values_list(
                "card", "players", "band", "games", "present", "bought", "won_bought", "won_not"
            )
        ),
        sorted(Tally.objects.values_list("kind", "measure", "value", "players", "seats", "wins")),
    )
    assert after == before
    assert GameStats.objects.count() == 9
    assert_card_table_matches(cards)


def test_the_pages_and_the_profile_show_the_numbers_and_sort_without_javascript(client):
    games = corpus()
    first_game = games["dominion"][0]
    response = client.get(reverse("stats:kind", args=["dominion"]))
    assert response.status_code == HTTPStatus.OK
    page = response.content.decode()
    assert "Over 5 rated finished games." in page
    for card in KINGDOM_CARDS:
        assert reverse("stats:item", args=["dominion", card]) in page

    by_name = client.get(reverse("stats:kind", args=["dominion"]), {"sort": "card"}).content.decode()
    positions = [by_name.index(f'href="{reverse("stats:item", args=["dominion", c])}"') for c in sorted(KINGDOM_CARDS)]
    assert positions == sorted(positions), "sorted by name, A to Z"
    assert 'href="?sort=-card"' in by_name, "a second click reverses"
    by_presence = dominion_stats.card_table(players=2, sort="presence")
    page2 = client.get(reverse("stats:kind", args=["dominion"]), {"sort": "presence", "players": "2"}).content.decode()
    assert "Over 3 rated finished games." in page2
    top = by_presence[0].card
    # reverse() as the page does: "Throne Room" is /stats/dominion/Throne%20Room/ in the page
    link = {r.card: f'href="{reverse("stats:item", args=["dominion", r.card])}"' for r in by_presence}
    assert page2.index(link[top]) < page2.index(link[by_presence[-1].card])

    kingdom = GameStats.objects.get(game=first_game).data["kingdom"]
    card = client.get(reverse("stats:item", args=["dominion", kingdom[0]])).content.decode()
    assert "On the table in" in card and "By rating" in card and "By number of players" in card

    assert client.get(reverse("stats:kind", args=["domaine"])).status_code == HTTPStatus.OK
    assert "Over 2 rated finished games." in client.get(reverse("stats:kind", args=["domaine"])).content.decode()

    # The profile: games by kind and player count, wins, average score, favourite cards.
    a = games["users"][0]
    page = client.get(a.get_absolute_url()).content.decode()
    assert "Favourite cards (most bought)" in page
    summary = selectors.player_summary(a)
    dominion_2p = next(r for r in summary.rows if r["kind"] == "dominion" and r["players"] == 2)
    # a played First Game with b, a random kingdom with c, a casual game with d and one with a bot.
    assert dominion_2p["games"] == 4
    mine = [
        s
        for g in games["dominion"] + games["uncounted"]
        for s in g.seats.all()
        if s.user_id == a.pk and len(g.seats.all()) == 2
    ]
    assert dominion_2p["wins"] == sum(s.rank == 1 for s in mine)
    assert dominion_2p["score"] == pytest.approx(sum(s.score for s in mine) / len(mine))


@pytest.mark.parametrize(
    ("url", "query", "status"),
    [
        ("/stats/dominion/", {"players": "7"}, HTTPStatus.BAD_REQUEST),
        ("/stats/dominion/", {"players": "x"}, HTTPStatus.BAD_REQUEST),
        ("/stats/dominion/", {"sort": "nonsense"}, HTTPStatus.BAD_REQUEST),
        ("/stats/domaine/", {"players": "1"}, HTTPStatus.BAD_REQUEST),
        ("/stats/dominion/Copper/", {}, HTTPStatus.NOT_FOUND),
        ("/stats/dominion/Nonsense/", {}, HTTPStatus.NOT_FOUND),
        ("/stats/dominion/Militia/", {}, HTTPStatus.OK),
    ],
)
def test_bad_queries_are_refused_clearly(client, url, query, status):
    assert client.get(url, query).status_code == status


def test_the_pages_refuse_posts(client):
    assert client.post("/stats/dominion/").status_code == HTTPStatus.METHOD_NOT_ALLOWED


def test_a_card_page_shows_its_text_in_the_readers_language(client):
    page = client.get("/stats/dominion/Militia/").content.decode()
    assert "Each other player discards down to 3 cards in his hand." in page
    client.post(reverse("accounts:language"), {"language": "zh-hant", "next": "/"})
    page = client.get("/stats/dominion/Militia/").content.decode()
    assert "<h1>義勇軍</h1>" in page and "每位其他玩家將手牌棄到剩下 3 張" in page
    assert "按玩家人數" in page and "買家勝率" in page
    assert "皇輿爭霸牌統計" in client.get("/stats/dominion/").content.decode()


def test_the_statistics_root_leads_to_the_card_statistics(client):
    """README sends newcomers to /stats/: it must land on a statistics page, not a 404."""
    response = client.get("/stats/")
    assert response.status_code == HTTPStatus.FOUND
    assert response["Location"] == reverse("stats:kind", args=["dominion"])
    assert client.get("/stats/", follow=True).status_code == HTTPStatus.OK


def test_the_stats_page_says_choose_a_heading_not_click(client):
    """The sorting hint fits a phone as well as a mouse."""
    page = client.get(reverse("stats:kind", args=["dominion"])).content.decode()
    assert "Click a heading" not in page and "Choose a heading to sort by it" in page


def test_tied_cards_are_listed_by_name_whichever_way_the_column_sorts(client):
    """With no games every row ties: the default "Difference ▼" and its reverse both list the cards A to Z."""
    names = sorted(KINGDOM_CARDS)
    for sort in ("edge", "-edge", "games", "-presence"):
        assert [r.card for r in dominion_stats.card_table(sort=sort)] == names, sort
    assert [r.card for r in dominion_stats.card_table(sort="-card")] == names[::-1]
    page = client.get(reverse("stats:kind", args=["dominion"])).content.decode()
    assert page.index(f"/stats/dominion/{names[0]}/") < page.index(f"/stats/dominion/{names[-1]}/")
