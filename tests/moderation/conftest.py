"""Personas and helpers for the moderation tests: a moderator, a staff member who is not one."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group
from django.test import Client

from accounts.models import User
from tests.factories import UserFactory


@pytest.fixture(autouse=True)
def _site_test(site_test: None) -> None:
    """The fake engine and a clean cache for every test here."""


@pytest.fixture
def moderator(db: None) -> User:
    """Staff in the Moderators group (made by the data migration), not a superuser."""
    user = UserFactory.create(username="mod", is_staff=True)
    user.groups.add(Group.objects.get(name="Moderators"))
    return User.objects.get(pk=user.pk)  # fresh: no cached permissions


@pytest.fixture
def staff(db: None) -> User:
    """Staff outside the Moderators group."""
    return UserFactory.create(username="staffer", is_staff=True)


@pytest.fixture
def mod_client(moderator: User) -> Client:
    """A test client of its own (beside ``client``) signed in as the moderator."""
    mod = Client()
    mod.force_login(moderator)
    return mod
