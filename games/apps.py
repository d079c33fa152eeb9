"""App configuration for games."""

from __future__ import annotations

from django.apps import AppConfig

from games import events


class GamesConfig(AppConfig):
    """Games, their move logs, the lobby and the game pages."""

    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        """After every committed change: push it to the open pages (``games.live``), queue the bots' turn
        and a waiting forced move (``games.tasks``)."""
        from games import kinds, live, tasks  # they import models, which load only after every app config

        # First: every other app's ready may ask for the installed games.
        kinds.load()

        # First: the open pages hear of a change before the bots' and emails' queueing (games.live).
        live.subscribe()
        events.subscribe(events.ChangesCommitted, tasks.bots_on_commit)
        events.subscribe(events.ChangesCommitted, tasks.grace_on_commit)
