"""Moderation: reports, the audit trail and the moderators' tools."""

from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

from games import policy


class ModerationConfig(AppConfig):
    """The moderation app."""

    name = "moderation"
    verbose_name = _("Moderation")

    def ready(self) -> None:
        """Tell ``games`` whom a ban or a mute stops (``games.policy``)."""
        from moderation.selectors import restricts  # it imports models, which load after every app config

        policy.register_restriction(restricts)
