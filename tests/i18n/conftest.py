"""The i18n tests render real pages: the fake engine, a clean cache, locmem mail."""

from __future__ import annotations

import pytest
from django.core import mail
from pytest_django import Settings


@pytest.fixture(autouse=True)
def _site(site_test: None, settings: Settings) -> None:
    """Fake engines, a clean cache and a locmem mailbox for every test here."""
    settings.SITE_URL = "https://herald.example"
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    mail.outbox.clear()
