"""Tournaments in the admin, read-only: moderators act on the tournament's own page, where every action is audited."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from tournaments.models import Entry, Tournament


class EntryInline(admin.TabularInline):
    """The players, as they stand."""

    model = Entry
    extra = 0
    fields = ("user", "number", "rating", "joined", "withdrawn", "removed")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        """Entries come from sign-ups only."""
        return False


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    """Find a tournament; its page (``View on site``) has the moderators' actions."""

    list_display = ["name", "kind", "system", "status", "current_round", "rounds", "starts"]
    list_filter = ["status", "system", "kind"]
    search_fields = ["name"]
    inlines = [EntryInline]

    def has_add_permission(self, request: HttpRequest) -> bool:
        """Created on the site's own form, so the creation is audited."""
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        """Read-only: every change goes through ``tournaments.moderators``."""
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        """Never deleted: games and the audit trail point at it."""
        return False
