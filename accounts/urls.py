"""Account URLs (namespace ``accounts``): profiles, settings, deletion, blocking.

Sign-up, sign-in, email addresses and passwords are allauth's, under ``/accounts/``.
"""

from __future__ import annotations

from django.urls import path

from accounts import views

app_name = "accounts"
urlpatterns = [
    path("players/<str:username>/", views.profile, name="profile"),
    path("players/<str:username>/block", views.block, name="block"),
    path("players/<str:username>/unblock", views.unblock, name="unblock"),
    path("settings/", views.settings_view, name="settings"),
    path("settings/standing", views.standing_update, name="standing"),
    path("settings/delete/", views.account_delete, name="delete"),
    path("settings/language", views.language_set, name="language"),
]
