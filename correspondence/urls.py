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
    path("settings/push/subscribe", views.push_subscribe, name="push_subscribe"),
    path("settings/push/unsubscribe", views.push_unsubscribe, name="push_unsubscribe"),
    path("settings/push/check", views.push_check, name="push_check"),
    path("push-sw.js", views.service_worker, name="service_worker"),
]
