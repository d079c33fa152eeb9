"""A resignation is part of the game's story: the log, the replay and the record say who resigned, and when.

The engine's log of moves is left alone: the line is the site's, drawn
from the seat's row, after the last move made before the resignation.
"""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

from games import services
from games.autoplay import game_bot_moves
from games.models import Game
from tests.conftest import make_game, seated
from tests.factories import UserFactory

pytestmark = pytest.mark.usefixtures("site_test")


def add(game: Game, n: int = 1) -> Game:
    """The seat to act adds ``n`` (a person, or the bot now playing a resigned seat)."""
    game.refresh_from_db()
    seat = game.seats.get(position=game.to_act[0])
    if seat.bot:
        game_bot_moves(game_id=game.pk, limit=1)
        game.refresh_from_db()
        return game
    services.game_submit_move(
        game_id=game.pk, user=seated(seat), move={"act": "add", "n": n}, expected_seq=game.last_seq
    )
    game.refresh_from_db()
    return game


def log_lines(page: str) -> list[str]:
    """The game page's log, newest first, each line's text without markup ("3 player: add (n=1, total=3)")."""
    log = page.split('id="game-log"', 1)[1].split("</section>", 1)[0]
    items = re.findall(r"<li[^>]*>(.*?)</li>", log, re.S)
    return [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", item)).strip() for item in items]


def game_page(client, game) -> str:
    return client.get(reverse("games:detail", args=[game.pk])).content.decode()


@pytest.mark.parametrize(
    ("language", "text"), [("en", "player resigned."), ("zh-hant", "player 認輸了。"), ("zh-hans", "player 认输了。")]
)
def test_a_resignation_that_ends_the_game_is_the_logs_last_line(client, player, opponent, language, text):
    game = make_game(player, opponent)
    game = add(add(game))
    client.force_login(opponent)
    client.cookies["django_language"] = language
    game_page(client, game)  # the log as drawn before (cached lines must not hide the resignation)
    services.game_resign(game_id=game.pk, user=player)
    lines = log_lines(game_page(client, game))
    assert lines[0] == text, lines
    # The moves keep their numbers: the line above them has none.
    assert lines[1].startswith("2 ") and lines[2].startswith("1 "), lines


def test_in_a_game_that_goes_on_the_resignation_sits_between_the_moves_around_it(client, player, opponent):
    third = UserFactory.create(username="third")
    game = make_game(player, opponent, third)
    game = add(add(add(game)))  # everyone has moved: past move 0 (tests/web/test_move_0.py)
    client.force_login(opponent)
    game_page(client, game)
    services.game_resign(game_id=game.pk, user=player)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert log_lines(game_page(client, game))[0] == "player resigned."
    while game.status == Game.Status.ACTIVE and game.last_seq < 6:
        game = add(game)
    lines = log_lines(game_page(client, game))
    where = lines.index("player resigned.")
    assert lines[where + 1].startswith("3 "), lines
    assert lines[where - 1].startswith("4 "), lines
    assert lines.count("player resigned.") == 1


def test_the_replay_and_the_record_show_the_resignation_where_the_log_does(client, player, opponent):
    game = make_game(player, opponent)
    game = add(add(add(game)))
    services.game_resign(game_id=game.pk, user=opponent)
    client.force_login(player)
    at = client.get(reverse("games:replay", args=[game.pk]) + "?step=3").content.decode()
    assert "opponent resigned." in at
    before = client.get(reverse("games:replay", args=[game.pk]) + "?step=2").content.decode()
    assert "resigned." not in before
    record = json.loads(client.get(reverse("games:record", args=[game.pk])).content)
    gone = {p["name"]: (p["resigned"], p["forfeited_after"]) for p in record["players"]}
    assert gone == {"opponent": (True, 3), "player": (False, None)}
    # The moves are the engine's alone: the record still replays.
    assert [m["seq"] for m in record["moves"]] == [1, 2, 3]


def test_resigning_before_any_move_aborts_the_game_and_its_log_says_who_resigned(client, player, opponent):
    """At move 0 the game is aborted (``games.leaving.at_move_0``): no replay, as for any cancelled game."""
    game = make_game(player, opponent)
    services.game_resign(game_id=game.pk, user=player)
    client.force_login(opponent)
    assert log_lines(game_page(client, game)) == ["player resigned."]
    assert client.get(reverse("games:replay", args=[game.pk]) + "?step=0").status_code == 404


def test_seats_that_resigned_before_the_field_existed_get_their_place_from_the_times(player, opponent):
    """The migration places an old resignation after the last move made before it (``Seat.timed_out``)."""
    from importlib import import_module

    from django.apps import apps

    game = make_game(player, opponent)
    game = add(add(game))
    services.game_resign(game_id=game.pk, user=player)
    game.seats.update(forfeit_seq=None)
    import_module("games.migrations.0009_seat_forfeit_seq").backfill(apps, None)
    assert game.seats.get(user=player).forfeit_seq == 2
    assert game.seats.get(user=opponent).forfeit_seq is None
