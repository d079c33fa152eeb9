"""Ops URLs (namespace ``ops``): ``/health/`` and the staff page ``/ops/stats/``."""

from __future__ import annotations

from django.urls import path

from ops import views

app_name = "ops"
urlpatterns = [
    path("health/", views.health_view, name="health"),
    path("ops/stats/", views.stats, name="stats"),
]
