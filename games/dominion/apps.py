"""Dominion's Django app: its templates, template tags, static files and translations live in this folder."""

from __future__ import annotations

from django.apps import AppConfig


class DominionConfig(AppConfig):
    """Dominion, installed by ``settings.HERALD_GAMES`` (``games.kinds``)."""

    name = "games.dominion"
    label = "dominion"
    verbose_name = "Dominion"
