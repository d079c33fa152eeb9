"""Guide tests get the site's test set-up (a clean cache, the fake engine registered)."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _site_test(site_test: None) -> None:
    """The fake engine and a clean cache for every test here."""
