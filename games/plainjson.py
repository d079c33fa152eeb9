"""JSON a client sent, refused when PostgreSQL's jsonb or UTF-8 cannot hold it: for the pages and the API alike."""

from __future__ import annotations

import json
import math
from typing import Any

#: How deep a value may nest: no move of either game nests more than two levels.
MAX_DEPTH = 8


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def loads_plain_json(raw: str) -> Any:
    """Parse JSON a client sent, refusing what PostgreSQL's jsonb or UTF-8 cannot hold.

    Refused (``ValueError``): invalid JSON, NaN and Infinity, nesting deep
    enough to exhaust the parser, and strings with NUL or lone surrogates.
    """
    try:
        value = json.loads(raw, parse_constant=_refuse_constant)
    except RecursionError:
        raise ValueError("nested too deeply") from None
    check_plain(value)
    return value


def check_plain(value: Any, depth: int = 0) -> None:
    """Raise ``ValueError`` unless ``value`` (already parsed) is plain JSON the database can store.

    Refused: nesting deeper than ``MAX_DEPTH``, strings with NUL or lone
    surrogates, NaN and infinite floats.
    """
    if depth > MAX_DEPTH:
        raise ValueError("nested too deeply")
    if isinstance(value, str):
        if "\x00" in value:
            raise ValueError("NUL in a string")
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise ValueError("not UTF-8 text") from None
    elif isinstance(value, float) and not math.isfinite(value):
        raise ValueError("not a finite number")
    elif isinstance(value, dict):
        for k, v in value.items():
            check_plain(k, depth + 1)
            check_plain(v, depth + 1)
    elif isinstance(value, list):
        for v in value:
            check_plain(v, depth + 1)
