"""Template filters of the tournament pages."""

from __future__ import annotations

from datetime import timedelta

from django import template
from django.utils.formats import number_format

from games.forms import time_control_label
from games.i18n import game_name

register = template.Library()


@register.filter
def points(value: float | None) -> str:
    """Tournament points as people write them: 3, 2.5, 1.67 (at most two decimals); "" for None."""
    if value is None:
        return ""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return number_format(float(text), decimal_pos=len(text.partition(".")[2]))


@register.filter
def time_control(value: timedelta) -> str:
    """A time per move as the new-game form names it ("2 days")."""
    return time_control_label(value)


@register.filter
def kind_name(kind: str) -> str:
    """The game's name in the active language ("Dominion")."""
    return str(game_name(kind))
