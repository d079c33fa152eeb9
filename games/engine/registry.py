"""Map a game kind ("dominion", "domaine") and a rules version to its engine.

The site, the clocks, the bots and the notifier look an engine up here and
never branch on the game. Engines are imported lazily so that one broken or
missing engine cannot stop the others from loading.

A stored game is replayed and played on with the engine of its own
``engine_version`` (``get_engine(game.kind, game.engine_version)``); see
"Versions" in ``games.engine.core``.
"""

from __future__ import annotations

import importlib
from typing import Any

from games.engine.core import Engine, UnsupportedVersion

#: kind -> module that defines a module-level ``ENGINE`` object.
ENGINE_MODULES: dict[str, str] = {
    "dominion": "games.engine.dominion.engine",
    "domaine": "games.engine.domaine.engine",
}


#: kind -> module that defines a module-level ``BOTS`` (name -> ``(view, rng) -> move``).
#: Looked up by name, like the engines: a game's bots use its engine, never the reverse.
BOT_MODULES: dict[str, str] = {
    "dominion": "games.engine.dominion.bots",
    "domaine": "games.engine.domaine.bots",
}


def bots_of(kind: str) -> dict[str, Any]:
    """Return the bots of game ``kind`` (name -> function ``(view, rng) -> move``); ``{}`` if it has none.

    Raises:
        ImportError: the bots' module is missing or broken.
    """
    module = BOT_MODULES.get(kind)
    if module is None:
        return {}
    bots: dict[str, Any] = importlib.import_module(module).BOTS
    return bots


def get_engine(kind: str, version: int | None = None) -> Engine:
    """Return the engine for ``kind`` at rules ``version`` (``None``: the current one).

    Args:
        kind: a registered game kind.
        version: a version from the engine's ``versions``; ``None`` gives
            the current engine (what new games are made with).

    Raises:
        KeyError: no engine is registered under that name.
        UnsupportedVersion: the engine has no such version (also a
            ``LookupError``); its message names the versions it has.
    """
    try:
        module = ENGINE_MODULES[kind]
    except KeyError:
        raise KeyError(f"unknown game kind {kind!r}") from None
    engine: Engine = importlib.import_module(module).ENGINE
    if version is None or (version == engine.version and not isinstance(version, bool)):
        return engine
    # An engine without ``versions`` (a test double) has only its current version.
    supported = tuple(getattr(engine, "versions", (engine.version,)))
    if isinstance(version, bool) or not isinstance(version, int) or version not in supported:
        raise UnsupportedVersion(kind, version, supported)
    return engine.at_version(version)


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
