"""Admin pages for the outbox, notification settings and vacations (read mostly)."""

from __future__ import annotations

from django.contrib import admin

from correspondence.models import Notification, NotificationSettings, PushSubscription, Vacation


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    """The outbox: what was owed, to whom, and whether it went out."""

    list_display = ["pk", "kind", "channel", "user", "game", "seq", "status", "created", "sent_at", "attempts"]
    list_filter = ["status", "kind", "channel"]
    raw_id_fields = ["user", "game"]


@admin.register(NotificationSettings)
class NotificationSettingsAdmin(admin.ModelAdmin):
    """Per-user email choices."""

    list_display = [
        "user",
        "your_move",
        "game_started",
        "invited",
        "game_over",
        "time_low",
        "timed_out",
        "chat",
        "push",
    ]
    raw_id_fields = ["user"]


@admin.register(Vacation)
class VacationAdmin(admin.ModelAdmin):
    """Vacations taken."""

    list_display = ["user", "start", "end"]
    raw_id_fields = ["user"]


@admin.register(PushSubscription)
class PushSubscriptionAdmin(admin.ModelAdmin):
    """The browsers each user turned notifications on in (deleting one stops pushes to that browser)."""

    list_display = ["pk", "user", "created", "last_sent"]
    raw_id_fields = ["user"]
    readonly_fields = ["endpoint", "p256dh", "auth", "created", "last_sent"]
