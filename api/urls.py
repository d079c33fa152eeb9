"""The API's URLs: ``/api/v1/`` (django-ninja) and the token settings pages."""

from __future__ import annotations

from django.urls import path, re_path
from django.views.generic import RedirectView

from api import guide, views
from api.v1 import api

urlpatterns = [
    # The bare address is where a reader of docs/api.md tries first: send them to the browsable docs.
    path("api/v1/", RedirectView.as_view(pattern_name="api:openapi-view", permanent=False), name="api_root"),
    path("api/v1/guide/", guide.guide, name="api_guide_index"),
    path("api/v1/guide/<slug:name>/", guide.guide, name="api_guide"),
    path("api/v1/", api.urls),
    path("settings/api/tokens", views.token_create, name="api_token_create"),
    path("settings/api/tokens/new", views.token_new, name="api_token_new"),
    path("settings/api/tokens/<int:token_id>/revoke", views.token_revoke, name="api_token_revoke"),
    path("settings/api/bot", views.bot_account, name="api_bot_account"),
    # Last: whatever under /api/ nothing above answers is the API's own 404 (problem details), not an HTML page.
    re_path(r"^api/(?P<rest>.*)$", views.api_unknown, name="api_unknown"),
]
