"""Matchmaking URLs (namespace ``matchmaking``)."""

from __future__ import annotations

from django.urls import path

from matchmaking import views

app_name = "matchmaking"
urlpatterns = [
    path("seeks/quick", views.quick, name="quick"),
    path("seeks/new/", views.seek_new, name="seek_new"),
    path("seeks/<int:seek_id>/cancel", views.seek_cancel, name="seek_cancel"),
    path("seeks/<int:seek_id>/accept", views.seek_accept, name="seek_accept"),
    path("games/<int:game_id>/rematch", views.rematch_accept, name="rematch"),
    path("games/<int:game_id>/rematch/decline", views.rematch_decline, name="rematch_decline"),
    path("players/<str:username>/follow", views.follow, name="follow"),
    path("players/<str:username>/unfollow", views.unfollow, name="unfollow"),
    path("settings/kingdom/", views.bans, name="bans"),
]
