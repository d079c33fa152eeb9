"""``{% seat_clocks game as clocks %}``: each seat's time left, for the game page and the lobby."""

from __future__ import annotations

from django import template
from django.utils import timezone

from games.clocks import SeatClock, seat_clocks
from games.forms import time_control_label
from games.models import Game

register = template.Library()


@register.simple_tag
def game_clocks(game: Game) -> list[SeatClock]:
    """Return ``games.clocks.seat_clocks(game, now)`` (no query unless a vacation moved a deadline)."""
    return seat_clocks(game, timezone.now())


@register.simple_tag
def clocks_html(game: Game) -> str:
    """Every seat's clock as the ``<ul class="clocks">`` list, in the active language and time zone.

    Built in Python rather than a template loop: the lobby draws it for every
    running game it lists. Same texts (and catalogue entries) as the template
    it replaces: time left, "on vacation until", "timed out at ..., now played
    by a bot". Seats with nothing to say are left out, and with none left
    the answer is "" (a finished game that ended on the board).
    """
    from django.utils.formats import date_format
    from django.utils.html import format_html, format_html_join
    from django.utils.timesince import timeuntil
    from django.utils.translation import gettext as _

    def when(dt):
        return date_format(timezone.localtime(dt), "DATETIME_FORMAT")

    items = []
    for c in seat_clocks(game, timezone.now()):
        if c.timed_out:
            if c.seat.resigned:
                text = _("resigned at %(when)s") % {"when": when(c.timed_out)}
            elif c.seat.forfeited_by_moderator:
                text = _("forfeited by a moderator at %(when)s") % {"when": when(c.timed_out)}
            else:
                text = _("timed out at %(when)s") % {"when": when(c.timed_out)}
            if c.bot and game.is_active:
                text += ", " + _("now played by a bot")
        elif c.bot:
            text = _("bot")
        elif c.vacation_until:
            text = _("on vacation until %(until)s") % {"until": when(c.vacation_until)}
            if c.running and c.left is not None:
                text += " (" + _("then %(left)s left") % {"left": time_control_label(c.left)} + ")"
        elif c.running and c.deadline:
            text = format_html(
                '<time datetime="{}" title="{}">{}</time>',
                c.deadline.isoformat(),
                when(c.deadline),
                _("%(left)s left") % {"left": timeuntil(c.deadline)},
            )
        elif c.left and game.is_active:
            text = _("%(left)s for the next move") % {"left": time_control_label(c.left)}
        else:
            # Nothing to say (a finished game's seat that did not time out): no empty bubble.
            continue
        items.append((" running" if c.running else "", c.seat.name, text))
    if not items:
        return ""
    body = format_html_join("", '<li class="clock{}"><span class="name">{}</span>: {}</li>', items)
    return format_html('<ul class="clocks">{}</ul>', body)
