"""Bot levels on the site (docs/bots.md): offered by level, a level out of CPU hands its move down, and a
bot thinks without holding the game's row lock."""

from __future__ import annotations

import random
import threading
from typing import Any

import pytest
from django.db import connection, connections, transaction
from django.urls import reverse

from games import autoplay
from games.fanout import in_bot_loop
from games.models import Game
from tests.counter import bots as counter_bots
from tests.factories import UserFactory
from tests.tasks.conftest import new_game, play

pytestmark = pytest.mark.django_db


def _add(n: int):
    def bot(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
        return {"act": "add", "n": n}

    return bot


def _spin(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    while True:
        sum(range(1000))


def test_the_new_game_form_offers_a_games_bots_by_level_weakest_first(client):
    client.force_login(UserFactory.create())
    html = client.get(reverse("games:new") + "?kind=counter").content.decode()
    labels = [html.index(label) for label in ("Level 1 (Beginner)", "Level 2 (Casual)", "Level 3 (Club player)")]
    assert labels == sorted(labels)
    assert ">first<" not in html  # the bots' own names are not levels: not offered


def test_a_level_out_of_its_cpu_budget_hands_the_move_to_the_level_below(users, monkeypatch, settings, commit):
    settings.HERALD_BOT_CPU_BUDGET = 0.2
    monkeypatch.setitem(counter_bots.BOTS, "level3", _spin)
    monkeypatch.setitem(counter_bots.BOTS, "level2", _add(2))
    with commit():
        game = new_game(users[0], bots=("level3",), target=20)  # the bot moves at once if it sits first
    game.refresh_from_db()
    if game.seats.get(position=game.to_act[0]).bot == "":
        with commit():
            play(game, 1)  # the person moves; then the bot seat
    game.refresh_from_db()
    bot_seat = game.seats.get(bot="level3").position
    moves = list(game.actions.filter(seat=bot_seat).order_by("seq").values_list("move", flat=True))
    assert moves and moves[0] == {"act": "add", "n": 2}  # level 2's move, made for the level 3 seat


@pytest.mark.django_db(transaction=True)
def test_a_bot_thinks_without_the_games_row_lock(users, monkeypatch):
    """While the bot thinks, another connection can take the game's row lock at once (a person's chat or move)."""
    if connection.vendor != "postgresql":
        pytest.skip("row locks with NOWAIT need PostgreSQL")
    with in_bot_loop():  # the bots' turn is not queued: the test makes it below
        game = new_game(users[0], bots=("level2",), target=20)
        if game.seats.get(position=game.to_act[0]).bot == "":
            play(game, 1)
    seen: list[str] = []

    def try_lock() -> None:
        try:
            with transaction.atomic():
                Game.objects.select_for_update(nowait=True).get(pk=game.pk)
            seen.append("free")
        except Exception as exc:  # noqa: BLE001 - the test reports what it met
            seen.append(type(exc).__name__)
        finally:
            connections.close_all()

    def thinking_bot(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
        other = threading.Thread(target=try_lock)
        other.start()
        other.join()
        return {"act": "add", "n": 1}

    monkeypatch.setitem(counter_bots.BOTS, "level2", thinking_bot)
    game.refresh_from_db()
    if not game.to_act or game.seats.get(position=game.to_act[0]).bot != "level2":
        pytest.fail("the bot seat should owe the next move")
    made = autoplay.game_bot_moves(game_id=game.pk, limit=1)
    assert made == 1 and seen == ["free"]
