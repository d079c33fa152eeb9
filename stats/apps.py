"""App configuration for statistics."""

from __future__ import annotations

from django.apps import AppConfig


class StatsConfig(AppConfig):
    """Game statistics: per-game charts, each game's site-wide page (its ``stats`` part), player statistics."""

    name = "stats"
    verbose_name = "Statistics"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Measure every game that finishes (``stats.listeners``)."""
        from stats import listeners  # it imports models, which load only after every app config

        listeners.connect()
