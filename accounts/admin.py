"""Admin for users."""

from __future__ import annotations

from typing import ClassVar

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin

from accounts.models import Block, User


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    """The stock user admin plus Herald's profile fields."""

    fieldsets = (
        *(BaseUserAdmin.fieldsets or ()),
        ("Herald", {"fields": ("display_name", "language", "time_zone", "deleted")}),
    )
    readonly_fields: ClassVar[tuple[str, ...]] = ("deleted",)
    list_display = ("username", "email", "display_name", "is_staff", "date_joined", "deleted")


@admin.register(Block)
class BlockAdmin(admin.ModelAdmin):
    """Blocks, for moderators looking into a complaint (players never see others' blocks)."""

    list_display = ("blocker", "blocked", "created")
    raw_id_fields = ("blocker", "blocked")
    search_fields = ("blocker__username", "blocked__username")
