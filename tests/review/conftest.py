"""Cross-feature review tests get the site's test set-up (the fake engine registered, a clean cache)."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _site_test(site_test: None) -> None:
    """The fake engine and a clean cache for every test here."""
