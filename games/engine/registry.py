"""Map a game kind ("dominion", "domaine") to its engine.

The site, the clocks, the bots and the notifier look an engine up here and
never branch on the game. Engines are imported lazily so that one broken or
missing engine cannot stop the others from loading.
"""

from __future__ import annotations

import importlib

from games.engine.core import Engine

#: kind -> module that defines a module-level ``ENGINE`` object.
ENGINE_MODULES: dict[str, str] = {
    "dominion": "games.engine.dominion.engine",
    "domaine": "games.engine.domaine.engine",
}


def get_engine(kind: str) -> Engine:
    """Return the engine for ``kind``.

    Raises:
        KeyError: no engine is registered under that name.
    """
    try:
        module = ENGINE_MODULES[kind]
    except KeyError:
        raise KeyError(f"unknown game kind {kind!r}") from None
    return importlib.import_module(module).ENGINE


def kinds() -> list[str]:
    """Return the registered game kinds whose engine can be imported."""
    out = []
    for kind in ENGINE_MODULES:
        try:
            get_engine(kind)
        except ImportError:
            continue
        out.append(kind)
    return out
