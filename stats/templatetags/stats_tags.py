"""Template helpers for statistics: a finished game's charts, a profile's numbers, the tabs, percentages.

Other apps' templates load these (``{% load stats_tags %}``), so the games
and accounts code never imports ``stats``. What a game draws is its
``stats`` part's (``stats.plugin``); a game without one shows nothing here.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse

from stats import selectors
from stats.plugin import pages, part_of

register = template.Library()


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


def seat_names(game: Any) -> list[str]:
    """The seats' names in order; two seats of one name (two bots of a kind) get their seat number after it."""
    names = [str(s.name) for s in game.seats.all()]
    if len(set(names)) < len(names):
        names = [f"{name} ({i + 1})" if names.count(name) > 1 else name for i, name in enumerate(names)]
    return names


def game_panel(game: Any) -> dict[str, Any] | None:
    """Everything ``stats/_game.html`` draws for a finished game, or None.

    None while it runs, before it is measured, when its log did not replay, and for a
    game whose part draws nothing (no ``stats`` part, or no ``game_panel`` in it).
    """
    draw = getattr(part_of(game.kind), "game_panel", None)
    if draw is None:
        return None
    stats = selectors.game_stats(game)
    if stats is None:
        return None
    names = seat_names(game)
    panel: dict[str, Any] = dict(draw(game, stats.data, names))
    panel["charts"] = [c for c in panel.get("charts") or [] if c is not None]
    has_page = hasattr(part_of(game.kind), "page")
    panel.update(
        {
            "stats": stats,
            "names": names,
            "game": game,
            "all_games_url": reverse("stats:kind", args=[game.kind]) if has_page else "",
        }
    )
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
    if not getattr(game, "is_finished", False) or part_of(game.kind) is None:
        return False  # only games with a statistics part are measured: another's page would ask forever
    return not selectors.game_measured(game)


@register.inclusion_tag("stats/_profile.html")
def player_stats(owner: Any) -> dict[str, Any]:
    """A profile's statistics: games, wins and average score by kind and player count; favourite cards.

    A favourite card is named by its game's part (``card_name``) and links to its page (``item_page``)
    when the game has them.
    """
    summary = selectors.player_summary(owner)
    favourites = []
    for kind, card, copies in summary.favourites:
        part = part_of(kind)
        name = getattr(part, "card_name", str)(card)
        url = reverse("stats:item", args=[kind, card]) if hasattr(part, "item_page") else ""
        favourites.append({"name": name, "url": url, "copies": copies})
    return {"summary": summary, "favourites": favourites}


@register.inclusion_tag("stats/_nav.html")
def stats_nav(here: str = "") -> dict[str, Any]:
    """The statistics pages' tabs, one per game with a page; ``here``: the kind shown now."""
    return {"tabs": pages(), "here": here}
