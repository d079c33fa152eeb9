"""Undo in Domaine (a play or a sale before the take), against a bot, and the grace task's queueing."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from games import events, services
from games.autoplay import game_bot_moves
from games.engine.domaine.state import PLAY
from games.engine.dominion.engine import ENGINE
from games.engine.registry import get_engine
from games.models import Game, UndoRequest
from games.tasks import grace_on_commit
from tests.conftest import make_game
from tests.undo.helpers import DRAWERS, user_of

pytestmark = pytest.mark.django_db
DOMAINE = get_engine("domaine")


def advance_with(engine, bot: str, game: Game, until, limit: int = 400) -> Game:
    """Play ``bot``'s moves for every person who must act until ``until(state)``; bots move by themselves."""
    rng = random.Random(3)
    users = {s.position: s.user for s in game.seats.all()}
    for _ in range(limit):
        game.refresh_from_db()
        state = services.state_at(game)
        if until(state):
            return game
        seat = engine.pending(state)[0].player
        user = users[seat]
        if user is None:  # a bot seat: its own loop plays it
            game_bot_moves(game_id=game.pk)
            continue
        move = engine.bots[bot](engine.player_view(state, seat), rng)
        services.game_submit_move(game_id=game.pk, user=user, move=move, expected_seq=game.last_seq)
    raise AssertionError("the position never came")


def test_a_domaine_sale_is_taken_back_before_the_take_but_not_the_take(settings, player, opponent):
    settings.HERALD_FORCED_MOVE_GRACE = 45
    game = make_game(player, opponent, kind="domaine")
    game = advance_with(DOMAINE, "greedy", game, lambda st: st.step == PLAY and st.turns >= 2)
    state = services.state_at(game)
    p = state.turn_player
    card = state.players[p].hand[0]
    gold = state.players[p].gold
    me = user_of(game, p)
    services.game_submit_move(game_id=game.pk, user=me, move={"act": "sell", "card": card}, expected_seq=game.last_seq)
    game.refresh_from_db()
    services.game_undo(game_id=game.pk, user=me, expected_seq=game.last_seq)
    game.refresh_from_db()
    back = services.state_at(game)
    assert back.step == PLAY and card in back.players[p].hand and back.players[p].gold == gold
    services.game_submit_move(game_id=game.pk, user=me, move={"act": "sell", "card": card}, expected_seq=game.last_seq)
    game.refresh_from_db()
    services.game_submit_move(
        game_id=game.pk, user=me, move={"act": "take", "from": "deck"}, expected_seq=game.last_seq
    )
    game.refresh_from_db()
    with pytest.raises(services.IllegalMove) as refused:
        services.game_undo(game_id=game.pk, user=me, expected_seq=game.last_seq)
    assert refused.value.code == "undo_not_your_turn", "the take ended the turn"


def test_against_a_bot_an_undo_past_a_draw_needs_no_one(player):
    game = services.game_create(
        creator=player,
        kind="dominion",
        options={"kingdom": "First Game"},
        players=2,
        rated=False,
        private=False,
        time_per_move=timedelta(days=1),
        bots=["smart"],
    )
    me = next(s.position for s in game.seats.all() if s.user_id == player.pk)

    def mine_with_drawer(st) -> bool:
        return st.current == me and not st.open and st.phase == "action" and any(c in DRAWERS for c in st.hands[me])

    game = advance_with(ENGINE, "smart", game, mine_with_drawer)
    drawer = next(c for c in services.state_at(game).hands[me] if c in DRAWERS)
    services.game_submit_move(
        game_id=game.pk, user=player, move={"act": "play", "card": drawer}, expected_seq=game.last_seq
    )
    game.refresh_from_db()
    with pytest.raises(services.IllegalMove):
        services.game_undo(game_id=game.pk, user=player, expected_seq=game.last_seq)
    services.game_undo_ask(game_id=game.pk, user=player, expected_seq=game.last_seq)
    game.refresh_from_db()
    assert services.state_at(game).plays[me] == [], "the bot agreed at once"
    assert game.actions.get(seq=game.last_seq).move["agreed"] == [1 - me]
    assert not UndoRequest.objects.filter(game=game).exists()


def test_the_grace_task_is_queued_with_its_countdown(settings, monkeypatch, player, opponent):
    settings.CELERY_TASK_ALWAYS_EAGER = False
    queued = []
    monkeypatch.setattr(
        "games.tasks.queue.enqueue", lambda task, *args, countdown=0: queued.append((task.name, args, countdown))
    )
    game = make_game(player, opponent, kind="dominion", options={"kingdom": "First Game"})
    Game.objects.filter(pk=game.pk).update(forced_due=timezone.now() + timedelta(seconds=20))
    grace_on_commit(events.ChangesCommitted(game_id=game.pk, seq=game.last_seq, since=game.created, bot_to_act=False))
    assert len(queued) == 1
    name, args, countdown = queued[0]
    assert name.endswith("forced_move_due") and args == (game.pk,) and 19 < countdown <= 21
    Game.objects.filter(pk=game.pk).update(forced_due=None)
    grace_on_commit(events.ChangesCommitted(game_id=game.pk, seq=game.last_seq, since=game.created, bot_to_act=False))
    assert len(queued) == 1, "nothing waits: nothing queued"


def test_a_domaine_page_waiting_on_the_only_take_names_no_end_turn_button(settings, client, player, opponent):
    """Domaine has no End turn button: the grace hint must point at the take instead."""
    settings.HERALD_FORCED_MOVE_GRACE = 45
    game = make_game(player, opponent, kind="domaine")
    game = advance_with(DOMAINE, "greedy", game, lambda st: st.step == PLAY)
    state = services.state_at(game)
    p = state.turn_player
    me = user_of(game, p)
    card = state.players[p].hand[0]
    services.game_submit_move(game_id=game.pk, user=me, move={"act": "sell", "card": card}, expected_seq=game.last_seq)
    game.refresh_from_db()
    assert game.forced_due is not None, "the sale leaves the deck as the only take, made after the grace"
    client.force_login(me)
    page = client.get(game.get_absolute_url()).content.decode()
    assert "Your turn ends by itself" in page and "Draw from the deck" in page
    assert "45 seconds after your last move" in page and "a few seconds" not in page
    assert "Press End turn" not in page
