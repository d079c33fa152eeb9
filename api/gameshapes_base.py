"""The common parts of the games' API shapes (:mod:`api.gameshapes`): references into the schema, strict models."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

REF = "#/components/schemas/{model}"


#: The key of a placeholder for a reference to one of these components, in a field's schema. pydantic checks
#: every ``$ref`` it writes against the models it knows, so the operations' fields carry this instead, and
#: :func:`link` makes it a ``$ref`` in the finished document.
PLACEHOLDER = "x-herald-shape"


def ref(name: str) -> dict[str, Any]:
    """A placeholder for a reference to the component ``name`` (see :func:`link`)."""
    return {PLACEHOLDER: name}


def link(node: Any) -> Any:
    """Replace every :func:`ref` placeholder in the schema document ``node`` by its ``$ref`` (in place)."""
    if isinstance(node, dict):
        if PLACEHOLDER in node:
            name = node.pop(PLACEHOLDER)
            node["allOf"] = [{"$ref": REF.format(model=name)}]
        for value in node.values():
            link(value)
    elif isinstance(node, list):
        for value in node:
            link(value)
    return node


def absent(**field: Any) -> Any:
    """``Field(None, **field)``: a key the engine leaves out where it does not apply.

    Its schema keeps the key's type (not "or null": the key is absent, never null). Typed ``Any`` so
    that ``limit: int = absent(...)`` type-checks: mypy would read ``Field(None)`` as None given to an int.
    """
    return Field(None, **field)


class Shape(BaseModel):
    """A shape of the games' data: unknown keys are an error (the tests find an engine that adds one)."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class Move(Shape):
    """A move: checked strictly (``"1"`` is no number, ``1`` no ``true``)."""

    model_config = ConfigDict(extra="forbid", strict=True, populate_by_name=True)
