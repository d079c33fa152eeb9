"""The counter game's entry in the registry of games (``games.kinds``)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games.kinds import GameKind

GAME = GameKind(
    name="counter",
    label=_("Counter"),
    package="tests.counter",
    engine_module="tests.counter.engine",
    order=90,
)
