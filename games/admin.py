"""Read-mostly admin for games.

Game rows change only through ``games.services``; the admin shows them and
never offers to edit the move log.
"""

from __future__ import annotations

from typing import ClassVar

from django.contrib import admin
from django.http import HttpRequest

from games.models import Action, ChatMessage, Game, Invitation, Seat


class SeatInline(admin.TabularInline):
    """The seats of a game."""

    model = Seat
    extra = 0
    readonly_fields = ("position", "user", "bot", "joined", "owes_move", "rank", "score", "forfeited")
    can_delete = False


class ActionInline(admin.TabularInline):
    """The move log, read-only."""

    model = Action
    extra = 0
    readonly_fields = ("seq", "seat", "move", "created")
    can_delete = False

    def has_add_permission(self, request: object, obj: object = None) -> bool:
        """Refuse: moves are made through the game page."""
        return False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    """Games; the seed is deliberately absent."""

    list_display: tuple[str, ...] = ("id", "kind", "status", "creator", "rated", "private", "created", "last_seq")
    list_filter: ClassVar[tuple[str, ...]] = ("kind", "status", "rated", "private")
    readonly_fields: ClassVar[tuple[str, ...]] = (
        "kind",
        "options",
        "engine_version",
        "status",
        "created",
        "started",
        "finished",
        "creator",
        "last_seq",
        "to_act",
        "deadline",
    )
    exclude = ("seed",)
    inlines = [SeatInline, ActionInline]

    # Django 5.2 always passes ``request``; django-stubs still type the call without it (deprecated in 5.0).
    def lookup_allowed(self, lookup: str, value: str, request: HttpRequest) -> bool:  # type: ignore[override]
        """Refuse filtering by the seed: ``?seed__gte=`` would reveal it bit by bit.

        The seed plus the public log gives every deck order of a running game.
        """
        if lookup.split("__", 1)[0] == "seed":
            return False
        return super().lookup_allowed(lookup, value, request)


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    """Chat lines, for moderation."""

    list_display: tuple[str, ...] = ("game", "user", "text", "created")
    raw_id_fields = ("game", "user")


admin.site.register(Invitation)
