"""App configuration for the public JSON API."""

from __future__ import annotations

from django.apps import AppConfig

from games import events


class ApiConfig(AppConfig):
    """The public API under ``/api/v1/``: personal access tokens, bot accounts, the event stream."""

    name = "api"
    verbose_name = "API"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Feed the event stream from the games' events (``api.stream``), in their transactions.

        And revoke an account's tokens when it is deactivated or deleted (``api.tokens.on_user_saved``).
        """
        from django.conf import settings
        from django.db.models.signals import post_save

        from api import stream, tokens  # they import models, which load only after every app config

        post_save.connect(tokens.on_user_saved, sender=settings.AUTH_USER_MODEL, dispatch_uid="api-tokens-revoke")

        events.subscribe(events.GameStarted, stream.on_game_started)
        events.subscribe(events.MovesApplied, stream.on_moves_applied)
        events.subscribe(events.DecisionsOwed, stream.on_decisions_owed)
        events.subscribe(events.SeatForfeited, stream.on_seat_forfeited)
        events.subscribe(events.GameFinished, stream.on_game_finished)
        events.subscribe(events.GameCancelled, stream.on_game_cancelled)
        events.subscribe(events.ChatPosted, stream.on_chat_posted)
        events.subscribe(events.UndoAsked, stream.on_undo_asked)
        events.subscribe(events.ChangesCommitted, stream.forget_readers)
