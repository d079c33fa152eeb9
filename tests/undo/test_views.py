"""The Undo button and the consent forms on the game page, without JavaScript."""

from __future__ import annotations

from http import HTTPStatus

import pytest
from django.urls import reverse

from games import services
from games.models import UndoRequest
from tests.conftest import make_game
from tests.undo.helpers import DRAWERS, advance, drawer_in_hand, turn_start, user_of

pytestmark = pytest.mark.django_db


def test_undo_button_takes_back_a_buy_and_a_refusal_says_why(settings, client, player, opponent):
    settings.HERALD_FORCED_MOVE_GRACE = 30
    game = advance(make_game(player, opponent, kind="dominion", options={"kingdom": "First Game"}), turn_start)
    p = services.state_at(game).current
    me = user_of(game, p)
    client.force_login(me)
    page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert 'value="Curse"' not in page.split('id="h-supply"')[1].split("</form>")[0], "no $0 Buy in the Action phase"
    client.post(reverse("games:move", args=[game.pk]), {"seq": game.last_seq, "act": "end_actions"})
    client.post(reverse("games:move", args=[game.pk]), {"seq": game.last_seq + 1, "act": "buy", "card": "Curse"})
    game.refresh_from_db()
    page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert "Your turn ends by itself" in page and f'action="/games/{game.pk}/undo"' in page
    # The wait is the setting's, said in seconds (not "a few seconds" for half a minute).
    assert "30 seconds after your last move" in page and "a few seconds" not in page
    response = client.post(reverse("games:undo", args=[game.pk]), {"seq": game.last_seq, "ask": "0"})
    assert response.status_code == HTTPStatus.FOUND
    assert services.state_at(Game_fresh(game)).supply["Curse"] == 10
    stale = client.post(reverse("games:undo", args=[game.pk]), {"seq": game.last_seq - 1, "ask": "0"})
    assert stale.status_code == HTTPStatus.FOUND  # stale: back to the page with a warning, nothing applied
    assert client.post(reverse("games:undo", args=[game.pk]), {"seq": "x"}).status_code == HTTPStatus.BAD_REQUEST
    settings.LANGUAGE_CODE = "en"
    client.post(reverse("games:undo", args=[game.pk]), {"seq": game.last_seq, "ask": "0"})  # the End Action phase
    game.refresh_from_db()
    refused = client.post(reverse("games:undo", args=[game.pk]), {"seq": game.last_seq, "ask": "0"})
    assert refused.status_code == HTTPStatus.UNPROCESSABLE_ENTITY
    assert "no move to take back" in refused.content.decode() or "turn has ended" in refused.content.decode()


def test_the_others_allow_it_from_their_page(client, django_user_model, player, opponent):
    third = django_user_model.objects.create_user("carol", "carol@example.com", "pw-carol-123")
    game = advance(
        make_game(player, opponent, third, kind="dominion", options={"kingdom": "First Game"}), drawer_in_hand
    )
    p = services.state_at(game).current
    drawer = next(c for c in services.state_at(game).hands[p] if c in DRAWERS)
    services.game_submit_move(
        game_id=game.pk, user=user_of(game, p), move={"act": "play", "card": drawer}, expected_seq=game.last_seq
    )
    game.refresh_from_db()
    client.force_login(user_of(game, p))
    page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert "Ask to undo" in page
    client.post(reverse("games:undo", args=[game.pk]), {"seq": game.last_seq, "ask": "1"})
    request = UndoRequest.objects.get(game=game)
    for q in (q for q in range(3) if q != p):
        client.force_login(user_of(game, q))
        page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
        assert "asks to take back their last move" in page and "Allow it" in page
        response = client.post(reverse("games:undo_answer", args=[game.pk]), {"request": request.pk, "answer": "yes"})
        assert response.status_code == HTTPStatus.FOUND
    assert services.state_at(Game_fresh(game)).plays[p] == []


def Game_fresh(game):  # noqa: N802 - reads as the fresh row
    game.refresh_from_db()
    return game


@pytest.mark.parametrize(
    ("language", "words"),
    [("zh-hans", "需要其他玩家同意"), ("zh-hant", "需要其他玩家同意"), ("en", "the others must agree")],
)
def test_a_refused_undo_says_why_in_the_readers_language(settings, client, player, opponent, language, words):
    game = advance(make_game(player, opponent, kind="dominion", options={"kingdom": "First Game"}), drawer_in_hand)
    p = services.state_at(game).current
    drawer = next(c for c in services.state_at(game).hands[p] if c in DRAWERS)
    services.game_submit_move(
        game_id=game.pk, user=user_of(game, p), move={"act": "play", "card": drawer}, expected_seq=game.last_seq
    )
    game.refresh_from_db()
    client.force_login(user_of(game, p))
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    refused = client.post(
        reverse("games:undo", args=[game.pk]), {"seq": game.last_seq, "ask": "0"}, HTTP_HX_REQUEST="true"
    )
    assert refused.status_code == HTTPStatus.UNPROCESSABLE_ENTITY
    assert words in refused.content.decode()
