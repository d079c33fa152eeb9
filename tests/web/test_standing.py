"""Standing answers on the site, the attacker who does not wait, and what nobody may learn from waiting.

The games here are dealt by a fixed set-up (``dealt``): seat 0 (the
creator) holds Village, Militia and Market; seat 1 either holds a Moat or,
in its place, a Copper. Seats keep their join order.
"""

from __future__ import annotations

import difflib
import re
from datetime import UTC, datetime

import pytest
import time_machine
from django.urls import reverse

from correspondence.models import Notification
from games import services
from games.engine.dominion.effects import paused
from games.engine.dominion.engine import DominionEngine
from games.engine.dominion.scenario import build
from games.engine.dominion.standing import ASK_ALL, DEFAULTS
from games.models import Action, Game
from tests.conftest import make_game
from tests.dealing import deal_fixed
from tests.factories import UserFactory

KINGDOM = ["Militia", "Moat", "Witch", "Bureaucrat", "Spy", "Thief", "Library", "Throne Room", "Market", "Village"]
C, E, S = "Copper", "Estate", "Silver"


def _setup(moat: bool, players: int = 3) -> dict:
    seats = [
        {"hand": ["Village", "Militia", "Market", C, C], "deck": [S, S, C, C, C, C, C, E]},
        {"hand": ["Moat" if moat else C, C, E, E, S], "deck": [C] * 5},
        {"hand": [C, C, S, E, E], "deck": [C] * 5},
        {"hand": [C, C, C, E, E], "deck": [C] * 5},
    ][:players]
    return {"players": players, "kingdom": KINGDOM, "seed": 3, "players_state": seats, "turn": {"player": 0}}


@pytest.fixture
def dealt(monkeypatch):
    """Deal the set-up above (``dealt["moat"]`` says whether seat 1 holds a Moat) and keep join order."""
    return deal_fixed(monkeypatch, _setup, {"moat": True})


def _game(*users) -> Game:
    return make_game(users[0], *users[1:], kind="dominion", options={"kingdom": KINGDOM})


def _move(game: Game, user, **move) -> Game:
    game.refresh_from_db()
    services.game_submit_move(game_id=game.pk, user=user, move=move, expected_seq=game.last_seq)
    game.refresh_from_db()
    return game


def test_default_standing_answers_discard_for_the_victim_at_once_and_are_marked_in_the_log(
    dealt, client, player, opponent
):
    game = _move(_game(player, opponent), player, act="play", card="Village")
    game = _move(game, player, act="play", card="Militia")
    assert game.to_act == [0]  # Bob's Moat and his discard were answered for him
    state = services.state_at(game)
    assert state.hands[1] == ["Moat", C, E, E, S]  # he revealed Moat: no discard
    standing = list(Action.objects.filter(game=game, standing=True).values_list("seat", "move"))
    assert standing == [(1, {"act": "yes"})]
    client.force_login(player)
    page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert "standing answer" in page
    # The game's record says which moves were standing answers (and replays without that mark).
    services.game_resign(game_id=game.pk, user=player)  # who moved: at move 0 it would abort
    moves = services.game_record(Game.objects.get(pk=game.pk))["moves"]
    assert [m for m in moves if m.get("standing")] == [{"act": "yes", "seq": 3, "player": 1, "standing": True}]


def test_ask_me_keeps_the_victim_asked_while_the_attacker_plays_on_and_buys(dealt, player, opponent):
    opponent.standing_answers = ASK_ALL
    opponent.save()
    dealt["moat"] = False
    game = _move(_game(player, opponent), player, act="play", card="Village")
    game = _move(game, player, act="play", card="Militia")
    assert sorted(game.to_act) == [0, 1]  # Bob is asked (no Moat: "no reaction" only); Alice goes on
    game = _move(game, player, act="play", card="Market")
    game = _move(game, player, act="play_treasures")
    game = _move(game, player, act="buy", card="Gold")
    game = _move(game, player, act="buy", card="Copper")  # the last Buy: her turn ends by itself
    assert game.to_act == [1] and services.state_at(game).turns[0] == 1
    game = _move(game, opponent, act="no")
    game = _move(game, opponent, act="choose", cards=[E, E])
    assert game.to_act == [1] and sorted(services.state_at(game).hands[1]) == [C, C, S]
    assert not Action.objects.filter(game=game, standing=True).exists()


def test_changing_the_answers_on_the_game_page_answers_an_open_question(dealt, client, player, opponent):
    opponent.standing_answers = ASK_ALL
    opponent.save()
    game = _move(_game(player, opponent), player, act="play", card="Village")
    game = _move(game, player, act="play", card="Militia")
    assert 1 in game.to_act
    client.force_login(opponent)
    form = dict(DEFAULTS)
    response = client.post(reverse("games:standing", args=[game.pk]), form)
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.to_act == [0]
    assert Action.objects.get(game=game, seq=game.last_seq).standing
    assert client.post(reverse("games:standing", args=[game.pk]), {**form, "moat": "never"}).status_code == 400


def test_the_settings_page_describes_each_standing_answer_and_new_games_copy_them(client, player, opponent):
    client.force_login(player)
    for lang, words in (
        ("en", ["Standing answers", "Always reveal it", "Curses first"]),
        ("zh-hans", ["预设回答", "总是展示", "诅咒"]),
        ("zh-hant", ["預設回答", "總是展示", "詛咒"]),
    ):
        client.cookies["django_language"] = lang
        page = client.get(reverse("accounts:settings"), HTTP_ACCEPT_LANGUAGE=lang).content.decode()
        for w in words:
            assert w in page, (lang, w)
    client.cookies["django_language"] = "en"
    response = client.post(reverse("accounts:standing"), {**DEFAULTS, "militia": "ask", "chancellor": "yes"})
    assert response.status_code == 302
    player.refresh_from_db()
    assert player.standing_answers["militia"] == "ask" and player.standing_answers["chancellor"] == "yes"
    assert client.post(reverse("accounts:standing"), {**DEFAULTS, "library": "sometimes"}).status_code == 400
    game = _game(player, opponent)
    mine = game.seats.get(user=player)
    assert mine.standing["militia"] == "ask"


def _observed(client, game: Game, viewer) -> dict:
    """Everything ``viewer`` (another player or a spectator) can see of ``game`` now, ids removed."""
    game.refresh_from_db()
    client.force_login(viewer)
    page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    poll = client.get(reverse("games:poll", args=[game.pk]), {"seq": 0}).content.decode()

    def plain(html: str) -> str:
        html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", html)
        html = re.sub(r'"X-CSRFToken": "[^"]*"', "", html)
        html = html.replace(f"/games/{game.pk}/", "/games/N/").replace(f"game={game.pk}", "game=N")
        html = re.sub(rf"\b(game|games)([-:/_]){game.pk}\b", r"\1\2N", html).replace(f"#{game.pk}", "#N")
        return re.sub(r"v=[0-9a-f:.-]+", "v=", html)

    seats = game.seats.order_by("position")
    return {
        "page": plain(page),
        "poll": plain(poll),
        "to_act": list(game.to_act),
        "clocks": [(s.owes_move, s.deadline is not None, s.clock_seq) for s in seats],
        "emails": sorted((n.user.username, n.kind, n.seq) for n in Notification.objects.filter(game=game)),
    }


@pytest.mark.parametrize("who", ["carol", "spectator"])
def test_nobody_can_tell_from_the_waiting_whether_a_hand_holds_a_moat(db, dealt, client, who):
    """Bob answers "ask me": with or without a Moat he is asked the same way, so the pages, the
    polls, whom the game waits on, the clocks and the emails are the same until he answers."""
    alice, bob, carol, dave = (UserFactory.create(username=n) for n in ("alice", "bob", "carol", "dave"))
    bob.standing_answers = ASK_ALL
    bob.save()
    seen = []
    for moat in (True, False):
        dealt["moat"] = moat
        Notification.objects.all().delete()
        # The same instant for both games: clocks and deadlines may differ only by what Bob holds.
        with time_machine.travel(datetime(2026, 12, 1, 12, 0, tzinfo=UTC), tick=False):
            game = _move(_game(alice, bob, carol), alice, act="play", card="Village")
            game = _move(game, alice, act="play", card="Militia")
            assert sorted(game.to_act) == [0, 1]  # Carol's answers are standing ones; Bob is asked
            seen.append(_observed(client, game, carol if who == "carol" else dave))
        Game.objects.filter(pk=game.pk).delete()
    with_moat, without = seen
    for key in ("to_act", "clocks", "emails", "poll", "page"):
        diff = (
            list(difflib.unified_diff(with_moat[key].splitlines(), without[key].splitlines(), lineterm="", n=0))
            if key in ("poll", "page")
            else []
        )
        assert with_moat[key] == without[key], (key, diff[:12])
    assert any(e[0] == "bob" for e in with_moat["emails"])  # Bob was told, Moat or not


def test_a_victims_question_names_whose_attack_it_answers(dealt, client, player, opponent):
    """Version 3: an answer may be owed after the attacker has moved on, so the question names the attacker."""
    opponent.standing_answers = ASK_ALL
    opponent.save()
    dealt["moat"] = False
    game = _move(_game(player, opponent), player, act="play", card="Village")
    game = _move(game, player, act="play", card="Militia")
    game = _move(game, player, act="play", card="Market")
    attacker = str(game.seats.get(position=0).name)
    client.force_login(opponent)
    url = reverse("games:detail", args=[game.pk])
    page = client.get(url).content.decode()
    assert f"{attacker}&#x27;s Militia attacks you. You have no Moat to reveal." in page
    game = _move(game, opponent, act="no")
    page = client.get(url).content.decode()
    assert f"{attacker}&#x27;s Militia: discard 2 cards (down to 3)." in page
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="zh-hant").content.decode()
    assert f"{attacker} 的義勇軍：棄掉 2 張牌（棄到剩 3 張）。" in page


def test_a_turn_stopped_by_an_owed_answer_says_why(dealt, client, monkeypatch, player, opponent):
    """Throne Room's second Militia depends on the victim's first answer: the attacker's page says what it waits for."""

    def new_game(self, options, players, seed):
        setup = _setup(False, players)
        setup["players_state"][0]["hand"] = ["Throne Room", "Militia", C, C, C]
        st = build(setup, self.version)
        st.ask_all = True
        return st

    monkeypatch.setattr(DominionEngine, "new_game", new_game)
    opponent.standing_answers = ASK_ALL
    opponent.save()
    game = _move(_game(player, opponent), player, act="play", card="Throne Room")
    # Throne Room's only choice, Militia, is made for her; Bob owes the first Militia's answers
    assert game.to_act == [1] and paused(services.state_at(game))
    waiting = "This turn waits for an answer to an attack, and goes on once it is given."
    client.force_login(player)
    url = reverse("games:detail", args=[game.pk])
    assert waiting in client.get(url).content.decode()
    assert "这个回合正在等待对攻击的回应" in client.get(url, HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    game = _move(game, opponent, act="no")
    game = _move(game, opponent, act="choose", cards=[E, E])
    assert waiting not in client.get(url).content.decode()
