"""Admin for users."""

from __future__ import annotations

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin

from accounts.models import User


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    """The stock user admin plus Herald's profile fields."""

    fieldsets = (*BaseUserAdmin.fieldsets, ("Herald", {"fields": ("display_name", "language", "time_zone")}))
    list_display = ("username", "email", "display_name", "is_staff", "date_joined")
