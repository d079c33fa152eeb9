"""Dominion's entry in the registry of games (``games.kinds``)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games.kinds import GameKind

GAME = GameKind(
    name="dominion",
    label=_("Dominion"),
    package="games.dominion",
    engine_module="games.engine.dominion.engine",
    timeout_bot="smart",
    order=10,
)
