"""Admin for ratings: read-only, since only ratings.services may write them."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from ratings.models import Rating, RatingChange


class ReadOnlyAdmin(admin.ModelAdmin):
    """Browse, never edit: a hand edit would break the recompute's exact match."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        """Nobody adds rows by hand."""
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        """Nobody edits rows by hand."""
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        """Nobody deletes rows by hand (``recompute_ratings --write`` rebuilds them)."""
        return False


@admin.register(Rating)
class RatingAdmin(ReadOnlyAdmin):
    """Ratings per player and game."""

    list_display = ("user", "kind", "mu", "sigma", "games", "last_played")
    list_filter = ("kind",)
    search_fields = ("user__username", "user__display_name")


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnlyAdmin):
    """What each rated game did to each player."""

    list_display = ("game", "user", "kind", "rank", "display_before", "display_after", "at")
    list_filter = ("kind",)
    search_fields = ("user__username",)
    raw_id_fields = ("game", "user")
