"""A person playing a bot account (the API) asks to take a move back: the bot must be able to answer."""

from __future__ import annotations

import pytest

from accounts.services import user_make_bot
from api.models import StreamEvent
from games import services
from games.models import UndoRequest
from tests.api.conftest import api_client
from tests.conftest import make_game
from tests.factories import UserFactory
from tests.undo.helpers import DRAWERS, advance, drawer_in_hand, user_of

pytestmark = pytest.mark.django_db


def test_a_bot_account_hears_of_and_can_answer_an_undo_request():
    person, robo = UserFactory.create(username="ann"), user_make_bot(user=UserFactory.create(username="robo"))
    game = advance(make_game(person, robo, kind="dominion", options={"kingdom": "First Game"}), drawer_in_hand)
    p = services.state_at(game).current
    drawer = next(c for c in services.state_at(game).hands[p] if c in DRAWERS)
    services.game_submit_move(
        game_id=game.pk, user=user_of(game, p), move={"act": "play", "card": drawer}, expected_seq=game.last_seq
    )
    game.refresh_from_db()
    bot_user = user_of(game, 1 - p)
    client = api_client(bot_user)
    asked = services.game_undo_ask(game_id=game.pk, user=user_of(game, p), expected_seq=game.last_seq)
    if isinstance(asked, UndoRequest):
        assert StreamEvent.objects.filter(user=bot_user, kind="undo_asked").exists(), "the bot is not told"
        answer = client.post(f"/games/{game.pk}/undo/{asked.pk}", {"agree": True})
        assert answer.status_code == 200, "the bot cannot answer"
    assert not UndoRequest.objects.filter(game=game, status=UndoRequest.Status.OPEN).exists()
