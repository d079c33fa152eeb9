"""Ops tests get the site's set-up (fake engine, clean cache) and a staff persona."""

from __future__ import annotations

import pytest
from pytest_django import Settings

from accounts.models import User
from tests.factories import UserFactory


@pytest.fixture(autouse=True)
def _site_test(site_test: None) -> None:
    """The fake engine and a clean cache for every test here."""


@pytest.fixture
def staff(db: None) -> User:
    """An operator: staff, not superuser."""
    return UserFactory.create(username="operator", is_staff=True)


@pytest.fixture
def workers(settings: Settings) -> None:
    """Run as production does: tasks go to a broker, so the broker and the heartbeat are checked."""
    settings.CELERY_TASK_ALWAYS_EAGER = False
