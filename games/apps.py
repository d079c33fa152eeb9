"""App configuration for games."""

from __future__ import annotations

from django.apps import AppConfig

from games import events


class GamesConfig(AppConfig):
    """Games, their move logs, the lobby and the game pages."""

    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        """Queue the bots' turn after every committed change (``games.tasks.bots_on_commit``)."""
        from games import tasks  # it imports models, which load only after every app config

        events.subscribe(events.ChangesCommitted, tasks.bots_on_commit)
