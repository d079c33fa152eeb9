"""Which bot plays for whom, and the move a bot makes: shared by bot seats, timeouts and forfeits."""

from __future__ import annotations

import random
from typing import Any

from games import kinds
from games.engine.core import Engine
from games.models import Game


def engine_bots(engine: Engine) -> dict[str, Any]:
    """Return the engine's bots (name -> function), or none while its bot module is missing."""
    try:
        return dict(engine.bots)
    except ImportError:
        return {}


def timeout_bot(engine: Engine) -> str:
    """Return the name of the bot that plays for late players in ``engine``'s game.

    The game's own choice (``GameKind.timeout_bot``, its best judge of a position) if its engine
    has that bot, else the engine's first bot.

    Raises:
        LookupError: the engine has no bot at all.
    """
    bots = dict(engine.bots)
    kind = kinds.find(engine.kind)
    if kind is not None and kind.timeout_bot in bots:
        return str(kind.timeout_bot)
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
