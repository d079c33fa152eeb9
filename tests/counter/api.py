"""The counter game's part of the API (``api.gameshapes``): only its move's shape.

It gives no state shape, so the API describes its state by the generic one
(``api.gameshapes.UntypedGameState``): a game needs no API part to be played
through the API, and may type as much of it as it likes.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from api.gameshapes_base import Move


class CounterAdd(Move):
    """Add 1, 2 or 3 to the running total (never past the target)."""

    act: Literal["add"]
    n: int = Field(ge=1, le=3)


#: The names ``api.gameshapes`` reads (docs/games.md, "The API's part").
MOVE = CounterAdd
