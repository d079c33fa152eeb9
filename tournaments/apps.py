"""Tournaments: round robin, Swiss and multi-table rounds, played as ordinary games."""

from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    """The app that pairs players into rounds of games and keeps the standings."""

    name = "tournaments"
    verbose_name = _("Tournaments")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Listen to the games' events (``tournaments.listeners``)."""
        from tournaments import listeners  # it imports models, which load only after every app config

        listeners.connect()
