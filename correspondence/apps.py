"""Correspondence: the notification outbox, emails, vacations and the sweeps."""

from __future__ import annotations

from django.apps import AppConfig


class CorrespondenceConfig(AppConfig):
    """The app that tells players when it is their move and keeps games moving."""

    name = "correspondence"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Listen to the games' events and to signing out (``correspondence.listeners.connect``)."""
        from correspondence import listeners  # it imports models, which load only after every app config

        listeners.connect()
