"""Domaine's entry in the registry of games (``games.kinds``)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games.kinds import GameKind

GAME = GameKind(
    name="domaine",
    label=_("Domaine"),
    package="games.domaine",
    engine_module="games.engine.domaine.engine",
    timeout_bot="greedy",
    order=20,
)
