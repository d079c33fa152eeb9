"""App configuration for ratings."""

from __future__ import annotations

from django.apps import AppConfig


class RatingsConfig(AppConfig):
    """Ratings and ladders: one openskill Plackett-Luce ladder per game kind."""

    name = "ratings"
    verbose_name = "Ratings"
