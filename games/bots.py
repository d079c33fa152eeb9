"""Which bot plays for whom, and the move a bot makes: shared by bot seats, timeouts and forfeits."""

from __future__ import annotations

import random
from typing import Any

from django.conf import settings

from games import kinds
from games.botbudget import move_within_budget
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

    The level the site sets (``settings.HERALD_TIMEOUT_BOT_LEVEL``, default ``level3``: docs/bots.md)
    if the game has it, else the game's own choice (``GameKind.timeout_bot``) if its engine has that
    bot, else the engine's first bot.

    Raises:
        LookupError: the engine has no bot at all.
    """
    bots = dict(engine.bots)
    if settings.HERALD_TIMEOUT_BOT_LEVEL in bots:
        return str(settings.HERALD_TIMEOUT_BOT_LEVEL)
    kind = kinds.find(engine.kind)
    if kind is not None and kind.timeout_bot in bots:
        return str(kind.timeout_bot)
    if not bots:
        raise LookupError(f"{engine.kind} has no bot to play for a late player")
    return next(iter(bots))


def bot_move(game: Game, engine: Engine, state: Any, position: int, bot: str) -> dict[str, Any]:
    """Return the move bot ``bot`` makes for seat ``position`` in ``state``, from that seat's view only.

    The bot's randomness comes from its own generator, seeded from the game
    and the position in the log, so a retried task makes the same move. A
    level that runs out of its CPU budget (``settings.HERALD_BOT_CPU_BUDGET``)
    hands the move to the level below (``games.botbudget``).
    """
    seed = f"herald-bot:{game.pk}:{game.seed}:{game.last_seq}:{position}"

    def rng_for(name: str) -> random.Random:
        return random.Random(seed if name == bot else f"{seed}:{name}")

    bots = dict(engine.bots)
    view = engine.player_view(state, position)
    _moved, move = move_within_budget(bots, bot, view, rng_for, settings.HERALD_BOT_CPU_BUDGET)
    return move
