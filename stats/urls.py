"""Statistics URLs (namespace ``stats``)."""

from __future__ import annotations

from django.urls import path

from stats import views

app_name = "stats"
urlpatterns = [
    path("stats/dominion/", views.dominion_cards, name="dominion"),
    path("stats/dominion/<str:card>/", views.dominion_card, name="card"),
    path("stats/domaine/", views.domaine, name="domaine"),
]
