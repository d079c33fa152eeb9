"""Domaine's Django app: its templates, template tags, static files and translations live in this folder."""

from __future__ import annotations

from django.apps import AppConfig


class DomaineConfig(AppConfig):
    """Domaine, installed by ``settings.HERALD_GAMES`` (``games.kinds``)."""

    name = "games.domaine"
    label = "domaine"
    verbose_name = "Domaine"
