"""The bots' ladder: levels rated by games among themselves, stored, and shown on the bots' page."""

from __future__ import annotations

import re
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from games import kinds
from ratings.botladder import play_bots, run_ladder
from ratings.models import BotLevelRating
from tests.factories import UserFactory

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("site_test")]


def test_every_installed_game_with_levels_offers_them_weakest_first():
    counter = kinds.get("counter")
    assert counter.bot_levels == ["level1", "level2", "level3"]
    assert all(level in counter.bots for level in counter.bot_levels)
    assert kinds.level_label("level3") == "Level 3 (Club player)" and kinds.level_label("smart") == "smart"


def test_a_bot_game_is_played_to_the_end_from_each_seats_own_view():
    ranks, moves, cpu = play_bots(kinds.get("counter"), ["level3", "level1"], seed=7)
    assert sorted(ranks) == [1, 2] and all(m > 0 for m in moves) and all(c >= 0 for c in cpu)
    # The perfect player wins from the first seat, whatever the other does.
    assert ranks == [1, 2]


def test_the_ladder_orders_the_levels_by_strength_and_is_the_same_for_the_same_seed():
    counter = kinds.get("counter")
    records = run_ladder(counter, games_per_pair=12, seed=3)
    by_level = {r.level: r for r in records}
    assert by_level["level3"].mu > by_level["level2"].mu > by_level["level1"].mu
    games, points = by_level["level3"].versus["level1"]
    assert games == 12 and points >= 6  # perfect play wins every game it starts (seats swap: 6 of 12)
    assert all(r.games == 24 for r in records)  # two opponents, 12 games each
    again = run_ladder(counter, games_per_pair=12, seed=3)
    assert [(r.mu, r.points) for r in again] == [(r.mu, r.points) for r in records]


def test_bot_ladder_command_stores_the_ladder_and_the_bots_page_shows_it(client):
    out = StringIO()
    call_command("bot_ladder", "--kind", "counter", "--games", "6", stdout=out)
    assert "counter level1 vs level2" in out.getvalue() and "ms CPU per move" in out.getvalue()
    rows = {row.level: row for row in BotLevelRating.objects.filter(kind="counter")}
    assert set(rows) == {"level1", "level2", "level3"} and rows["level3"].games == 12
    call_command("bot_ladder", "--kind", "counter", "--games", "2", stdout=StringIO())  # a new run replaces the old
    assert BotLevelRating.objects.filter(kind="counter").count() == 3
    assert BotLevelRating.objects.get(kind="counter", level="level3").games == 4
    page = client.get("/bots/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Level 3 (Club player)" in html and "2 games between each pair of levels" in html
    # Two games a pair tell little: the page says so, and how many games each share of wins is of.
    assert "Too few games to tell close levels apart" in html and "Level 1 (Beginner): " in html
    assert re.search(r"Level 1 \(Beginner\): \d+% of 2 games", html)
    assert "under 0.1 ms" in html  # the counter's bots answer in microseconds, not "0.0 ms"
    assert "/bots/" in client.get("/ladder/counter/").content.decode()  # the ladder links to it
    client.force_login(UserFactory.create())
    assert 'href="/bots/"' in client.get("/games/new/?kind=counter").content.decode()  # where levels are picked


def test_the_bots_page_says_when_levels_were_never_measured(client):
    html = client.get("/bots/").content.decode()
    assert "Counter" in html and "not been measured yet" in html
    assert "Level 1 (Beginner)" in html and "Level 3 (Club player)" in html  # the levels a player can pick


def test_bot_ladder_refuses_a_game_it_does_not_know():
    with pytest.raises(CommandError, match="No game is called"):
        call_command("bot_ladder", "--kind", "chess", stdout=StringIO())


@pytest.mark.parametrize(
    ("language", "level"), [("zh-hant", "第 3 級（社團玩家）"), ("zh-hans", "第 3 级（社团玩家）")]
)
def test_the_bots_page_speaks_chinese(client, language, level):
    call_command("bot_ladder", "--kind", "counter", "--games", "2", stdout=StringIO())
    html = client.get("/bots/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert level in html and "The bots" not in html


def test_a_level_that_runs_out_of_cpu_in_the_ladder_moves_as_the_level_below_as_on_the_site(monkeypatch):
    """The ladder measures the levels players meet: a level over the CPU budget is played by the level below."""
    from tests.counter import bots

    def spin(view, rng):
        while True:
            sum(range(1000))

    monkeypatch.setitem(bots.BOTS, "level3", spin)
    counter = kinds.get("counter")
    ranks, moves, _cpu = play_bots(counter, ["level3", "level1"], seed=7, budget=0.05)
    assert sorted(ranks) == [1, 2] and moves[0] > 0  # finished: level 2 made level 3's moves
    with pytest.raises(KeyError, match="no bot"):
        play_bots(counter, ["level9", "level1"], seed=7)
