"""Map a game kind (the name stored in ``Game.kind``) and a rules version to its engine.

The site, the clocks, the bots and the notifier look an engine up here and
never branch on the game. Engines are imported lazily so that one broken or
missing engine cannot stop the others from loading.

A stored game is replayed and played on with the engine of its own
``engine_version`` (``get_engine(game.kind, game.engine_version)``); see
"Versions" in ``games.engine.core``.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

from games.engine.core import Engine, UnsupportedVersion

#: kind -> module that defines a module-level ``ENGINE`` object. Filled by :func:`register`
#: (the site registers each installed game, ``games.kinds``); a kind not registered here is
#: looked for by convention at ``games.engine.<kind>.engine``, so the engines' own tools
#: (the rules-vector runner, ``games.engine.golden``, benchmarks) work without Django.
ENGINE_MODULES: dict[str, str] = {}


def register(kind: str, engine_module: str) -> None:
    """Install game ``kind``: its engine is the module-level ``ENGINE`` of ``engine_module``.

    Registering the same kind again with the same module does nothing.

    Raises:
        ValueError: ``kind`` is already registered to another module.
    """
    known = ENGINE_MODULES.get(kind)
    if known is not None and known != engine_module:
        raise ValueError(f"game kind {kind!r} is already registered to {known}")
    ENGINE_MODULES[kind] = engine_module


def _engine_module(kind: str) -> str:
    """Return the engine module of ``kind``: registered, else the conventional path."""
    known = ENGINE_MODULES.get(kind)
    if known is not None:
        return known
    if not kind.isidentifier():
        raise KeyError(f"unknown game kind {kind!r}")
    return f"games.engine.{kind}.engine"


def module_beside(kind: str, name: str) -> ModuleType | None:
    """Return the module ``name`` in the package of ``kind``'s engine module, or ``None`` if there is none.

    How the engines' tools find what a game keeps beside its engine (its ``bots``, its golden
    ``corpus``) without naming the game.

    Raises:
        KeyError: ``kind`` is not a valid game kind.
        ImportError: the module exists but is broken (a missing one is ``None``).
    """
    package = _engine_module(kind).rpartition(".")[0]
    try:
        return importlib.import_module(f"{package}.{name}")
    except ModuleNotFoundError as err:
        if err.name != f"{package}.{name}":
            raise
        return None


def bots_of(kind: str) -> dict[str, Any]:
    """Return the bots of game ``kind`` (name -> function ``(view, rng) -> move``); ``{}`` if it has none.

    The bots are the module-level ``BOTS`` of the ``bots`` module beside the engine's module
    (a game's bots use its engine, never the reverse, so they are looked up by name).

    Raises:
        ImportError: the bots' module is broken (a missing one means no bots).
    """
    module = module_beside(kind, "bots")
    if module is None:
        return {}
    bots: dict[str, Any] = module.BOTS
    return bots


def levels_of(kind: str) -> list[tuple[str, str, str]]:
    """Return the bot levels of game ``kind``, weakest first: ``(bot name, title, description)``.

    They are the ``LEVELS`` of the bots' module (beside the engine's module); ``[]`` for a game
    whose bots have no levels. Every level is also a key of :func:`bots_of`.

    Raises:
        ImportError: the bots' module is broken.
    """
    package = _engine_module(kind).rpartition(".")[0]
    try:
        module = importlib.import_module(f"{package}.bots")
    except ModuleNotFoundError as err:
        if err.name != f"{package}.bots":
            raise
        return []
    return [(str(name), str(title), str(about)) for name, title, about in getattr(module, "LEVELS", [])]


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
    module = _engine_module(kind)
    try:
        engine: Engine = importlib.import_module(module).ENGINE
    except ModuleNotFoundError as err:
        if kind not in ENGINE_MODULES and err.name is not None and module.startswith(err.name):
            raise KeyError(f"unknown game kind {kind!r}") from None
        raise
    if version is None or (version == engine.version and not isinstance(version, bool)):
        return engine
    # An engine without ``versions`` (a test double) has only its current version.
    supported = tuple(getattr(engine, "versions", (engine.version,)))
    if isinstance(version, bool) or not isinstance(version, int) or version not in supported:
        raise UnsupportedVersion(kind, version, supported)
    return engine.at_version(version)


def kinds() -> list[str]:
    """Return the registered game kinds (:func:`register`) whose engine can be imported."""
    out = []
    for kind in ENGINE_MODULES:
        try:
            get_engine(kind)
        except ImportError:
            continue
        out.append(kind)
    return out
