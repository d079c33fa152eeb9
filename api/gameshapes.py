"""The games' own shapes in the API: moves, views, decisions and states of Dominion and Domaine, typed.

These pydantic models say, field by field, what ``docs/dominion-moves.md``
and ``docs/domaine-moves.md`` say in prose, so that the served OpenAPI
schema types a game's ``view``, ``decision`` and ``legal`` (a union per game,
discriminated on ``kind``) and a move (a union on ``act``), and a client
generator gives usable types.

How they are used:

* Moves: the schema's ``Move`` is :data:`MOVE`, a move of either game's
  notation; the engine judges a move sent (its ``canonical_move`` its
  shape, its rules whether it is legal now: 422 either way), and the
  tests check every move the engines list and the bots make against it.
  A Domaine move being built (``POST /games/{id}/choices``) is checked
  against :class:`DomaineDraft` (400).
* Answers: the views are the engines' own data, sent as they are (no copy
  through these models, so an answer is never refused for its shape); the
  tests check every view, decision and legal move of many played games
  against these models, which forbid unknown keys, so an engine that
  changes its data fails the tests until the schema and the docs follow.
* The schema: :func:`components` gives the JSON schemas that
  ``api.v1.HeraldAPI`` adds to the document's components; the operations
  refer to them by name (:func:`ref`).

The engines are the source: card names and ids come from their card lists,
bots from the registry.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, TypeAdapter, WithJsonSchema

from api.gameshapes_base import REF, Move, Shape, link, ref
from api.gameshapes_domaine import Choices, DomaineDecision, DomaineDraft, DomaineMove, DomainePlayOption, DomaineView
from api.gameshapes_dominion import DominionDecision, DominionMove, DominionView
from api.schemas import GameOut, UndoRequestOut

__all__ = [
    "DRAFT",
    "KINDS",
    "MOVE",
    "MOVES",
    "STATE",
    "ChoicesData",
    "DomaineDecision",
    "DomaineMove",
    "DomaineView",
    "DominionDecision",
    "DominionMove",
    "DominionView",
    "GameState",
    "GameStateData",
    "Move",
    "components",
    "link",
    "ref",
]


# --- States ---------------------------------------------------------------------------------------


class DominionState(Shape):
    """A Dominion game as the caller may see it."""

    kind: Literal["dominion"]
    game: GameOut
    view: DominionView | None = Field(description="Null before the start.")
    decision: DominionDecision | None = Field(
        description="The decision you owe now (kind turn: any turn move), or null."
    )
    legal: list[DominionMove] = Field(description="Your legal moves now, [] unless you owe a decision.")
    undo_request: UndoRequestOut | None


class DomaineState(Shape):
    """A Domaine game as the caller may see it."""

    kind: Literal["domaine"]
    game: GameOut
    view: DomaineView | None = Field(description="Null before the start.")
    decision: DomaineDecision | None = Field(description="The decision you owe now, or null.")
    legal: list[DomaineMove] = Field(
        description="Your legal moves now, except plays with parts: sells, takes, setup placements, and each "
        "play with no part (legal too). [] unless you owe a decision."
    )
    plays: list[DomainePlayOption] = Field(
        description="Your plays, by card and option, with their first part: build a full play from these."
    )
    undo_request: UndoRequestOut | None


GameState = Annotated[DominionState | DomaineState, Field(discriminator="kind")]

#: Checks a move of either game's notation (the schema's ``move``).
MOVE: TypeAdapter[Any] = TypeAdapter(DominionMove | DomaineMove)
#: Checks one game's moves, views, decisions, states (the tests, and the docs' examples).
MOVES: dict[str, TypeAdapter[Any]] = {"dominion": TypeAdapter(DominionMove), "domaine": TypeAdapter(DomaineMove)}
STATE: TypeAdapter[Any] = TypeAdapter(GameState)
#: Checks a Domaine move being built.
DRAFT: TypeAdapter[Any] = TypeAdapter(DomaineDraft)
#: The game kinds these shapes describe; the API sends others (the tests' fake game) untyped.
KINDS = ("dominion", "domaine")


def components() -> dict[str, Any]:
    """The named JSON schemas of the shapes: ``GameState``, ``Move``, ``Choices`` and every part of them."""
    out: dict[str, Any] = {}
    named = (("GameState", STATE), ("Move", MOVE), ("Choices", TypeAdapter(Choices)), ("DomaineDraft", DRAFT))
    for name, adapter in named:
        schema = adapter.json_schema(ref_template=REF, by_alias=True)
        out.update(schema.pop("$defs", {}))
        out[name] = schema
    return out


#: Types for the operations' annotations: plain data in and out, described by the components above.
GameStateData = Annotated[dict[str, Any], WithJsonSchema(ref("GameState"))]
ChoicesData = Annotated[dict[str, Any], WithJsonSchema(ref("Choices"))]
