"""Correspondence URLs (namespace ``correspondence``)."""

from __future__ import annotations

from django.urls import path

from correspondence import views

app_name = "correspondence"
urlpatterns = [
    path("settings/email/", views.notification_settings, name="settings"),
    path("settings/vacation/start", views.vacation_start, name="vacation_start"),
    path("settings/vacation/end", views.vacation_end, name="vacation_end"),
    path("unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
]
