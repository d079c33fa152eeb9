"""Template helpers for statistics: a finished game's charts, a profile's numbers, percentages.

Other apps' templates load these (``{% load stats_tags %}``), so the games
and accounts code never imports ``stats``.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.translation import gettext as _

from games.engine.dominion.cards import CARDS
from stats import selectors
from stats.charts import line_chart
from stats.compute import KINDS

register = template.Library()

#: Order of card groups in a final deck: Actions, Treasures, Victory cards, Curses.
_GROUP = {"Action": 0, "Treasure": 1, "Victory": 2, "Curse": 3}


def _deck_order(name: str) -> tuple[int, int, str]:
    card = CARDS.get(name)
    if card is None:
        return (9, 0, name)
    group = min((_GROUP.get(t, 9) for t in card.types), default=9)
    return (group, -card.cost, name)


@register.filter
def percent(value: float | None) -> str:
    """A fraction as a whole percentage ("47%"), or "–" for None."""
    if value is None:
        return "–"
    return f"{round(100 * value)}%"


@register.filter
def signed_percent(value: float | None) -> str:
    """A difference of fractions as signed percentage points ("+12", "−3"), or "–"."""
    if value is None:
        return "–"
    points = round(100 * value)
    return f"+{points}" if points > 0 else ("±0" if points == 0 else f"−{-points}")


def game_panel(game: Any) -> dict[str, Any] | None:
    """Everything ``stats/_game.html`` draws for a finished game, or None if it has no numbers yet."""
    stats = selectors.game_stats(game)
    if stats is None:
        return None
    names = [str(s.name) for s in game.seats.all()]
    if len(set(names)) < len(names):  # two bots of one kind: tell their lines apart by seat
        names = [f"{name} ({i + 1})" if names.count(name) > 1 else name for i, name in enumerate(names)]
    data = stats.data
    series = data.get("series") or []
    pick = lambda k: [[point[k] for point in s] for s in series]  # noqa: E731
    if game.kind == "dominion":
        charts = [
            line_chart(_("Victory points"), names, pick(0)),
            line_chart(_("Money in deck (coins of all Treasures)"), names, pick(1)),
            line_chart(_("Cards in deck"), names, pick(2)),
        ]
        first = data.get("first") or []
        cards = sorted({c for f in first for c in f}, key=lambda c: (min(f.get(c, 10**6) for f in first), c))
        panel: dict[str, Any] = {
            "decks": [
                (name, sorted(deck.items(), key=lambda kv: _deck_order(kv[0])))
                for name, deck in zip(names, data.get("decks") or [], strict=False)
            ],
            "first_rows": [(c, [f.get(c) for f in first]) for c in cards],
        }
    else:
        charts = [
            line_chart(_("Score"), names, pick(0), first_turn=1, ends=True),
            line_chart(_("Gold"), names, pick(1), first_turn=1, ends=True),
            line_chart(_("Knights on the board"), names, pick(2), first_turn=1, ends=True),
        ]
        panel = {"end_rows": list(zip(names, data.get("castles") or [], data.get("played") or [], strict=False))}
    panel.update({"stats": stats, "names": names, "charts": [c for c in charts if c is not None], "game": game})
    return panel


@register.inclusion_tag("stats/_game.html")
def game_stats_panel(game: Any) -> dict[str, Any]:
    """A finished game's charts and tables (nothing while it runs or before it is measured)."""
    return {"panel": game_panel(game)}


@register.filter
def game_stats_pending(game: Any) -> bool:
    """True while a finished game waits to be measured (its numbers come a moment after it ends).

    The game page then asks again for its statistics region (``games/game.html``), so the
    page left open shows them as a reload would. False once measured, or found unreplayable.
    """
    if not getattr(game, "is_finished", False) or game.kind not in KINDS:
        return False  # only these kinds are measured: another's page would ask forever
    return not selectors.game_measured(game)


@register.inclusion_tag("stats/_profile.html")
def player_stats(owner: Any) -> dict[str, Any]:
    """A profile's statistics: games, wins and average score by kind and player count; favourite cards."""
    return {"summary": selectors.player_summary(owner)}


@register.filter
def action_kind(kind: str) -> str:
    """A Domaine action kind's name ("Borders", "Knights", ...) in the active language."""
    names = {
        "borders": _("Borders"),
        "knights": _("Knights"),
        "expand": _("Expansion"),
        "desertion": _("Desertion"),
        "alliance": _("Alliance"),
    }
    return names.get(kind, kind)
