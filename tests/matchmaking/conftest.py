"""Set-up for the matchmaking tests: the site's usual fixtures, English, an empty cache, mail in memory."""

from __future__ import annotations

import pytest
from pytest_django import Settings

from accounts.models import User
from games import services
from games.models import Game
from tests.conftest import make_game, past_move_0
from tests.factories import UserFactory


@pytest.fixture(autouse=True)
def _site(site_test: None, settings: Settings) -> None:
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"


@pytest.fixture
def alice(db: None) -> User:
    return UserFactory.create(username="alice")


@pytest.fixture
def bob(db: None) -> User:
    return UserFactory.create(username="bob")


def finished_game(*users: User, kind: str = "counter", rated: bool = False) -> Game:
    """A finished game between ``users`` (the last one resigns a two-player game, after everyone moved)."""
    game = past_move_0(make_game(users[0], *users[1:], kind=kind))
    services.game_resign(game_id=game.pk, user=users[-1])
    game.refresh_from_db()
    assert game.is_finished
    return game
