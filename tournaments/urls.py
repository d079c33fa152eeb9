"""Tournament URLs (namespace ``tournaments``)."""

from __future__ import annotations

from django.urls import path

from tournaments import views

app_name = "tournaments"
urlpatterns = [
    path("tournaments/", views.tournament_list, name="list"),
    path("tournaments/new/", views.tournament_new, name="new"),
    path("tournaments/<int:tournament_id>/", views.tournament_detail, name="detail"),
    path("tournaments/<int:tournament_id>/standings", views.tournament_standings, name="standings"),
    path("tournaments/<int:tournament_id>/live", views.tournament_live, name="live"),
    path("tournaments/<int:tournament_id>/signup", views.tournament_signup, name="signup"),
    path("tournaments/<int:tournament_id>/withdraw", views.tournament_withdraw, name="withdraw"),
    path("tournaments/<int:tournament_id>/cancel", views.tournament_cancel, name="cancel"),
    path("tournaments/<int:tournament_id>/remove", views.tournament_remove, name="remove"),
    path("tournaments/<int:tournament_id>/adjust", views.tournament_adjust, name="adjust"),
]
