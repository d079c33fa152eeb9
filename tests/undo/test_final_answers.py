"""An answer owed outside one's turn (Moat, Militia, Bureaucrat) is final once made: no undo takes it back.

The games here are dealt by a fixed set-up (``dealt``): seat 0 (the creator)
holds Village, Militia, Bureaucrat and Market; seat 1 holds a Moat (or a
Copper in its place), two Estates, a Silver and a Copper; seat 2, when there
is one, Coppers and Estates. Seats keep their join order. The rule is in
``docs/rules-notes.md`` ("An answer is final").
"""

from __future__ import annotations

from http import HTTPStatus

import pytest
from django.urls import reverse

from games import services
from games.engine.core import IllegalMove
from games.engine.dominion.standing import ASK_ALL
from games.models import Game, UndoRequest
from tests.api.conftest import api_client
from tests.conftest import make_game
from tests.dealing import deal_fixed
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

KINGDOM = ["Militia", "Moat", "Witch", "Bureaucrat", "Spy", "Thief", "Library", "Throne Room", "Market", "Village"]
C, E, S = "Copper", "Estate", "Silver"


def _setup(moat: bool, players: int) -> dict:
    seats = [
        {"hand": ["Village", "Militia", "Bureaucrat", "Market", C], "deck": [S, S, C, C, C, C, C, E]},
        {"hand": ["Moat" if moat else C, E, E, S, C], "deck": [C] * 5},
        {"hand": [C, C, C, E, E], "deck": [C] * 5},
    ][:players]
    return {"players": players, "kingdom": KINGDOM, "seed": 3, "players_state": seats, "turn": {"player": 0}}


@pytest.fixture
def dealt(monkeypatch, settings):
    """Deal the set-up above; ``dealt["moat"]``: seat 1 holds a Moat; ``dealt["version"]``: the rules."""
    settings.HERALD_FORCED_MOVE_GRACE = 30  # the attacker's last Buy leaves End turn to press
    return deal_fixed(monkeypatch, _setup, {"moat": True, "version": None})


def _game(*users) -> Game:
    return make_game(users[0], *users[1:], kind="dominion", options={"kingdom": KINGDOM})


def _move(game: Game, user, **move) -> Game:
    game.refresh_from_db()
    services.game_submit_move(game_id=game.pk, user=user, move=move, expected_seq=game.last_seq)
    game.refresh_from_db()
    return game


def _asked(user) -> None:
    """The user answers every question themself (no standing answer)."""
    user.standing_answers = ASK_ALL
    user.save()


def _attack_then_end_turn(game: Game, attacker, card: str) -> Game:
    """Seat 0 plays Village, then ``card``, plays its Treasures and ends its turn (version 3: it never waits)."""
    game = _move(game, attacker, act="play", card="Village")
    game = _move(game, attacker, act="play", card=card)
    game = _move(game, attacker, act="play_treasures")
    return _move(game, attacker, act="end_turn")


def _undo_refusal(game: Game, user, *, ask: bool = False) -> IllegalMove:
    game.refresh_from_db()
    call = services.game_undo_ask if ask else services.game_undo
    with pytest.raises(IllegalMove) as refused:
        call(game_id=game.pk, user=user, expected_seq=game.last_seq)
    return refused.value


# ---------------------------------------------------------------------------
# The victim, in their own turn (version 3: the answers were owed past the attacker's turn)


def test_a_moat_answer_and_a_militia_discard_made_in_ones_own_turn_are_final_through_the_api(dealt):
    alice, bob = UserFactory.create(), UserFactory.create()
    _asked(bob)
    game = _attack_then_end_turn(_game(alice, bob), alice, "Militia")
    state = services.state_at(game)
    assert state.current == 1 and game.to_act == [1], "Bob's turn: first his owed answers"
    api = api_client(bob)

    game = _move(game, bob, act="no")  # no Moat reveal: Militia hits, and everyone sees he owes a discard
    refused = api.post(f"/games/{game.pk}/undo", {"expected_seq": game.last_seq})
    assert refused.status_code == HTTPStatus.UNPROCESSABLE_ENTITY
    assert refused.json()["reason"] == "undo_answer_final", refused.json()
    assert "final" in refused.json()["detail"]
    asked = api.post(f"/games/{game.pk}/undo", {"expected_seq": game.last_seq, "ask": True})
    assert asked.status_code == HTTPStatus.UNPROCESSABLE_ENTITY and asked.json()["reason"] == "undo_answer_final"
    assert not UndoRequest.objects.filter(game=game).exists(), "not even the others' consent takes it back"

    game = _move(game, bob, act="choose", cards=[E, E])
    refused = api.post(f"/games/{game.pk}/undo", {"expected_seq": game.last_seq})
    assert refused.status_code == HTTPStatus.UNPROCESSABLE_ENTITY and refused.json()["reason"] == "undo_answer_final"
    game.refresh_from_db()
    assert sorted(services.state_at(game).hands[1]) == [C, "Moat", S], "the discard stands"

    # His own turn's moves after the answers are his to take back, as ever; the answers stay.
    game = _move(game, bob, act="play_treasures")
    done = api.post(f"/games/{game.pk}/undo", {"expected_seq": game.last_seq})
    assert done.status_code == HTTPStatus.OK, done.json()
    game.refresh_from_db()
    assert sorted(services.state_at(game).hands[1]) == [C, "Moat", S]
    refused = api.post(f"/games/{game.pk}/undo", {"expected_seq": game.last_seq})
    assert refused.json()["reason"] == "undo_answer_final"


def test_the_victims_page_offers_no_undo_of_an_answer_and_a_posted_one_says_why(dealt, client):
    alice, bob = UserFactory.create(), UserFactory.create()
    _asked(bob)
    dealt["moat"] = False
    game = _attack_then_end_turn(_game(alice, bob), alice, "Militia")
    game = _move(game, bob, act="no")
    game = _move(game, bob, act="choose", cards=[E, E])
    client.force_login(bob)
    page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert f'action="/games/{game.pk}/undo"' not in page
    for ask in ("0", "1"):
        refused = client.post(
            reverse("games:undo", args=[game.pk]), {"seq": game.last_seq, "ask": ask}, HTTP_HX_REQUEST="true"
        )
        assert refused.status_code == HTTPStatus.UNPROCESSABLE_ENTITY
        assert "is final once made" in refused.content.decode()
    assert Game.objects.get(pk=game.pk).last_seq == game.last_seq
    assert not UndoRequest.objects.filter(game=game).exists()


@pytest.mark.parametrize(("language", "words"), [("zh-hans", "一经作出即为最终"), ("zh-hant", "一經作出即為最終")])
def test_the_refusal_is_said_in_the_readers_language(dealt, client, language, words):
    alice, bob = UserFactory.create(), UserFactory.create()
    _asked(bob)
    game = _attack_then_end_turn(_game(alice, bob), alice, "Militia")
    game = _move(game, bob, act="no")
    client.force_login(bob)
    client.cookies["django_language"] = language
    refused = client.post(
        reverse("games:undo", args=[game.pk]), {"seq": game.last_seq, "ask": "0"}, HTTP_HX_REQUEST="true"
    )
    assert refused.status_code == HTTPStatus.UNPROCESSABLE_ENTITY
    assert words in refused.content.decode()


def test_a_bureaucrat_answer_is_final(dealt):
    alice, bob = UserFactory.create(), UserFactory.create()
    _asked(bob)
    dealt["moat"] = False
    game = _attack_then_end_turn(_game(alice, bob), alice, "Bureaucrat")
    assert services.state_at(game).current == 1
    game = _move(game, bob, act="no")
    assert _undo_refusal(game, bob).code == "undo_answer_final"
    game = _move(game, bob, act="choose", cards=[E])
    assert _undo_refusal(game, bob).code == "undo_answer_final"
    assert _undo_refusal(game, bob, ask=True).code == "undo_answer_final"
    assert services.state_at(game).decks[1][-1] == E, "the Estate stays on his deck"


def test_a_revealed_moat_is_final(dealt):
    alice, bob = UserFactory.create(), UserFactory.create()
    _asked(bob)
    game = _attack_then_end_turn(_game(alice, bob), alice, "Militia")
    game = _move(game, bob, act="yes")
    assert _undo_refusal(game, bob).code == "undo_answer_final"
    assert _undo_refusal(game, bob, ask=True).code == "undo_answer_final"


# ---------------------------------------------------------------------------
# The attacker: an attack whose answers are in cannot be taken back either


def test_the_attacker_cannot_take_back_an_attack_once_its_answers_are_in_even_by_consent(dealt):
    alice, bob, cy = UserFactory.create(), UserFactory.create(), UserFactory.create()
    dealt["moat"] = False
    game = _move(_game(alice, bob, cy), alice, act="play", card="Village")
    game = _move(game, alice, act="play", card="Militia")  # the standing answers discard for both at once
    assert game.to_act == [0]
    assert _undo_refusal(game, alice).code == "undo_answer_final"
    assert _undo_refusal(game, alice, ask=True).code == "undo_answer_final"
    assert not UndoRequest.objects.filter(game=game).exists()
    refused = api_client(alice).post(f"/games/{game.pk}/undo", {"expected_seq": game.last_seq, "ask": True})
    assert refused.status_code == HTTPStatus.UNPROCESSABLE_ENTITY and refused.json()["reason"] == "undo_answer_final"


def test_before_any_answer_the_attack_is_taken_back_with_consent_as_before(dealt):
    alice, bob = UserFactory.create(), UserFactory.create()
    _asked(bob)
    game = _move(_game(alice, bob), alice, act="play", card="Village")
    game = _move(game, alice, act="play", card="Militia")
    assert sorted(game.to_act) == [0, 1], "Bob is still asked"
    assert _undo_refusal(game, alice).code == "undo_needs_consent"
    request = services.game_undo_ask(game_id=game.pk, user=alice, expected_seq=game.last_seq)
    services.game_undo_answer(game_id=game.pk, user=bob, request_id=request.pk, agree=True)
    game.refresh_from_db()
    assert "Militia" in services.state_at(game).hands[0]


@pytest.mark.parametrize("moat", [True, False])
def test_in_the_rulebook_order_the_answers_made_in_the_attackers_turn_are_final_too(dealt, moat):
    """Version 2: the victims answer while the attacker waits, in the attacker's turn."""
    dealt["version"] = 2
    dealt["moat"] = moat
    alice, bob = UserFactory.create(), UserFactory.create()
    _asked(bob)
    game = _move(_game(alice, bob), alice, act="play", card="Village")
    game = _move(game, alice, act="play", card="Militia")
    assert game.to_act == [1]
    game = _move(game, bob, act="yes" if moat else "choose", **({} if moat else {"cards": [E, E]}))
    assert game.to_act == [0]
    assert _undo_refusal(game, alice).code == "undo_answer_final"
    assert _undo_refusal(game, alice, ask=True).code == "undo_answer_final"
