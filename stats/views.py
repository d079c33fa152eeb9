"""Statistics pages: thin views over ``stats.selectors``."""

from __future__ import annotations

from urllib.parse import urlencode

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_safe

from games.engine.dominion.cards import KINGDOM_CARDS
from ops.responses import bad_request
from stats import selectors
from stats.models import BAND_NAMES
from website.db import reads_from_replica


def _players(request: HttpRequest) -> int | None:
    """The ``?players=`` filter: 2, 3 or 4, or None for all; ValueError for anything else."""
    raw = request.GET.get("players", "")
    if raw in ("", "all"):
        return None
    players = int(raw)
    if players not in selectors.PLAYER_COUNTS:
        raise ValueError(raw)
    return players


#: The card list's columns: sort key and heading.
COLUMNS = (
    ("card", gettext_lazy("Card")),
    ("games", gettext_lazy("Games")),
    ("presence", gettext_lazy("On the table")),
    ("bought", gettext_lazy("Bought when on the table")),
    ("win_bought", gettext_lazy("Buyers won")),
    ("win_not", gettext_lazy("Others won")),
    ("edge", gettext_lazy("Difference (points)")),
)


def _columns(players: int | None, sort: str) -> list[dict[str, object]]:
    """Column headings with their sort links: a click sorts by it, a second click reverses."""
    out: list[dict[str, object]] = []
    for key, label in COLUMNS:
        current = sort.lstrip("-") == key
        reverse = current and not sort.startswith("-")
        query = {"sort": f"-{key}" if reverse else key}
        if players is not None:
            query["players"] = str(players)
        descending = (key != "card") != sort.startswith("-")
        out.append(
            {
                "key": key,
                "label": label,
                # A phone shows a short heading; screen readers always read the long one.
                "short": "±" if key == "edge" else "",
                "href": "?" + urlencode(query),
                "aria_sort": ("descending" if descending else "ascending") if current else None,
            }
        )
    return out


@require_safe
@reads_from_replica
def dominion_cards(request: HttpRequest) -> HttpResponse:
    """Every kingdom card over rated games: presence, bought when present, buyers' and others' win rates.

    ``?players=2|3|4`` (default all) and ``?sort=<key>`` or ``-<key>`` (``selectors.SORTS``).
    """
    sort = request.GET.get("sort", "edge")
    try:
        players = _players(request)
    except ValueError:
        return bad_request(request, _("Players must be 2, 3 or 4."))
    if sort.lstrip("-") not in selectors.SORTS:
        return bad_request(request, _("Unknown sort order."))
    context = {
        "rows": selectors.card_table(players=players, sort=sort),
        "games": selectors.rated_games("dominion", players),
        "players": players,
        "player_counts": selectors.PLAYER_COUNTS,
        "sort": sort,
        "columns": _columns(players, sort),
    }
    return render(request, "stats/dominion.html", context)


@require_safe
@reads_from_replica
def dominion_card(request: HttpRequest, card: str) -> HttpResponse:
    """One kingdom card: its text, and its numbers overall, by player count and by rating band."""
    if card not in KINGDOM_CARDS:
        raise Http404("No such kingdom card")
    detail = selectors.card_detail(card)
    context = {
        "card": card,
        "detail": detail,
        "bands": [(BAND_NAMES[code], row) for code, row in detail.by_band],
    }
    return render(request, "stats/card.html", context)


@require_safe
@reads_from_replica
def domaine(request: HttpRequest) -> HttpResponse:
    """Domaine over rated games: win rate by seat, by castles in domains, by cards played, by action kind."""
    try:
        players = _players(request)
    except ValueError:
        return bad_request(request, _("Players must be 2, 3 or 4."))
    context = {
        "tables": selectors.domaine_tables(players=players),
        "players": players,
        "player_counts": selectors.PLAYER_COUNTS,
        "played_step": selectors.PLAYED_STEP,
    }
    return render(request, "stats/domaine.html", context)
