"""Template filters of the tournament pages."""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING

from django import template
from django.utils.formats import number_format
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.forms import time_control_label
from games.i18n import game_name
from tournaments.models import Table

if TYPE_CHECKING:
    from games.models import Game

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
    """The game's name in the active language (its ``games.kinds`` label)."""
    return str(game_name(kind))


@register.simple_tag
def tournament_of_game(game: Game | None) -> str:
    """A line linking a tournament game's page back to its tournament and round ("" for any other game).

    Loaded by the game page (``templates/games/game.html``), so ``games``
    never imports tournaments; one indexed query per page.
    """
    if game is None:
        return ""
    table = Table.objects.filter(game_id=game.pk).select_related("round__tournament").first()
    if table is None:
        return ""
    tournament = table.round.tournament
    return format_html(
        '<p class="tournament-of-game">{}</p>',
        format_html(
            _("Round {round} of {tournament}"),
            round=table.round.number,
            tournament=format_html('<a href="{}">{}</a>', tournament.get_absolute_url(), tournament.name),
        ),
    )


@register.simple_tag
def bye_line(table: Table) -> str:
    """A bye as the rounds list shows it: "Carol: bye (1 point)" (a round robin's: "no points"); no game, no table."""
    seat = next(iter(table.seats.all()), None)
    if seat is None:
        return ""
    value = seat.points or 0.0
    name = seat.entry.user.shown_name
    if not value:
        return format_html("{}", _("%(name)s: bye (no points)") % {"name": name})
    text = ngettext("%(name)s: bye (%(points)s point)", "%(name)s: bye (%(points)s points)", 1 if value == 1 else 2)
    return format_html("{}", text % {"name": name, "points": points(value)})
