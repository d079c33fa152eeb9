"""Correspondence: the notification outbox, emails, vacations and the sweeps."""

from __future__ import annotations

from django.apps import AppConfig


class CorrespondenceConfig(AppConfig):
    """The app that tells players when it is their move and keeps games moving."""

    name = "correspondence"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Listen to the games' events (``correspondence.listeners``), and to signing out (``push.on_signed_out``)."""
        from django.contrib.auth.signals import user_logged_out

        from correspondence import listeners, push  # they import models, which load only after every app config

        listeners.connect()
        user_logged_out.connect(push.on_signed_out, dispatch_uid="correspondence-push-signed-out")
