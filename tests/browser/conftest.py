"""Playwright with Debian's Chromium against pytest-django's live server."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator

import pytest

from tests.conftest import skip_missing_service


@pytest.fixture(autouse=True)
def _site_test(site_test: None) -> None:
    """The fake engine and a clean cache for every test here."""


# Playwright's sync API runs an event loop in this thread; the test's own ORM
# calls are still synchronous and safe.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def _chromium() -> str | None:
    return os.environ.get("HERALD_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """A headless Chromium (the system's, since Playwright cannot download its own here).

    One per module, not per session: while Playwright's sync API is open, its event loop counts as
    running in this thread, and a test outside this folder that drives ASGI code with
    ``async_to_sync`` would be refused ("You cannot use AsyncToSync in the same thread as an async
    event loop") whenever pytest-randomly ran a browser module before it.
    """
    path = _chromium()
    if path is None:
        skip_missing_service("Chromium (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=path, args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
        )
        yield browser
        browser.close()
