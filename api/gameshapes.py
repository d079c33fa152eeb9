"""The games' own shapes in the API: each installed game's moves, views, decisions and states, typed.

The API names no game: each game hands it its shapes in its **API part**,
the module ``<game package>.api`` (``games.kinds``: ``kind.part("api")``),
and this module puts the installed games' parts together, so that the
served OpenAPI schema types a game's ``view``, ``decision`` and ``legal`` (a
union of the games' states, discriminated on ``kind``) and a move (a union
of the games' moves, each discriminated on ``act``), and a client generator
gives usable types.

An API part defines, each optional (docs/games.md, "The API's part"):

``MOVE``
    The type of the game's move: usually an ``Annotated`` union of
    :class:`api.gameshapes_base.Move` models discriminated on ``act``. It
    joins the schema's ``Move``. Without it the game's moves are described
    as an object with an ``act`` (:class:`UntypedMove`).
``STATE``
    A :class:`api.gameshapes_base.Shape` model of ``GET /games/{id}``'s answer
    for the game: ``kind: Literal[<the game's name>]``, ``game``, ``view``,
    ``decision``, ``legal``, ``undo_request`` and whatever ``present`` adds.
    It joins the schema's ``GameState``. Without it the game's state is
    described by :class:`UntypedGameState` (view and decision as objects).
``VIEW``, ``DECISION``
    The types of the engine's view and of one decision (the tests check
    every view and decision of played games against them).
``DRAFT``, ``CHOICES``
    For a game whose moves are built part by part (``POST /games/{id}/choices``):
    the type of a move being built and of the answer (what may come next).
    The schema names both after their classes; a draft that fits no game's
    ``DRAFT`` is a 400.
``present(out, engine, state, seat, legal) -> out``
    Adds to or reshapes the state answer ``out`` (``state`` is the engine's
    state and ``seat`` the caller's, or both None when the caller owes no
    move; ``legal`` the caller's legal moves).
``CREATE_FIELDS`` and ``create_options(fields) -> options``
    Fields of ``POST /games`` that only this game reads (name ->
    ``(type, pydantic.Field(...))``), and the engine options made from their
    values for a new game of this kind (``ValueError``, whose message is
    shown: a 422 ``invalid_options``).

How the shapes are used:

* Moves: the engine judges a move sent (its ``canonical_move`` its shape,
  its rules whether it is legal now: 422 either way), and the tests check
  every move the engines list and the bots make against its game's ``MOVE``.
* Answers: the views are the engines' own data, sent as they are (no copy
  through these models, so an answer is never refused for its shape); the
  tests check every view, decision and legal move of many played games
  against the parts' models, which forbid unknown keys, so an engine that
  changes its data fails the tests until the schema and the docs follow.
* The schema: :func:`components` gives the JSON schemas that
  ``api.v1.HeraldAPI`` adds to the document's components; the operations
  refer to them by name (:func:`ref`).
"""

from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING, Annotated, Any, Literal, Union

from django.utils.translation import gettext
from pydantic import ConfigDict, Field, TypeAdapter, WithJsonSchema, create_model

from api.gameshapes_base import REF, Move, Shape, link, ref
from api.schemas import CreateGameBase, GameOut, StrictIn, UndoRequestOut
from games import kinds

__all__ = [
    "CREATE_FIELDS",
    "DRAFT",
    "MOVE",
    "MOVES",
    "PART",
    "STATE",
    "ChoicesData",
    "ChoicesIn",
    "CreateGameIn",
    "GameStateData",
    "Move",
    "components",
    "create_options",
    "link",
    "part",
    "present",
    "ref",
]

#: The name of a game's API part module (``<package>.api``).
PART = "api"


def part(kind: str) -> ModuleType | None:
    """The API part of the installed game ``kind``, or None (an unknown game, or one without a part)."""
    found = kinds.find(kind)
    return found.part(PART) if found is not None else None


_PARTS: list[tuple[str, ModuleType | None]] = [(k.name, k.part(PART)) for k in kinds.all_kinds()]
_UNTYPED_MOVES = [name for name, p in _PARTS if p is None or not hasattr(p, "MOVE")]
_UNTYPED_STATES = [name for name, p in _PARTS if p is None or not hasattr(p, "STATE")]

#: The games whose part gives no state shape. Built from the installed games at run time, which mypy cannot
#: read: to it, a kind is a str.
if TYPE_CHECKING:
    UntypedKind = str
else:
    UntypedKind = Literal[tuple(_UNTYPED_STATES or ["-"])]


class UntypedMove(Move):
    """A move of a game whose API part gives no move shape: an object with an ``act`` and its parts."""

    model_config = ConfigDict(extra="allow", strict=True)

    act: str


class UntypedGameState(Shape):
    """A game whose API part gives no state shape, as the caller may see it: the engine's view as it is."""

    model_config = ConfigDict(extra="allow")

    kind: UntypedKind
    game: GameOut
    view: dict[str, Any] | None = Field(description="The engine's view; null before the start.")
    decision: dict[str, Any] | None = Field(description="The decision you owe now, or null.")
    legal: list[dict[str, Any]] = Field(description="Your legal moves now, [] unless you owe a decision.")
    undo_request: UndoRequestOut | None


def _union(types: list[Any]) -> Any:
    """One type for ``types`` (a union of them when there are several)."""
    return types[0] if len(types) == 1 else Union[tuple(types)]  # noqa: UP007 - a union built at run time


_MOVE_TYPES = [p.MOVE for _name, p in _PARTS if p is not None and hasattr(p, "MOVE")]
_STATE_TYPES = [p.STATE for _name, p in _PARTS if p is not None and hasattr(p, "STATE")]
if _UNTYPED_MOVES:
    _MOVE_TYPES.append(UntypedMove)
if _UNTYPED_STATES:
    _STATE_TYPES.append(UntypedGameState)
_DRAFTS = [p.DRAFT for _name, p in _PARTS if p is not None and hasattr(p, "DRAFT")]
_CHOICES = [p.CHOICES for _name, p in _PARTS if p is not None and hasattr(p, "CHOICES")]

#: Checks a move of any installed game's notation (the schema's ``Move``).
MOVE: TypeAdapter[Any] = TypeAdapter(_union(_MOVE_TYPES))
#: Checks one game's moves (the tests, and the docs' examples), for each game whose part has ``MOVE``.
MOVES: dict[str, TypeAdapter[Any]] = {
    name: TypeAdapter(p.MOVE) for name, p in _PARTS if p is not None and hasattr(p, "MOVE")
}
#: Checks a game's state as ``GET /games/{id}`` answers it (the schema's ``GameState``).
_STATE: Any = Annotated[_union(_STATE_TYPES), Field(discriminator="kind")]
STATE: TypeAdapter[Any] = TypeAdapter(_STATE)
#: Checks a move being built (``POST /games/{id}/choices``), of any game whose moves are built so; None if none is.
DRAFT: TypeAdapter[Any] | None = TypeAdapter(_union(_DRAFTS)) if _DRAFTS else None


def _named(types: list[Any]) -> dict[str, Any]:
    """A reference to the component named after each of ``types`` (one of them when there are several)."""
    if not types:
        return {"type": "object"}
    if len(types) == 1:
        return ref(types[0].__name__)
    return {"oneOf": [{"$ref": REF.format(model=t.__name__)} for t in types]}


def components() -> dict[str, Any]:
    """The named JSON schemas of the shapes: ``GameState``, ``Move``, the games' drafts and choices, and every
    part of them."""
    out: dict[str, Any] = {}
    named: list[tuple[str, TypeAdapter[Any]]] = [("GameState", STATE), ("Move", MOVE)]
    named += [(t.__name__, TypeAdapter(t)) for t in _CHOICES]
    named += [(t.__name__, TypeAdapter(t)) for t in _DRAFTS]
    for name, adapter in named:
        schema = adapter.json_schema(ref_template=REF, by_alias=True)
        out.update(schema.pop("$defs", {}))
        out[name] = schema
    return out


#: Types for the operations' annotations: plain data in and out, described by the components above.
GameStateData = Annotated[dict[str, Any], WithJsonSchema(ref("GameState"))]
ChoicesData = Annotated[dict[str, Any], WithJsonSchema(_named(_CHOICES))]


class ChoicesIn(StrictIn):
    """A move being built: what may come next in it."""

    move: Annotated[dict[str, Any], WithJsonSchema(_named(_DRAFTS))] = Field(
        description="The move so far, in the notation of its game (the guide)."
    )


#: Field name -> the game that reads it, for the fields of ``POST /games`` that only one game reads.
CREATE_FIELDS: dict[str, str] = {}
_create_fields: dict[str, Any] = {}
for _name, _part in _PARTS:
    for _field, _spec in (getattr(_part, "CREATE_FIELDS", None) or {}).items():
        CREATE_FIELDS[_field] = _name
        _create_fields[_field] = _spec

if TYPE_CHECKING:
    CreateGameIn = CreateGameBase
else:
    #: ``POST /games``' body: the fields every game reads, then each game's own (its ``CREATE_FIELDS``).
    CreateGameIn = create_model(
        "CreateGameIn", __base__=CreateGameBase, __doc__=CreateGameBase.__doc__, **_create_fields
    )


def create_options(kind: str, body: Any) -> dict[str, Any]:
    """The engine options of a new game of ``kind`` from ``body`` (a ``CreateGameIn``): its part's
    ``create_options`` of the fields it reads, or ``{}`` for a game without any.

    Raises:
        ValueError: the body sets another game's field (one game's option sent for another: a program that
            meant something by it is told, not ignored), or the game's part refuses the values (its
            message is shown).
    """
    foreign = [name for name, owner in CREATE_FIELDS.items() if owner != kind and name in body.model_fields_set]
    if foreign:
        raise ValueError(
            gettext("%(game)s games have no option %(names)s.")
            % {"game": kinds.get(kind).label, "names": ", ".join(sorted(foreign))}
        )
    game_part = part(kind)
    maker = getattr(game_part, "create_options", None)
    if maker is None:
        return {}
    return dict(maker({name: getattr(body, name) for name, owner in CREATE_FIELDS.items() if owner == kind}))


def present(
    kind: str, out: dict[str, Any], engine: Any, state: Any, seat: int | None, legal: list[dict[str, Any]]
) -> dict[str, Any]:
    """The state answer ``out`` as the game ``kind``'s part shapes it (its ``present``), or as it is."""
    hook = getattr(part(kind), "present", None)
    return out if hook is None else hook(out, engine, state, seat, legal)
