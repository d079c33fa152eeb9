"""Top-level URLs."""

from __future__ import annotations

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("", include("games.urls")),
    path("", include("accounts.urls")),
    path("", include("ratings.urls")),
    path("", include("guide.urls")),
    path("", include("stats.urls")),
    path("accounts/", include("allauth.urls")),
    path("", include("correspondence.urls")),
    path("", include("ops.urls")),
    path("", include("moderation.urls")),
    path("", include("tournaments.urls")),
    path("", include("matchmaking.urls")),
    path("", include("api.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]
