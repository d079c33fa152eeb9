"""Domaine's statistics part (``stats.plugin``): what a finished game measures, its charts, its page.

Per player (seat index ``p``), stored in ``GameStats.data``:
``series[p][i] = [score, gold, knights]`` at the start of the game's
``i + 1``-th turn of play (after that turn's income), and one last point
at the end (the score with the end's gold bonuses); ``castles[p]``: ``p``'s
castles that stand in a domain at the end; ``played[p]``: cards ``p``
played, and ``actions[p][kind]``: how many of those used each action kind
(borders, knights, expand, desertion, alliance). ``turns`` is the game's
turns of play. The keys ``kingdom``, ``first``, ``bought``, ``gained`` and
``decks`` are stored empty, as they always were.

Rated games are tallied (``tallies``) by castles in domains at the end, by
cards played (in steps of :data:`PLAYED_STEP`) and by the action kinds a
seat used at least once; ``/stats/domaine/`` shows the win rates by each.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.engine.core import Engine
from games.kinds import GameKind
from ops.responses import bad_request
from stats import selectors
from stats.charts import line_chart
from stats.plugin import PLAYER_COUNTS, GameNumbers, players_filter

#: The tab of the site-wide page (``stats/_nav.html``).
PAGE_LABEL = gettext_lazy("Domaine")
#: "Cards played" is tallied in steps of this many cards (0-4, 5-9, ...).
PLAYED_STEP = 5
#: The page's tables, in order: the platform's "seat", then this game's measures.
MEASURES = ("seat", "castles", "played", "action")


def _point(st: Any, p: int, scores: list[int]) -> list[int]:
    return [scores[p], st.players[p].gold, sum(1 for k in st.board.knight if k == p)]


def measure(st: Any, engine: Engine, moves: list[tuple[int, dict[str, Any]]]) -> GameNumbers:
    """Replay ``moves`` from the deal ``st`` and return the numbers of the module docstring.

    Raises:
        games.engine.core.EngineError: a move does not replay.
    """
    n = st.n
    series: list[list[list[int]]] = [[] for _ in range(n)]
    played = [0] * n
    actions: list[Counter[str]] = [Counter() for _ in range(n)]
    for seat, move in moves:
        for e in engine.apply(st, seat, move):
            if e.kind == "turn":
                scores = st.scores()
                for p in range(n):
                    series[p].append(_point(st, p, scores))
            elif e.kind == "play" and e.player is not None:
                played[e.player] += 1
                actions[e.player][e.data.get("action", "")] += 1
    scores = st.scores()
    for p in range(n):
        series[p].append(_point(st, p, scores))
    derived = st.board.derived()
    data = {
        "series": series,
        "kingdom": [],
        "first": [],
        "bought": [],
        "gained": [],
        "decks": [],
        "castles": [sum(1 for d in derived.domains.values() if d.owner == p) for p in range(n)],
        "played": played,
        "actions": [dict(c) for c in actions],
    }
    return GameNumbers(turns=st.turns, data=data)


def tallies(data: dict[str, Any], seat: int) -> Iterator[tuple[str, str]]:
    """Castles in domains at the end, cards played (in steps), and each action kind the seat used."""
    castles = data.get("castles") or []
    played = data.get("played") or []
    yield "castles", str(castles[seat] if seat < len(castles) else 0)
    step = (played[seat] if seat < len(played) else 0) // PLAYED_STEP * PLAYED_STEP
    yield "played", str(step)
    actions = data.get("actions") or []
    for kind in actions[seat] if seat < len(actions) else {}:
        yield "action", kind


def game_panel(game: Any, data: dict[str, Any], names: list[str]) -> dict[str, Any]:
    """Three charts (score, gold, knights per turn, and the end), and castles and cards played at the end."""
    series = data.get("series") or []
    pick = lambda k: [[point[k] for point in s] for s in series]  # noqa: E731
    return {
        "charts": [
            line_chart(_("Score"), names, pick(0), first_turn=1, ends=True),
            line_chart(_("Gold"), names, pick(1), first_turn=1, ends=True),
            line_chart(_("Knights on the board"), names, pick(2), first_turn=1, ends=True),
        ],
        "template": "domaine/stats/_game.html",
        "end_rows": list(zip(names, data.get("castles") or [], data.get("played") or [], strict=False)),
    }


def action_name(kind: str) -> str:
    """An action kind's name ("Borders", "Knights", ...) in the active language."""
    names = {
        "borders": _("Borders"),
        "knights": _("Knights"),
        "expand": _("Expansion"),
        "desertion": _("Desertion"),
        "alliance": _("Alliance"),
    }
    return names.get(kind, kind)


def tables(*, players: int | None = None) -> selectors.TallyTables:
    """Win rates over rated Domaine games by each of :data:`MEASURES` (``stats.selectors.tally_tables``)."""
    return selectors.tally_tables("domaine", MEASURES, players=players)


def page(request: HttpRequest, kind: GameKind) -> HttpResponse:
    """Win rate by seat, by castles in domains, by cards played, by action kind, over rated games.

    ``?players=2|3|4`` (default all); anything else is a 400.
    """
    try:
        players = players_filter(request)
    except ValueError:
        return bad_request(request, _("Players must be 2, 3 or 4."))
    found = tables(players=players)
    for row in found.by.get("action", []):
        row.label = action_name(row.value)
    context = {
        "kind": kind.name,
        "tables": found,
        "players": players,
        "player_counts": PLAYER_COUNTS,
        "played_step": PLAYED_STEP,
    }
    return render(request, "domaine/stats/page.html", context)
