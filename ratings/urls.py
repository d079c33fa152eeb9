"""Ladder URLs (namespace ``ratings``)."""

from __future__ import annotations

from django.urls import path

from ratings import views

app_name = "ratings"
urlpatterns = [
    path("ladder/", views.ladder_index, name="index"),
    path("ladder/<str:kind>/", views.ladder, name="ladder"),
    path("bots/", views.bots, name="bots"),
]
