"""The API's URLs: ``/api/v1/`` (django-ninja) and the token settings pages."""

from __future__ import annotations

from django.urls import path

from api import views
from api.v1 import api

urlpatterns = [
    path("api/v1/", api.urls),
    path("settings/api/tokens", views.token_create, name="api_token_create"),
    path("settings/api/tokens/<int:token_id>/revoke", views.token_revoke, name="api_token_revoke"),
    path("settings/api/bot", views.bot_account, name="api_bot_account"),
]
