"""Which bot plays for whom, and the move a bot makes: shared by bot seats, timeouts and forfeits."""

from __future__ import annotations

import random
from typing import Any

from games.engine.core import Engine
from games.models import Game

#: Bots that answer for a late player, first one the engine has wins.
TIMEOUT_BOTS = ("smart", "greedy")


def engine_bots(engine: Engine) -> dict[str, Any]:
    """Return the engine's bots (name -> function), or none while its bot module is missing."""
    try:
        return dict(engine.bots)
    except ImportError:
        return {}


def timeout_bot(engine: Engine) -> str:
    """Return the name of the bot that plays for late players in ``engine``'s game.

    Raises:
        LookupError: the engine has no bot at all.
    """
    bots = dict(engine.bots)
    for name in TIMEOUT_BOTS:
        if name in bots:
            return name
    if not bots:
        raise LookupError(f"{engine.kind} has no bot to play for a late player")
    return next(iter(bots))


def bot_move(game: Game, engine: Engine, state: Any, position: int, bot: str) -> dict[str, Any]:
    """Return the move bot ``bot`` makes for seat ``position`` in ``state``.

    The bot's randomness comes from its own generator, seeded from the game
    and the position in the log, so a retried task makes the same move.
    """
    rng = random.Random(f"herald-bot:{game.pk}:{game.seed}:{game.last_seq}:{position}")
    return engine.bots[bot](engine.player_view(state, position), rng)
