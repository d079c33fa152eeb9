"""Moderation URLs for users (namespace ``moderation``); the moderators' tools are in the admin."""

from __future__ import annotations

from django.urls import path

from moderation import views

app_name = "moderation"
urlpatterns = [
    path("report/", views.report_new, name="report"),
    path("reports/", views.report_list, name="reports"),
    path("suspended/", views.banned, name="banned"),
]
