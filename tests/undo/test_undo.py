"""Undo: free within a turn until something hidden is shown, by consent after, through the locked move path."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from games import services
from games.engine import undo as rules
from games.engine.core import Event
from games.engine.dominion.engine import ENGINE
from games.engine.golden import check_record, record_game
from games.models import Game, UndoRequest
from games.replay import engine_for, replay, replay_states
from games.replay_check import check_games
from tests.conftest import make_game
from tests.undo.helpers import DRAWERS, advance, drawer_in_hand, turn_start, user_of

pytestmark = pytest.mark.django_db

FIRST_GAME = {"kingdom": "First Game"}


@pytest.fixture
def grace(settings):
    settings.HERALD_FORCED_MOVE_GRACE = 30
    return settings


def move(game: Game, position: int, **mv) -> Game:
    services.game_submit_move(game_id=game.pk, user=user_of(game, position), move=mv, expected_seq=game.last_seq)
    game.refresh_from_db()
    return game


def undo(game: Game, position: int) -> Game:
    services.game_undo(game_id=game.pk, user=user_of(game, position), expected_seq=game.last_seq)
    game.refresh_from_db()
    return game


def test_the_engine_says_what_shows_hidden_cards():
    assert (
        ENGINE.undo_barrier(0, [Event("play", 0, {"cards": ["Copper"]}), Event("buy", 0, {"card": "Silver"})]) is None
    )
    assert ENGINE.undo_barrier(0, [Event("gain", 1, {"card": "Curse", "to": "discard"})]) is None
    drawn = Event("draw", 0, {"cards": ["Gold"]}, private_to=0, redacted={"count": 1})
    assert ENGINE.undo_barrier(0, [Event("play", 0, {"card": "Smithy"}), drawn]) == rules.REVEALED
    assert ENGINE.undo_barrier(0, [Event("shuffle", 0, {"count": 5})]) == rules.REVEALED
    assert ENGINE.undo_barrier(0, [Event("reveal", 1, {"cards": ["Moat"]})]) == rules.REVEALED
    assert ENGINE.undo_barrier(0, [Event("end_turn", 0, {"turn": 1}), drawn]) == rules.TURN


def test_free_undo_takes_back_a_buy_and_the_treasures_then_is_refused_after_a_draw(grace, player, opponent):
    game = advance(make_game(player, opponent, kind="dominion", options=FIRST_GAME), drawer_in_hand)
    state = services.state_at(game)
    p = state.current
    hand = sorted(state.hands[p])
    game = move(game, p, act="play_treasures")
    coins = services.state_at(game).coins
    game = move(game, p, act="buy", card="Copper")
    assert game.to_act == [p] and game.forced_due is not None, "the End turn waits: the Buy can be taken back"
    game = undo(game, p)
    after = services.state_at(game)
    assert after.coins == coins and after.buys == 1 and not after.bought and game.forced_due is None
    game = undo(game, p)
    after = services.state_at(game)
    assert sorted(after.hands[p]) == hand and after.phase == "action"
    drawer = next(c for c in hand if c in DRAWERS)
    game = move(game, p, act="play", card=drawer)
    with pytest.raises(services.IllegalMove) as refused:
        undo(game, p)
    assert refused.value.code == "undo_needs_consent"
    assert "hidden" in str(refused.value)
    assert services.state_at(game).plays[p] == [drawer], "a refused undo changes nothing"


def test_nothing_to_take_back_at_the_start_of_a_turn_and_never_for_the_other_player(player, opponent):
    game = advance(make_game(player, opponent, kind="dominion", options=FIRST_GAME), turn_start)
    p = services.state_at(game).current
    with pytest.raises(services.IllegalMove) as refused:
        undo(game, p)
    assert refused.value.code in ("undo_nothing", "undo_turn_over")
    with pytest.raises(services.IllegalMove) as other:
        undo(game, 1 - p)
    assert other.value.code == "undo_not_your_turn"


def test_a_stale_or_doubled_undo_applies_once(grace, player, opponent):
    game = advance(make_game(player, opponent, kind="dominion", options=FIRST_GAME), turn_start)
    p = services.state_at(game).current
    game = move(game, p, act="end_actions")
    seq = game.last_seq
    services.game_undo(game_id=game.pk, user=user_of(game, p), expected_seq=seq)
    with pytest.raises(services.StaleMove):
        services.game_undo(game_id=game.pk, user=user_of(game, p), expected_seq=seq)
    game.refresh_from_db()
    assert game.last_seq == seq + 1


def test_undo_by_consent_in_a_three_player_game(django_user_model, player, opponent):
    third = django_user_model.objects.create_user("carol", "carol@example.com", "pw-carol-123")
    game = advance(make_game(player, opponent, third, kind="dominion", options=FIRST_GAME), drawer_in_hand)
    state = services.state_at(game)
    p = state.current
    hand = sorted(state.hands[p])
    drawer = next(c for c in hand if c in DRAWERS)
    game = move(game, p, act="play", card=drawer)
    seq = game.last_seq
    asker = user_of(game, p)
    request = services.game_undo_ask(game_id=game.pk, user=asker, expected_seq=seq)
    assert isinstance(request, UndoRequest) and request.status == UndoRequest.Status.OPEN
    others = [q for q in range(3) if q != p]
    with pytest.raises(services.NotYourMove):
        services.game_undo_answer(game_id=game.pk, user=asker, request_id=request.pk, agree=True)
    services.game_undo_answer(game_id=game.pk, user=user_of(game, others[0]), request_id=request.pk, agree=True)
    game.refresh_from_db()
    assert game.last_seq == seq, "one of two agreed: nothing happens yet"
    services.game_undo_answer(game_id=game.pk, user=user_of(game, others[1]), request_id=request.pk, agree=True)
    game.refresh_from_db()
    assert game.last_seq == seq + 1
    back = services.state_at(game)
    assert sorted(back.hands[p]) == hand and back.plays[p] == []
    entry = game.actions.get(seq=seq + 1).move
    assert entry == {"act": "undo", "to": seq - 1, "agreed": others}
    assert UndoRequest.objects.get(pk=request.pk).status == UndoRequest.Status.DONE

    # Once more, and one player refuses: nothing is taken back.
    game = move(game, p, act="play", card=drawer)
    request = services.game_undo_ask(game_id=game.pk, user=asker, expected_seq=game.last_seq)
    services.game_undo_answer(game_id=game.pk, user=user_of(game, others[0]), request_id=request.pk, agree=False)
    assert UndoRequest.objects.get(pk=request.pk).status == UndoRequest.Status.DECLINED
    with pytest.raises(services.GameNotActive):
        services.game_undo_answer(game_id=game.pk, user=user_of(game, others[1]), request_id=request.pk, agree=True)
    assert services.state_at(game).plays[p] == [drawer]


def test_a_request_lapses_when_a_move_comes_first(django_user_model, player, opponent):
    third = django_user_model.objects.create_user("carol", "carol@example.com", "pw-carol-123")
    game = advance(make_game(player, opponent, third, kind="dominion", options=FIRST_GAME), drawer_in_hand)
    p = services.state_at(game).current
    drawer = next(c for c in services.state_at(game).hands[p] if c in DRAWERS)
    game = move(game, p, act="play", card=drawer)
    request = services.game_undo_ask(game_id=game.pk, user=user_of(game, p), expected_seq=game.last_seq)
    state = services.state_at(game)
    nxt = ENGINE.pending(state)[0].player
    game = move(game, nxt, **ENGINE.legal_moves(state, nxt)[-1])
    other = next(q for q in range(3) if q != p)
    with pytest.raises(services.GameNotActive):
        services.game_undo_answer(game_id=game.pk, user=user_of(game, other), request_id=request.pk, agree=True)


def test_replays_checks_records_and_the_golden_tools_handle_taken_back_moves(grace, client, player, opponent):
    game = advance(make_game(player, opponent, kind="dominion", options=FIRST_GAME), drawer_in_hand)
    p = services.state_at(game).current
    game = move(game, p, act="play_treasures")
    game = move(game, p, act="buy", card="Curse")
    game = undo(game, p)
    game = move(game, p, act="buy", card="Copper")
    game = move(game, p, act="end_turn")
    live = services.state_at(game)
    cache.clear()
    again = replay(game, engine_for(game)).state
    assert again.discards == live.discards and again.hands == live.hands and again.supply == live.supply
    assert live.supply["Curse"] == 10, "the Curse bought by mistake went back"
    assert [r.ok for r in check_games([game.pk])] == [True]
    rows = list(game.actions.order_by("seq").values_list("seq", "seat", "move"))
    log = [{"player": seat, **mv} for _seq, seat, mv in rows]
    record = record_game("dominion", game.engine_version, game.options, game.seed, 2, log)
    assert check_record(record) == []
    undo_seq = next(seq for seq, _s, mv in rows if rules.is_undo(mv))
    positions = replay_states(game)
    assert positions[undo_seq][3].supply == positions[undo_seq - 2][3].supply, "the undo goes back past the Buy"
    services.game_resign(game_id=game.pk, user=opponent)
    game.refresh_from_db()
    data = services.game_record(game)
    assert data["retracted"] == {str(undo_seq - 1): undo_seq}
    client.force_login(player)
    page = client.get(f"/games/{game.pk}/replay?step={undo_seq}")
    assert page.status_code == 200
    assert "takes back their last move" in page.content.decode()
    misclick = client.get(f"/games/{game.pk}/replay?step={undo_seq - 1}").content.decode()
    assert f"This move was taken back at move {undo_seq}." in misclick
