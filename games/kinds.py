"""The installed games: the one way the platform reaches a game (docs/games.md).

Herald is a platform (accounts, the move path, clocks, emails, ratings,
tournaments, statistics, the guide, the API) and the games that run on it.
Each game is a package of its own (``games/<kind>``; the tests'
``tests/counter``), installed by naming it in the setting
``HERALD_GAMES``, the one place that lists the games; the platform never
imports a game package by name (an import contract says so) and never
branches on a game's name: it asks the game's :class:`GameKind`.

A game package holds, as Board Game Arena's folder per game does, a fixed
set of modules, each optional but ``game``:

==============  ==========================================================
``game``        ``GAME = GameKind(...)``: the name stored in ``Game.kind``,
                the name shown, where its engine is
``apps``        its Django ``AppConfig`` (templates, template tags, static
                files and translations are found in its folder)
other parts     one module per platform area that asks something of a game
                (the new-game form, the board, the log's texts, statistics,
                the guide, the API's schemas, demo data); each area documents
                what its part module must define, and reaches it with
                ``kind.part("<name>")``
==============  ==========================================================

The engine (pure Python, ``games.engine.core.Engine``) is named by module
path; the site's own games keep theirs under ``games/engine/<kind>`` because the
rules-vector runner and the engines' tools import them there without Django
(docs/games.md says why).
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterator
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.utils.functional import Promise
from django.utils.translation import gettext, gettext_lazy

from games.engine import registry
from games.engine.core import Engine


@dataclass(frozen=True)
class GameKind:
    """One installed game, as the platform sees it.

    Attributes:
        name: the kind stored in ``Game.kind`` and used in URLs and the API
            ("counter"); a Python identifier, never renamed once games are stored.
        label: the game's name as shown, marked for translation (``gettext_lazy``).
        package: the game package's dotted path ("tests.counter"), where
            :meth:`part` looks for its modules.
        engine_module: the module whose module-level ``ENGINE`` is the current
            engine (``games.engine.core.Engine``); older rules versions come from
            ``ENGINE.at_version`` (``games.engine.registry.get_engine``).
        timeout_bot: the bot that takes a timed-out seat's moves where a game's
            rules let a bot finish for a player (``None``: the first bot).
        order: where the game comes in lists (lower first), then by name.
    """

    name: str
    label: str | Promise
    package: str
    engine_module: str
    timeout_bot: str | None = None
    order: int = 100

    def engine(self, version: int | None = None) -> Engine:
        """Return the engine at rules ``version`` (``None``: the current one).

        Raises:
            UnsupportedVersion: the engine has no such version.
        """
        return registry.get_engine(self.name, version)

    @property
    def bots(self) -> dict[str, Any]:
        """Bot name -> function ``(view, rng) -> move``; ``{}`` for a game without bots."""
        return registry.bots_of(self.name)

    @property
    def bot_levels(self) -> list[str]:
        """The bots offered as levels, weakest first (``["level1", ..., "level5"]``); ``[]``: none."""
        return [name for name, _title, _about in registry.levels_of(self.name)]

    def part(self, name: str) -> ModuleType | None:
        """Return the game's module ``<package>.<name>``, or ``None`` if the game has none.

        Raises:
            ImportError: the module exists but fails to import (a broken part is loud).
        """
        module = f"{self.package}.{name}"
        try:
            return importlib.import_module(module)
        except ModuleNotFoundError as err:
            if err.name == module:
                return None
            raise

    def __str__(self) -> str:
        return str(self.label)


#: What each bot level is called on the site, whatever the game (its number is in the bot's name, "level3").
LEVEL_TITLES: dict[int, str | Promise] = {
    1: gettext_lazy("Beginner"),
    2: gettext_lazy("Casual"),
    3: gettext_lazy("Club player"),
    4: gettext_lazy("Strong"),
    5: gettext_lazy("Expert"),
}


def level_label(bot: str) -> str:
    """Return how the site names bot ``bot``: "Level 3 (Club player)" for a level, else the bot's own name."""
    number = bot.removeprefix("level")
    if bot.startswith("level") and number.isascii() and number.isdigit():
        title = LEVEL_TITLES.get(int(number))
        if title is not None:
            return gettext("Level %(number)s (%(title)s)") % {"number": number, "title": title}
        return gettext("Level %(number)s") % {"number": number}
    return bot


_KINDS: dict[str, GameKind] = {}

#: The longest game name: the ``kind`` columns (``Game.kind`` and the apps' rows naming a game) hold 20 characters.
NAME_MAX_LENGTH = 20
#: What a game's name may be: it is stored, and it is a path segment (``/stats/<kind>/``) and a Django app label.
NAME_PATTERN = re.compile(rf"[a-z][a-z0-9_]{{0,{NAME_MAX_LENGTH - 1}}}")


def load() -> None:
    """Import every package in ``settings.HERALD_GAMES`` and register its ``game.GAME``.

    Called from ``games.apps.GamesConfig.ready``; loading again reloads the list.

    Raises:
        ImproperlyConfigured: a package has no ``game`` module or ``GAME``, a name is not
            :data:`NAME_PATTERN` (at most :data:`NAME_MAX_LENGTH` characters), or two packages
            claim one name.
    """
    found: dict[str, GameKind] = {}
    for package in settings.HERALD_GAMES:
        try:
            kind = importlib.import_module(f"{package}.game").GAME
        except (ImportError, AttributeError) as err:
            raise ImproperlyConfigured(f"HERALD_GAMES: {package}.game must define GAME ({err})") from err
        if not isinstance(kind, GameKind):
            raise ImproperlyConfigured(f"HERALD_GAMES: {package}.game.GAME is not a games.kinds.GameKind")
        if not NAME_PATTERN.fullmatch(kind.name):
            raise ImproperlyConfigured(
                f"HERALD_GAMES: {package}'s name {kind.name!r} must be 1 to {NAME_MAX_LENGTH} lowercase letters, "
                "digits or underscores, starting with a letter (it is stored in Game.kind and used in URLs)"
            )
        if kind.name in found:
            raise ImproperlyConfigured(f"HERALD_GAMES: two games are called {kind.name!r}")
        found[kind.name] = kind
        registry.register(kind.name, kind.engine_module)
    _KINDS.clear()
    _KINDS.update(sorted(found.items(), key=lambda item: (item[1].order, item[0])))


def all_kinds() -> list[GameKind]:
    """Return the installed games, in the order they are listed to players."""
    return list(_KINDS.values())


def names() -> list[str]:
    """Return the installed games' names (``Game.kind`` values), in list order."""
    return list(_KINDS)


def get(name: str) -> GameKind:
    """Return the installed game called ``name``.

    Raises:
        KeyError: no installed game has that name.
    """
    try:
        return _KINDS[name]
    except KeyError:
        raise KeyError(f"unknown game kind {name!r}") from None


def find(name: str) -> GameKind | None:
    """Return the installed game called ``name``, or ``None``."""
    return _KINDS.get(name)


def choices() -> list[tuple[str, str]]:
    """Return ``(name, label)`` pairs of the installed games, for form fields and model choices."""
    return [(kind.name, str(kind.label)) for kind in _KINDS.values()]


def parts(name: str) -> Iterator[tuple[GameKind, ModuleType]]:
    """Yield ``(kind, module)`` for every installed game that has part module ``name``."""
    for kind in _KINDS.values():
        module = kind.part(name)
        if module is not None:
            yield kind, module
