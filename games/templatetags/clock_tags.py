"""``{% seat_clocks game as clocks %}``: each seat's time left, for the game page and the lobby."""

from __future__ import annotations

from django import template
from django.utils import timezone

from games.clocks import SeatClock, seat_clocks
from games.models import Game

register = template.Library()


@register.simple_tag
def game_clocks(game: Game) -> list[SeatClock]:
    """Return ``games.clocks.seat_clocks(game, now)`` (no query unless a vacation moved a deadline)."""
    return seat_clocks(game, timezone.now())
