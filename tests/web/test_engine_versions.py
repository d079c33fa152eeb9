"""Each game plays and replays under the rules version it started with (Game.engine_version)."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from games import services
from games.engine.domaine import rules
from games.engine.domaine.board import SQ_NAME
from games.engine.registry import get_engine
from games.models import Game
from tests.conftest import make_game, user_to_move

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("site_test")]


def forest_placement(game: Game) -> dict | None:
    """A legal first castle-and-knight placement of the player to move whose knight stands on a forest."""
    state = services.state_at(game)
    engine = get_engine("domaine")
    for move in engine.legal_moves(state, game.to_act[0]):
        if state.board.terrain[SQ_NAME.index(move["knight"])] == rules.FOREST:
            return move
    return None


def domaine_game(player, opponent, *, version: int | None = None) -> Game:
    """A new Domaine game (at ``version``, as if it had started before the upgrade) whose deal has a forest
    beside a legal castle square (the seed is secret and random: most deals have one)."""
    for _ in range(30):
        game = make_game(player, opponent, kind="domaine")
        if version is not None:
            # Its row says ``version``, and no position is cached.
            Game.objects.filter(pk=game.pk).update(engine_version=version)
            cache.clear()
            game.refresh_from_db()
        if forest_placement(game) is not None:
            return game
    raise AssertionError("30 deals without a forest beside a legal castle square")


def gold_after_placing_on_a_forest(game: Game) -> int:
    position = game.to_act[0]
    move = forest_placement(game)
    assert move is not None  # domaine_game dealt one with a forest placement
    services.game_submit_move(game_id=game.pk, user=user_to_move(game), move=move, expected_seq=game.last_seq)
    game.refresh_from_db()
    return services.state_at(game).players[position].gold


def test_a_game_started_under_domaine_version_1_plays_on_by_version_1_after_the_upgrade(player, opponent):
    game = domaine_game(player, opponent, version=1)
    assert services.state_at(game).version == 1
    # Version 1: the setup knight on a forest costs 1 gold.
    assert gold_after_placing_on_a_forest(game) == rules.START_GOLD - 1
    # And it replays the same way from its log.
    cache.clear()
    assert services.state_at(game).version == 1


def test_a_new_domaine_game_uses_version_2(player, opponent):
    game = domaine_game(player, opponent)
    assert game.engine_version == get_engine("domaine").version == 2
    # Version 2 (the original rules): the setup knight on a forest is free.
    assert gold_after_placing_on_a_forest(game) == rules.START_GOLD
