"""Tournament tests: the fake engine and a clean cache, and a moderator."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import Group, Permission
from django.utils import timezone

from accounts.models import User
from tests.factories import UserFactory
from tournaments import moderators
from tournaments.models import Tournament


@pytest.fixture(autouse=True)
def _site_test(site_test: None) -> None:
    """The fake engine and a clean cache for every test here."""


@pytest.fixture
def moderator(db: None) -> User:
    """A staff member of the Moderators group."""
    user = UserFactory.create(username="mod", is_staff=True)
    # get_or_create: transactional tests flush the rows the migration made.
    group, _new = Group.objects.get_or_create(name="Moderators")
    group.permissions.add(Permission.objects.get(codename="moderate_games", content_type__app_label="moderation"))
    user.groups.add(group)
    return User.objects.get(pk=user.pk)


def make_tournament(moderator: User, **kw: Any) -> Tournament:
    """A tournament through the moderators' service, starting in an hour unless told otherwise."""
    now = timezone.now()
    args: dict[str, Any] = {
        "name": "Spring Cup",
        "kind": "counter",
        "options": {"target": 10},
        "system": Tournament.System.SWISS,
        "signup_closes": now + timedelta(hours=1),
        "starts": now + timedelta(hours=1),
        "rounds": 3,
        "time_per_move": timedelta(days=1),
        "rated": False,
        "verified_only": False,
    }
    args.update(kw)
    return moderators.tournament_create(moderator=moderator, **args)


def later() -> object:
    """A moment after every test tournament's start (UTC)."""
    return timezone.now() + timedelta(hours=2)
