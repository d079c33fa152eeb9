"""The schema's game shapes (the games' API parts, in ``api.gameshapes``) fit what the engines really produce.

Bots play games of both kinds, every rules version the site still plays,
and at each step every seat's view (and a spectator's, and the finished
game's), every open decision and every seat's legal moves must fit the
typed shapes, which refuse unknown keys: an engine that changes its data
fails here until the schema and the docs follow it. Also: every kingdom
card and every act of the engines has a shape, and a move the shapes
refuse is a 400 before the rules see it.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from pydantic import TypeAdapter

from api import gameshapes as shapes
from games.domaine import api as domaine_api
from games.dominion import api as dominion_api
from games.engine.dominion.cards import CARDS as DOMINION_CARDS
from games.engine.dominion.cards import RECOMMENDED_SETS
from games.engine.registry import get_engine

VIEWS: dict[str, TypeAdapter[Any]] = {
    "dominion": TypeAdapter(dominion_api.DominionView),
    "domaine": TypeAdapter(domaine_api.DomaineView),
}
DECISIONS: dict[str, TypeAdapter[Any]] = {
    "dominion": TypeAdapter(dominion_api.DominionDecision),
    "domaine": TypeAdapter(domaine_api.DomaineDecision),
}
MOVE_LISTS: dict[str, TypeAdapter[Any]] = {
    "dominion": TypeAdapter(list[dominion_api.DominionMove]),
    "domaine": TypeAdapter(list[domaine_api.DomaineMove]),
}

#: Kingdoms with every attack and every question the engine asks.
KINGDOMS = [
    ["Moat", "Militia", "Bureaucrat", "Thief", "Spy", "Witch", "Library", "Chancellor", "Throne Room", "Cellar"],
    ["Chapel", "Feast", "Remodel", "Mine", "Moneylender", "Workshop", "Adventurer", "Council Room", "Gardens", "Moat"],
    *RECOMMENDED_SETS,
]


def walk(kind: str, version: int, players: int, seed: int, options: dict[str, Any], max_moves: int) -> set[str]:
    """Play a game with the engine's random bot, checking every shape at every step; return the acts made."""
    engine = get_engine(kind, version)
    state = engine.new_game(engine.normalize_options(options, players, seed), players, seed)
    bot = engine.bots["random"]
    rng = random.Random(seed)
    acts: set[str] = set()
    for _step in range(max_moves):
        over = engine.is_over(state)
        for viewer in (None, *range(players)):
            VIEWS[kind].validate_python(engine.view(state, viewer))
        VIEWS[kind].validate_python(engine.view(state, None, reveal_all=True))
        for decision in engine.pending(state):
            DECISIONS[kind].validate_python(decision.to_dict())
        for seat in range(players):
            MOVE_LISTS[kind].validate_python(engine.legal_moves(state, seat))
        if over:
            break
        seat = engine.pending(state)[0].player
        move = bot(engine.player_view(state, seat), rng)
        shapes.MOVES[kind].validate_python(move)
        acts.add(move["act"])
        engine.apply(state, seat, move)
    return acts


@pytest.mark.parametrize("version", get_engine("dominion").versions)
def test_dominion_views_decisions_and_moves_fit_the_shapes(version: int) -> None:
    acts: set[str] = set()
    for i, kingdom in enumerate(KINGDOMS):
        acts |= walk("dominion", version, 2 + i % 3, 100 + i, {"kingdom": kingdom}, max_moves=400)
    assert acts >= {"play", "buy", "end_turn", "choose", "gain", "yes", "no"}


@pytest.mark.parametrize("version", get_engine("domaine").versions)
def test_domaine_views_decisions_and_moves_fit_the_shapes(version: int) -> None:
    acts: set[str] = set()
    for players, seed in ((2, 1), (3, 2), (4, 3)):
        acts |= walk("domaine", version, players, seed, {}, max_moves=300)
    assert acts >= {"place_castle", "place_neutral", "play", "sell", "take"}


def test_every_card_has_a_name_in_the_schema() -> None:
    schema = shapes.components()
    assert set(schema["DominionPlay"]["properties"]["card"]["enum"]) == set(DOMINION_CARDS)


def test_the_shapes_refuse_what_no_game_accepts() -> None:
    for bad in (
        {"act": "buy", "card": "Silver", "extra": 1},  # unknown key
        {"act": "buy", "card": "Silverr"},  # no such card
        {"act": "play", "card": "A1", "option": "1"},  # a string for a number
        {"act": "play", "card": "A1", "borders": ["C7"]},  # a square for an edge
        {"act": "take", "from": "hand"},
        {"act": "fly"},
    ):
        with pytest.raises(ValueError):
            shapes.MOVE.validate_python(bad)
    shapes.MOVE.validate_python({"act": "play", "card": "A1", "option": 0, "with": "C3", "domain": "H9"})
    shapes.MOVE.validate_python({"act": "take", "from": "deck"})
