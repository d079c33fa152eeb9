"""The counter game's Django app (its templates and template tags live in this folder)."""

from __future__ import annotations

from django.apps import AppConfig


class CounterConfig(AppConfig):
    """Counter, installed by ``tests/settings.py`` (``HERALD_GAMES``)."""

    name = "tests.counter"
    label = "counter"
    verbose_name = "Counter"
