"""The move notation in docs/ is the engines' and the schema's (issue 30).

``docs/dominion-moves.md`` and ``docs/domaine-moves.md`` document every act,
field, decision kind and view field the engines produce (as typed in
each game's API part, ``games.<kind>.api``), and each of their examples is legal in the position it
gives. The site serves them, with docs/api.md, at ``/api/v1/guide/``.
"""

from __future__ import annotations

import json
import re
import typing
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from markdown_it import MarkdownIt
from pydantic import BaseModel

from api import gameshapes as shapes
from games.domaine import api as domaine_api
from games.dominion import api as dominion_api
from games.engine.domaine import scenario as domaine_scenario
from games.engine.domaine.cards import ACTION_KEYS as DOMAINE_ACTION_KEYS
from games.engine.dominion import scenario as dominion_scenario
from games.engine.dominion.notation import PARTS as DOMINION_PARTS
from games.engine.registry import bots_of, get_engine

DOCS = Path(__file__).resolve().parents[2] / "docs"
GAMES: dict[str, tuple[Path, Any, Any, type[BaseModel]]] = {
    "dominion": (DOCS / "dominion-moves.md", dominion_scenario, dominion_api.DominionMove, dominion_api.DominionView),
    "domaine": (DOCS / "domaine-moves.md", domaine_scenario, domaine_api.DomaineMove, domaine_api.DomaineView),
}


def _members(union: Any) -> list[type[shapes.Move]]:
    return list(typing.get_args(typing.get_args(union)[0]))


def _acts(union: Any) -> set[str]:
    return {typing.get_args(model.model_fields["act"].annotation)[0] for model in _members(union)}


def _blocks(text: str, info: str) -> list[Any]:
    tokens = MarkdownIt("commonmark").parse(text)
    return [json.loads(t.content) for t in tokens if t.type == "fence" and t.info.strip() == info]


def _table_words(text: str) -> set[str]:
    """Every `word` in the first column of the document's tables."""
    words: set[str] = set()
    for line in text.splitlines():
        if line.startswith("| "):
            first = line.split("|")[1]
            words |= set(re.findall(r"`([a-z_]+)`", first))
    return words


@pytest.mark.parametrize("kind", GAMES)
def test_every_act_and_field_of_the_engine_is_documented(kind: str) -> None:
    path, _scenario, union, _view = GAMES[kind]
    text = path.read_text(encoding="utf-8")
    acts = _acts(union)
    assert acts <= _table_words(text), acts - _table_words(text)
    fields = {f.alias or name for model in _members(union) for name, f in model.model_fields.items()}
    # The shapes take exactly the parts the engine's notation has (games/engine/<game>/notation.py).
    if kind == "dominion":
        assert acts == set(DOMINION_PARTS)
        assert fields == {"act", *(p for parts in DOMINION_PARTS.values() for p in parts)}
    else:
        action_parts = {p for parts in DOMAINE_ACTION_KEYS.values() for p in parts}
        assert fields == {"act", "at", "knight", "card", "option", "from", *action_parts}
    for field in fields - {"act"}:
        assert f"`{field}`" in text or f'"{field}"' in text, field


@pytest.mark.parametrize("kind", GAMES)
def test_every_view_field_and_decision_kind_is_documented(kind: str) -> None:
    path, _scenario, _union, view = GAMES[kind]
    text = path.read_text(encoding="utf-8")
    for name, field in view.model_fields.items():
        assert f"`{field.alias or name}`" in text, name
    decision = dominion_api.DominionDecision if kind == "dominion" else domaine_api.DomaineDecision
    for value in typing.get_args(decision.model_fields["kind"].annotation):
        assert f"`{value}`" in text, value
    for name in decision.model_fields:
        assert f"`{name}`" in text, name


@pytest.mark.parametrize("kind", GAMES)
def test_every_example_is_legal_where_it_says(kind: str) -> None:
    path, scenario, union, _view = GAMES[kind]
    text = path.read_text(encoding="utf-8")
    positions = _blocks(text, "json position")
    examples = _blocks(text, "json example")
    engine = get_engine(kind)
    shown: set[str] = set()
    for example in examples:
        setup = positions[0] if example["setup"] == "position" else example["setup"]
        state = scenario.build(setup)
        for before in example.get("before", []):
            player = before.pop("player")
            engine.apply(state, player, before)
        move = dict(example["move"])
        player = move.pop("player")
        shapes.MOVES[kind].validate_python(move)
        assert engine.canonical_move(move) == move  # written as the log stores it
        engine.check(state, player, move)  # raises IllegalMove: the text is wrong
        shown.add(move["act"])
    assert shown == _acts(union), _acts(union) - shown  # an example of every act


def test_the_api_guide_names_the_bots_there_are() -> None:
    text = (DOCS / "api.md").read_text(encoding="utf-8")
    paragraph = text[text.index("**Bots.**") :].split("\n\n")[0]
    for kind in GAMES:
        for name in bots_of(kind):
            assert f"`{name}`" in paragraph, name


@pytest.mark.django_db
def test_the_site_serves_the_guide_with_links_between_its_pages() -> None:
    client = Client()
    index = client.get("/api/v1/guide/")
    assert index.status_code == 200
    body = index.content.decode()
    assert "/api/v1/guide/dominion-moves/" in body and "/api/v1/guide/domaine-moves/" in body
    assert 'href="dominion-moves.md"' not in body
    for name, act in (("dominion-moves", "play_treasures"), ("domaine-moves", "place_neutral")):
        page = client.get(f"/api/v1/guide/{name}/")
        assert page.status_code == 200 and act in page.content.decode()
    assert client.get("/api/v1/guide/architecture/").status_code == 404
    assert "/api/v1/guide/" in client.get("/api/v1/openapi.json").json()["info"]["description"]
