"""Seeks, rematch offers and follows in the admin: read-only, for moderators looking into a complaint."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from matchmaking.models import Follow, KingdomBans, RematchOffer, Seek


class ReadOnly(admin.ModelAdmin):
    """Shown, never changed here: only ``matchmaking``'s services write these rows."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        """Nobody adds rows by hand."""
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        """Nobody edits rows by hand."""
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        """Nobody deletes rows by hand."""
        return False


@admin.register(Seek)
class SeekAdmin(ReadOnly):
    """Seeks: who wanted what, and how it ended."""

    list_display = ("pk", "user", "kind", "players_min", "players_max", "rated", "status", "created", "game")
    list_filter = ("status", "kind", "rated")
    search_fields = ("user__username",)
    raw_id_fields = ("user", "game")


@admin.register(RematchOffer)
class RematchOfferAdmin(ReadOnly):
    """Rematch offers of finished games."""

    list_display = ("game", "status", "created", "expires", "new_game")
    list_filter = ("status",)
    raw_id_fields = ("game", "new_game", "declined_by")


@admin.register(Follow)
class FollowAdmin(ReadOnly):
    """Who follows whom (private to the follower on the site)."""

    list_display = ("follower", "followed", "created")
    search_fields = ("follower__username", "followed__username")
    raw_id_fields = ("follower", "followed")


@admin.register(KingdomBans)
class KingdomBansAdmin(ReadOnly):
    """Players' kingdom bans."""

    list_display = ("user", "cards")
    raw_id_fields = ("user",)
