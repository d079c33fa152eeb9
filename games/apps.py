"""App configuration for games."""

from __future__ import annotations

from django.apps import AppConfig

from games import kinds, presentation


class GamesConfig(AppConfig):
    """Games, their move logs, the lobby and the game pages."""

    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        """Load the installed games and connect the games app's listeners (``games.wiring``)."""
        from games import wiring  # it imports models, which load only after every app config

        wiring.connect()

    def warm_up(self) -> list[str]:
        """Import every installed game's engine in this process and return its board's templates to compile.

        Called by ``website.warmup.warm_process`` (gunicorn's master, before it forks the workers).
        """
        templates = []
        for kind in kinds.all_kinds():
            kind.engine()
            # The board the page draws first for the game (its page part's, games.presentation), if it has one.
            if kind.part("page") is not None:
                templates.append(presentation.board_templates(kind.name)[0])
        return templates
