"""Moves that cross (issue 28, part 3): a move made on a page older than the game's last move is applied
when nothing it rests on changed, refused with the current position when something did, and a form sent
twice applies once. Through the services, the page (htmx and plain posts) and the API.

The walk-through: Alice plays Witch; Bob, who answers attacks himself, says "No reaction" (he gains a
Curse); a second later Alice presses "Play all Treasures" on the page drawn before his answer.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from api.tokens import token_create
from games import services
from games.engine.dominion.engine import DominionEngine
from games.engine.dominion.scenario import build
from games.engine.dominion.standing import ASK_ALL
from games.models import Action, Game
from tests.conftest import make_game

KINGDOM = ["Militia", "Moat", "Witch", "Bureaucrat", "Spy", "Thief", "Library", "Throne Room", "Market", "Village"]
C, E, S = "Copper", "Estate", "Silver"


@pytest.fixture
def witch_dealt(monkeypatch):
    """Seat 0 (Alice) holds Witch and four Coppers; seat 1 (Bob) holds no Moat. Join order is kept."""
    setup = {
        "players": 2,
        "kingdom": KINGDOM,
        "seed": 3,
        "players_state": [
            {"hand": ["Witch", C, C, C, E], "deck": [S, S, C, C, C, C, C, E]},
            {"hand": [C, C, E, E, S], "deck": [C] * 5},
        ],
        "turn": {"player": 0},
    }

    def new_game(self, options, players, seed):
        st = build(setup, self.version)
        st.ask_all = bool(options.get("hidden_reactions", True))
        return st

    monkeypatch.setattr(DominionEngine, "new_game", new_game)

    class NoShuffle:
        def shuffle(self, items):
            pass

    monkeypatch.setattr("games.lifecycle.secrets.SystemRandom", NoShuffle)


@pytest.fixture
def witch_played(witch_dealt, player, opponent) -> tuple[Game, int]:
    """Alice (``player``) has played Witch; Bob (``opponent``, who answers attacks himself) is asked.

    Returns the game and the seq Alice's page was drawn at, after her Witch.
    """
    opponent.standing_answers = ASK_ALL
    opponent.save()
    game = make_game(player, opponent, kind="dominion", options={"kingdom": KINGDOM})
    services.game_submit_move(
        game_id=game.pk, user=player, move={"act": "play", "card": "Witch"}, expected_seq=game.last_seq
    )
    game.refresh_from_db()
    assert 1 in game.to_act and 0 in game.to_act  # Alice plays on while Bob owes his answer
    return game, game.last_seq


def _bob_answers(game: Game, opponent) -> Game:
    services.game_submit_move(game_id=game.pk, user=opponent, move={"act": "no"}, expected_seq=game.last_seq)
    game.refresh_from_db()
    return game


def _coins(game: Game) -> int:
    game.refresh_from_db()
    return services.state_at(game).coins


def test_the_attackers_move_after_the_victims_answer_is_applied(witch_played, player, opponent):
    """The walk-through: Bob's answer changed the Curse pile and his discard, nothing Alice's move rests on."""
    game, shown = witch_played
    game = _bob_answers(game, opponent)
    assert game.last_seq > shown and services.state_at(game).discards[1] == ["Curse"]
    services.game_submit_move(game_id=game.pk, user=player, move={"act": "play_treasures"}, expected_seq=shown)
    assert _coins(game) == 3 + 4  # three Coppers, then the two Silvers Witch drew


def test_the_same_move_sent_twice_applies_once(witch_played, player, opponent):
    game, shown = witch_played
    game = _bob_answers(game, opponent)
    services.game_submit_move(game_id=game.pk, user=player, move={"act": "play_treasures"}, expected_seq=shown)
    seq = Game.objects.get(pk=game.pk).last_seq
    with pytest.raises(services.StaleMove):
        services.game_submit_move(game_id=game.pk, user=player, move={"act": "play_treasures"}, expected_seq=shown)
    assert Game.objects.get(pk=game.pk).last_seq == seq and _coins(game) == 7


def test_a_move_whose_pile_changed_is_refused_and_one_whose_pile_did_not_is_applied(witch_played, player, opponent):
    """Alice's page showed 10 Curses; Bob's answer took one. A Curse buy on that page rests on the
    pile's count (it might have been the last, or the third pile): refused. A Silver buy: applied."""
    game, _ = witch_played
    services.game_submit_move(game_id=game.pk, user=player, move={"act": "play_treasures"}, expected_seq=game.last_seq)
    game.refresh_from_db()
    shown = game.last_seq
    game = _bob_answers(game, opponent)
    with pytest.raises(services.StaleMove):
        services.game_submit_move(
            game_id=game.pk, user=player, move={"act": "buy", "card": "Curse"}, expected_seq=shown
        )
    services.game_submit_move(game_id=game.pk, user=player, move={"act": "buy", "card": "Silver"}, expected_seq=shown)
    assert Action.objects.filter(game=game, seat=0, move={"act": "buy", "card": "Silver"}).exists()


def test_a_victims_answer_on_a_page_older_than_the_attackers_later_moves_is_applied(witch_played, player, opponent):
    game, shown = witch_played
    services.game_submit_move(game_id=game.pk, user=player, move={"act": "play_treasures"}, expected_seq=shown)
    services.game_submit_move(game_id=game.pk, user=opponent, move={"act": "no"}, expected_seq=shown)
    game.refresh_from_db()
    assert services.state_at(game).discards[1] == ["Curse"]


def test_a_move_made_before_ones_own_turn_changed_is_refused(witch_played, player, opponent):
    """Bob's page from before Alice's turn ended cannot make a move in his own turn that came since."""
    game, shown = witch_played
    game = _bob_answers(game, opponent)
    services.game_submit_move(game_id=game.pk, user=player, move={"act": "end_turn"}, expected_seq=game.last_seq)
    game.refresh_from_db()
    assert 1 in game.to_act
    with pytest.raises(services.StaleMove):  # his page showed the Witch question, not his turn
        services.game_submit_move(game_id=game.pk, user=opponent, move={"act": "end_actions"}, expected_seq=shown)


def test_a_move_in_a_game_without_its_own_basis_is_refused_when_anything_the_seat_sees_changed(
    site_test, game, player, opponent
):
    """The counter game says nothing of what its moves rest on: any change of the seat's view refuses."""
    mover = game.seats.get(position=game.to_act[0]).user
    other = opponent if mover == player else player
    services.game_submit_move(game_id=game.pk, user=mover, move={"act": "add", "n": 1}, expected_seq=0)
    with pytest.raises(services.StaleMove):
        services.game_submit_move(game_id=game.pk, user=other, move={"act": "add", "n": 1}, expected_seq=0)


def _post(client: Client, game: Game, seq: int, htmx: bool, **move):
    headers = {"HX-Request": "true"} if htmx else {}
    return client.post(reverse("games:move", args=[game.pk]), {**move, "seq": seq}, headers=headers)


@pytest.mark.parametrize("htmx", [True, False])
def test_the_walk_through_on_the_page_applies_once(witch_played, client, player, opponent, htmx):
    game, shown = witch_played
    _bob_answers(game, opponent)
    client.force_login(player)
    first = _post(client, game, shown, htmx, act="play_treasures")
    assert first.status_code == (200 if htmx else 302)
    assert "moved on" not in first.content.decode()
    again = _post(client, game, shown, htmx, act="play_treasures")
    if htmx:
        assert again.status_code == 409 and "moved on" in again.content.decode()
    else:
        assert again.status_code == 302
        assert "moved on" in client.get(again["Location"]).content.decode()
    assert _coins(game) == 7


def test_the_walk_through_through_the_api(witch_played, player, opponent):
    game, shown = witch_played
    _bob_answers(game, opponent)
    _token, raw = token_create(user=player, name="test", scopes=("read", "play"))
    api = Client(headers={"Authorization": f"Bearer {raw}"})
    url = f"/api/v1/games/{game.pk}/moves"
    body = {"move": {"act": "play_treasures"}, "expected_seq": shown}
    assert api.post(url, body, content_type="application/json").status_code == 200
    again = api.post(url, body, content_type="application/json")
    assert again.status_code == 409 and again.json()["code"] == "stale_move"
    assert _coins(game) == 7
