"""Domaine's own view, joined to the ``games`` URL namespace (``games.presentation.urlpatterns``)."""

from __future__ import annotations

from django.urls import path

from games.domaine import views

urlpatterns = [
    path("games/<int:game_id>/domaine/draft", views.domaine_draft, name="domaine_draft"),
]
