"""Fixtures shared by the site's tests: the fake engine, personas, games.

Set ``HERALD_REQUIRE_SERVICES=1`` (CI does) to turn every skip caused by a
missing service (PostgreSQL, Redis, a browser) into a failure, so a CI
machine without them cannot pass by skipping.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Generator, Iterator
from datetime import timedelta
from typing import NoReturn

import pytest
from django.apps import AppConfig, apps
from django.core.cache import cache
from django.db.models.signals import post_migrate
from pytest_django import Settings

from accounts.models import User
from games import services
from games.bots import bot_move, timeout_bot
from games.engine import registry
from games.leaving import at_move_0
from games.models import Game, Seat
from games.replay import engine_for, state_at
from tests.factories import UserFactory

SERVICE_MISSING = "[service missing]"


def skip_missing_service(what: str) -> NoReturn:
    """Skip the test because ``what`` is not available (a failure under CI)."""
    pytest.skip(f"{SERVICE_MISSING} {what}")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """Fail, rather than skip, a test whose service is missing when CI requires services."""
    report = yield
    if report.skipped and os.environ.get("HERALD_REQUIRE_SERVICES") and SERVICE_MISSING in str(report.longrepr):
        report.outcome = "failed"
    return report


def dominion_available() -> bool:
    """True once the Dominion engine can be imported."""
    try:
        registry.get_engine("dominion")
    except ImportError:
        return False
    return True


@pytest.fixture
def fast_and_clean(settings: Settings) -> Iterator[None]:
    """Hash passwords cheaply and start every test with an empty cache."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def player(db: None) -> User:
    """The persona who created the game and plays in it."""
    return UserFactory.create(username="player")


@pytest.fixture
def opponent(db: None) -> User:
    """The persona who plays against ``player``."""
    return UserFactory.create(username="opponent")


@pytest.fixture
def outsider(db: None) -> User:
    """A signed-in user with no seat: a spectator at most."""
    return UserFactory.create(username="outsider")


def make_game(
    creator: User, *others: User, kind: str = "counter", private: bool = False, options: dict | None = None
) -> Game:
    """Create a game through the services and fill it with ``others``; return it fresh."""
    game = services.game_create(
        creator=creator,
        kind=kind,
        options=options if options is not None else ({"target": 10} if kind == "counter" else {}),
        players=1 + len(others),
        rated=False,
        private=private,
        invited=others if private else (),
        time_per_move=timedelta(days=1),
    )
    for user in others:
        services.game_join(game_id=game.pk, user=user)
    return Game.objects.get(pk=game.pk)


@pytest.fixture
def game(player: User, opponent: User) -> Game:
    """A running counter game between ``player`` and ``opponent``."""
    return make_game(player, opponent)


def past_move_0(game: Game) -> Game:
    """Make moves (each chosen by the game's timeout bot) until every person seated has made one; return it fresh.

    A player who resigns or times out before their first move aborts the
    game (``games.leaving.at_move_0``): tests of the forfeit rule start here.
    """
    for _ in range(200):
        if not game.is_active or not any(at_move_0(game, s) for s in game.seats.all()):
            break
        position = game.to_act[0]
        seat = game.seats.select_related("user").get(position=position)
        assert seat.user is not None, "a bot's turn: its task plays it"
        engine = engine_for(game)
        move = bot_move(game, engine, state_at(game), position, timeout_bot(engine))
        services.game_submit_move(game_id=game.pk, user=seat.user, move=move, expected_seq=game.last_seq)
        game = Game.objects.get(pk=game.pk)
    return game


def seated(seat: Seat) -> User:
    """Return the person in ``seat``; a seat nobody took (a bot's) fails the test."""
    assert seat.user is not None, f"seat {seat.position} has no user"
    return seat.user


def user_to_move(game: Game) -> User:
    """Return the user whose decision is open (the game's first ``to_act``)."""
    return seated(game.seats.get(position=game.to_act[0]))


def user_waiting(game: Game) -> User:
    """Return a seated user who does not owe a decision."""
    seat = game.seats.exclude(position__in=game.to_act).exclude(user=None).first()
    assert seat is not None, "every seated user owes a decision"
    return seated(seat)


@pytest.fixture
def site_test(fast_and_clean: None) -> None:
    """The set-up every site test gets (autouse in tests/web and tests/browser only,
    so the pure engine tests under hypothesis are left alone)."""


@pytest.fixture(autouse=True)
def _english_by_default() -> Iterator[None]:
    """Start every test in English: a test (or a request handled in this thread)
    that activates another language must not change what later tests read."""
    from django.utils import translation

    translation.activate("en")
    yield
    translation.activate("en")


def _moderators_again(sender: AppConfig, using: str = "default", **kwargs: object) -> None:
    """Make the Moderators group again after a transactional test flushed the database.

    A data migration makes it (``moderation/migrations/0002``), and a flush empties every table;
    Django's own rows (content types, permissions) come back by ``post_migrate``, which the flush
    sends, but a migration's rows do not. A test run in one process runs the transactional tests
    last, so nothing after them needed the group; with the suite split over processes (xdist) a
    test that expects the group may run on a worker after a flush.
    """
    last = [config for config in apps.get_app_configs() if config.models_module is not None][-1]
    if sender is not last:  # every app's permissions exist only once the last app's signal is sent
        return
    from django.contrib.auth.models import Group, Permission

    if Group.objects.using(using).filter(name="Moderators").exists():
        return
    migration = importlib.import_module("moderation.migrations.0002_moderators_group")
    group = Group.objects.using(using).create(name="Moderators")
    for label, codenames in migration.PERMISSIONS.items():
        group.permissions.add(
            *Permission.objects.using(using).filter(content_type__app_label=label, codename__in=codenames)
        )


post_migrate.connect(_moderators_again, dispatch_uid="tests-moderators-again")
