"""Matchmaking: seeks and automatic pairing, rematches, following and kingdom bans."""

from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

from games import policy


class MatchmakingConfig(AppConfig):
    """The app that finds players a game: seeks, the matcher, rematch offers, follows."""

    name = "matchmaking"
    verbose_name = _("Finding a game")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Word the seek-expired and rematch notices for correspondence's outbox (``matchmaking.notify``), and
        run the matchmaking tick from the lobby's requests when no beat runs (``games.policy``)."""
        from matchmaking import notify, periodic  # they import models, which load only after every app config

        notify.connect()
        policy.register_request_work(periodic.tick_on_request, pages=["lobby"])
