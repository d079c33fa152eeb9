"""Dominion's statistics part (``stats.plugin``): what a finished game measures, its charts, the card pages.

Per player (seat index ``p``), stored in ``GameStats.data``:

* ``series[p][t] = [vp, money, cards]`` after ``p`` completed ``t`` turns
  (``t = 0`` is the deal): victory points as the rules score them now
  (rules section 10, Gardens included), the coins of all the Treasures
  ``p`` owns, and how many cards ``p`` owns (every zone).
* ``first[p][card]``: the turn in which ``p`` first gained ``card``,
  bought or otherwise; a turn is numbered by the turn being played at the
  time (the first player's turn 3 and the others' turn 3 are all "turn 3"),
  so a Curse from a Witch played in turn 5 counts as gained in turn 5.
* ``bought[p][card]``, ``gained[p][card]``: how many copies ``p`` bought,
  and gained without buying (Workshop, Feast, Remodel, Mine, Thief, Witch's
  Curses, Bureaucrat's Silver).
* ``decks[p]``: every card ``p`` owns at the end, with counts.
* ``kingdom``: the ten kingdom cards, which get a row per seat (``CardStats``)
  and the site-wide card totals (``/stats/dominion/`` and a page per card).

``turns`` is the most turns any seat completed. The keys ``castles``,
``played`` and ``actions`` are stored empty, as they always were.
"""

from __future__ import annotations

from collections import Counter
from typing import Any
from urllib.parse import urlencode

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.dominion.eventtext import card_name as _card_name
from games.engine.core import Engine
from games.engine.dominion.cards import CARDS, COINS, KINGDOM_CARDS, TREASURES
from games.engine.dominion.engine import score as dominion_score
from games.kinds import GameKind
from ops.responses import bad_request
from stats import selectors
from stats.charts import line_chart
from stats.models import BAND_NAMES
from stats.plugin import PLAYER_COUNTS, GameNumbers, players_filter

#: The tab of the site-wide page (``stats/_nav.html``).
PAGE_LABEL = gettext_lazy("Dominion cards")


def _point(st: Any, p: int) -> list[int]:
    owned = st.owned(p)
    return [dominion_score(st, p), sum(COINS[c] for c in owned if c in TREASURES), len(owned)]


def measure(st: Any, engine: Engine, moves: list[tuple[int, dict[str, Any]]]) -> GameNumbers:
    """Replay ``moves`` from the deal ``st`` and return the numbers of the module docstring.

    Raises:
        games.engine.core.EngineError: a move does not replay.
    """
    n = st.n
    series = [[_point(st, p)] for p in range(n)]
    first: list[dict[str, int]] = [{} for _ in range(n)]
    bought: list[Counter[str]] = [Counter() for _ in range(n)]
    gained: list[Counter[str]] = [Counter() for _ in range(n)]
    for seat, move in moves:
        turn = st.turns[st.current] + 1  # the turn being played when the move was made
        before = list(st.turns)
        for e in engine.apply(st, seat, move):
            if e.kind in ("buy", "gain") and e.player is not None:
                card = e.data["card"]
                first[e.player].setdefault(card, turn)
                (bought if e.kind == "buy" else gained)[e.player][card] += 1
        for p in range(n):
            if st.turns[p] != before[p]:
                series[p].append(_point(st, p))
    kingdom = list(st.kingdom)
    bought_d = [dict(c) for c in bought]
    gained_d = [dict(c) for c in gained]
    data = {
        "series": series,
        "kingdom": kingdom,
        "first": first,
        "bought": bought_d,
        "gained": gained_d,
        "decks": [dict(Counter(st.owned(p))) for p in range(n)],
        "castles": [],
        "played": [],
        "actions": [],
    }
    return GameNumbers(turns=max(st.turns), data=data, cards=kingdom, first=first, bought=bought_d, gained=gained_d)


#: Order of card groups in a final deck: Actions, Treasures, Victory cards, Curses.
_GROUP = {"Action": 0, "Treasure": 1, "Victory": 2, "Curse": 3}


def _deck_order(name: str) -> tuple[int, int, str]:
    card = CARDS.get(name)
    if card is None:
        return (9, 0, name)
    group = min((_GROUP.get(t, 9) for t in card.types), default=9)
    return (group, -card.cost, name)


def game_panel(game: Any, data: dict[str, Any], names: list[str]) -> dict[str, Any]:
    """Three charts (victory points, money, cards per turn), the final decks and each card's first gain."""
    series = data.get("series") or []
    pick = lambda k: [[point[k] for point in s] for s in series]  # noqa: E731
    first = data.get("first") or []
    cards = sorted({c for f in first for c in f}, key=lambda c: (min(f.get(c, 10**6) for f in first), c))
    return {
        "charts": [
            line_chart(_("Victory points"), names, pick(0)),
            line_chart(_("Money in deck (coins of all Treasures)"), names, pick(1)),
            line_chart(_("Cards in deck"), names, pick(2)),
        ],
        "template": "dominion/stats/_game.html",
        "kingdom": data.get("kingdom") or [],
        "decks": [
            (name, sorted(deck.items(), key=lambda kv: _deck_order(kv[0])))
            for name, deck in zip(names, data.get("decks") or [], strict=False)
        ],
        "first_rows": [(c, [f.get(c) for f in first]) for c in cards],
    }


def card_name(card: str) -> str:
    """A card's name in the active language (a profile's favourite cards)."""
    return _card_name(card)


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


def card_table(*, players: int | None = None, sort: str = "edge") -> list[selectors.CardRow]:
    """Every kingdom card's row over rated Dominion games (``stats.selectors.card_table``)."""
    return selectors.card_table("dominion", KINGDOM_CARDS, players=players, sort=sort)


def card_detail(card: str) -> selectors.CardDetail:
    """One kingdom card's numbers over rated Dominion games (``stats.selectors.card_detail``)."""
    return selectors.card_detail("dominion", card)


def page(request: HttpRequest, kind: GameKind) -> HttpResponse:
    """Every kingdom card over rated games: presence, bought when present, buyers' and others' win rates.

    ``?players=2|3|4`` (default all) and ``?sort=<key>`` or ``-<key>`` (``stats.selectors.SORTS``);
    anything else is a 400.
    """
    sort = request.GET.get("sort", "edge")
    try:
        players = players_filter(request)
    except ValueError:
        return bad_request(request, _("Players must be 2, 3 or 4."))
    if sort.lstrip("-") not in selectors.SORTS:
        return bad_request(request, _("Unknown sort order."))
    context = {
        "kind": kind.name,
        "rows": card_table(players=players, sort=sort),
        "games": selectors.rated_games(kind.name, players),
        "players": players,
        "player_counts": PLAYER_COUNTS,
        "sort": sort,
        "columns": _columns(players, sort),
    }
    return render(request, "dominion/stats/cards.html", context)


def item_page(request: HttpRequest, kind: GameKind, item: str) -> HttpResponse:
    """One kingdom card: its text, and its numbers overall, by player count and by rating band.

    Raises:
        Http404: ``item`` is not a kingdom card.
    """
    if item not in KINGDOM_CARDS:
        raise Http404("No such kingdom card")
    detail = card_detail(item)
    context = {
        "kind": kind.name,
        "card": item,
        "detail": detail,
        "bands": [(BAND_NAMES[code], row) for code, row in detail.by_band],
    }
    return render(request, "dominion/stats/card.html", context)
