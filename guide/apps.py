"""App configuration for the guide (rules pages, card references, board hints)."""

from __future__ import annotations

from django.apps import AppConfig


class GuideConfig(AppConfig):
    """How to play: a rules page and a card reference per game, and the board's hint strip."""

    name = "guide"
    verbose_name = "Guide"
