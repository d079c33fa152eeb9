"""A bot's move within a CPU budget: a level that runs out of time hands the move to the level below.

The strongest levels search (``docs/bots.md``); a position the search finds
hard must not hold a worker, and a game, for long. So a level's move runs
under a budget of CPU seconds (``settings.HERALD_BOT_CPU_BUDGET``, 2 s): the
process's CPU timer (``ITIMER_PROF``: user and system time of this process)
interrupts a move that goes over, and the level below moves instead, down to
level 1, which is never interrupted. CPU time rather than wall time, so a
busy machine slows a move down without making it weaker.

A signal can only interrupt the main thread: Celery's worker processes run
their tasks there. Elsewhere (tasks run eagerly in a web server's thread,
without a broker, as in development) the move runs without a budget.
"""

from __future__ import annotations

import logging
import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

log = logging.getLogger(__name__)

Bot = Callable[[dict[str, Any], Any], dict[str, Any]]


class BudgetExceeded(Exception):
    """A bot's move used up its CPU budget."""


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise BudgetExceeded


@contextmanager
def cpu_budget(seconds: float) -> Iterator[bool]:
    """Raise :class:`BudgetExceeded` in the block once this process has used ``seconds`` more CPU seconds.

    Yields whether the budget is enforced: not outside the main thread (signals reach only it), nor on
    a platform without ``setitimer``, nor for ``seconds`` <= 0.
    """
    if seconds <= 0 or threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        yield False
        return
    previous = signal.signal(signal.SIGPROF, _interrupt)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield True
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


def level_number(bot: str) -> int | None:
    """Return N for a level's bot name "levelN", else ``None`` (the bots' own names: "smart")."""
    number = bot.removeprefix("level")
    return int(number) if bot.startswith("level") and number.isascii() and number.isdigit() else None


def move_within_budget(
    bots: dict[str, Bot], bot: str, view: dict[str, Any], rng_for: Callable[[str], Any], seconds: float
) -> tuple[str, dict[str, Any]]:
    """Return ``(the bot that moved, its move)``: ``bot``'s, or the level below's if ``bot`` ran out of CPU.

    Args:
        bots: the game's bots (name -> ``(view, rng) -> move``).
        bot: the seat's bot; a level ("level5") falls back to the next lower level the game has.
        view: the seat's own view (``engine.player_view``).
        rng_for: a fresh generator for a bot's attempt, from the bot's name (a retried move is the same).
        seconds: the budget of each attempt; level 1, and a bot that is not a level, have none.

    Raises:
        KeyError: ``bot`` is not one of ``bots``.
    """
    current = bot
    while True:
        number = level_number(current) or 1
        lower = next((f"level{n}" for n in range(number - 1, 0, -1) if f"level{n}" in bots), None)
        if lower is None:
            return current, bots[current](view, rng_for(current))
        try:
            with cpu_budget(seconds):
                return current, bots[current](view, rng_for(current))
        except BudgetExceeded:
            log.warning("bot %s ran out of its %.1f s of CPU; %s moves instead", current, seconds, lower)
            current = lower
