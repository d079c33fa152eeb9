"""The counter game's statistics part (``stats.plugin``): proof that a game's statistics live in its own folder.

It measures, per seat, what the seat added up to after each of its turns
(one chart), and how many adds it made; rated games are tallied by that
count, and ``/stats/counter/`` shows the win rates by seat and by adds.
No item pages and no cards: the statistics app leaves those out.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games.engine.core import Engine
from games.kinds import GameKind
from stats import selectors
from stats.charts import line_chart
from stats.plugin import GameNumbers

#: The tab of the site-wide page. (The test game's strings are not translated.)
PAGE_LABEL = "Counter"


def measure(state: Any, engine: Engine, moves: list[tuple[int, dict[str, Any]]]) -> GameNumbers:
    """``series[p]``: seat ``p``'s own running sum, 0 at the deal then after each of its adds; ``adds[p]``."""
    series = [[0] for _ in range(state.n)]
    for seat, move in moves:
        for e in engine.apply(state, seat, move):
            if e.kind == "add" and e.player is not None:
                series[e.player].append(series[e.player][-1] + e.data["n"])
    return GameNumbers(turns=len(moves), data={"series": series, "adds": [len(s) - 1 for s in series]})


def tallies(data: dict[str, Any], seat: int) -> Iterator[tuple[str, str]]:
    """The seat's number of adds."""
    yield "adds", str(data["adds"][seat])


def game_panel(game: Any, data: dict[str, Any], names: list[str]) -> dict[str, Any]:
    """One chart: what each seat added up to, turn by turn."""
    return {"charts": [line_chart("Added by each seat", names, data["series"])]}


def page(request: HttpRequest, kind: GameKind) -> HttpResponse:
    """Win rates over rated counter games by seat and by number of adds."""
    tables = selectors.tally_tables(kind.name, ("seat", "adds"))
    return render(request, "counter/stats/page.html", {"kind": kind.name, "tables": tables})
