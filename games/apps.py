"""App configuration for games."""

from __future__ import annotations

from django.apps import AppConfig


class GamesConfig(AppConfig):
    """Games, their move logs, the lobby and the game pages."""

    name = "games"
    verbose_name = "Games"
