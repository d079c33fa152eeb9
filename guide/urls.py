"""Rules and card reference URLs (namespace ``guide``)."""

from __future__ import annotations

from django.urls import path

from guide import views

app_name = "guide"
urlpatterns = [
    path("rules/", views.rules_index, name="index"),
    path("rules/hints/", views.hints_toggle, name="hints"),
    path("rules/<str:kind>/", views.rules, name="rules"),
    path("rules/<str:kind>/cards/", views.cards, name="cards"),
]
