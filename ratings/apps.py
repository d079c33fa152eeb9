"""App configuration for ratings."""

from __future__ import annotations

from django.apps import AppConfig

from games import events


class RatingsConfig(AppConfig):
    """Ratings and ladders: one openskill Plackett-Luce ladder per game kind."""

    name = "ratings"
    verbose_name = "Ratings"

    def ready(self) -> None:
        """Rate every game that finishes, in the transaction that finishes it (``games.events.GameFinished``)."""
        from ratings.services import rating_on_finish  # it imports models, which load after every app config

        events.subscribe(events.GameFinished, rating_on_finish)
