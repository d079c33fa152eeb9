"""Statistics URLs (namespace ``stats``)."""

from __future__ import annotations

from django.urls import path
from django.views.generic import RedirectView

from stats import views

app_name = "stats"
urlpatterns = [
    # The README and links in the wild point at /stats/: send them to the first statistics page.
    path("stats/", RedirectView.as_view(pattern_name="stats:dominion", query_string=True), name="index"),
    path("stats/dominion/", views.dominion_cards, name="dominion"),
    path("stats/dominion/<str:card>/", views.dominion_card, name="card"),
    path("stats/domaine/", views.domaine, name="domaine"),
]
