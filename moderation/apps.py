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
        """Tell ``games`` whom a ban or a mute stops, and who reads hidden chat lines (``games.policy``)."""
        from moderation import selectors  # it imports models (loaded after every config)

        policy.register_restriction(selectors.restricts)
        policy.register_hidden_chat_reader(selectors.is_moderator)
