"""The tests' settings: the site's own, with the tests' "counter" game installed.

The counter game (``tests/counter``) is installed as any game is, by naming
its package in ``HERALD_GAMES`` (and so in ``INSTALLED_APPS``): one folder
and one line.
"""

from __future__ import annotations

from website.settings import *  # noqa: F403 - the site's settings, plus one game

HERALD_GAMES = [*HERALD_GAMES, "tests.counter"]  # noqa: F405
INSTALLED_APPS = [*INSTALLED_APPS, "tests.counter"]  # noqa: F405
