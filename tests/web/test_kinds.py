"""The registry of games refuses a game whose name the site could not store or link to."""

from __future__ import annotations

import sys
import types

import pytest
from django.core.exceptions import ImproperlyConfigured

from games import kinds
from games.engine import registry


@pytest.fixture
def extra_game(monkeypatch, settings):
    """Install a made-up package ``tests.made_up`` whose GAME is named as the test asks; reload after."""

    def install(name: str) -> None:
        module = types.ModuleType("tests.made_up.game")
        module.GAME = kinds.GameKind(  # type: ignore[attr-defined]
            name=name, label=name, package="tests.made_up", engine_module="tests.counter.engine"
        )
        monkeypatch.setitem(sys.modules, "tests.made_up", types.ModuleType("tests.made_up"))
        monkeypatch.setitem(sys.modules, "tests.made_up.game", module)
        settings.HERALD_GAMES = [*settings.HERALD_GAMES, "tests.made_up"]

    monkeypatch.setattr(registry, "ENGINE_MODULES", dict(registry.ENGINE_MODULES))
    yield install
    monkeypatch.undo()
    settings.HERALD_GAMES = [name for name in settings.HERALD_GAMES if name != "tests.made_up"]
    kinds.load()


@pytest.mark.parametrize("name", ["a_game_with_a_long_name", "Chess", "two words", "9men", ""])
def test_a_name_longer_than_the_kind_column_or_not_a_slug_is_refused_at_start_up(extra_game, name):
    extra_game(name)
    with pytest.raises(ImproperlyConfigured, match="lowercase letters"):
        kinds.load()


def test_a_name_of_twenty_lowercase_letters_digits_or_underscores_is_installed(extra_game):
    extra_game("a_twenty_char_game_2")
    kinds.load()
    assert "a_twenty_char_game_2" in kinds.names()
