"""What a game hands the statistics: its part module ``<package>/stats.py`` (docs/games.md, docs/statistics.md).

The statistics app names no game. It reaches a game's statistics only as
``games.kinds.get(game.kind).part("stats")`` (or every game that has one,
``kinds.parts("stats")``); a game without that module is left out: its
finished games get seat rows (games, wins and scores on a profile) and
nothing else, and it has no statistics page.

A part module defines (:class:`StatsPart` says it in types):

``measure(state, engine, moves) -> GameNumbers`` (required)
    Replay ``moves`` (the ``(seat, move)`` pairs that stand, undo entries
    and what they took back already dropped) from ``state``, the deal, with
    ``engine``, and return what the game measured. ``data`` is stored as it
    is (JSON) in ``GameStats.data`` and handed back to the part's other
    functions, so a part reads its own rows back, old rows included: never
    drop or rename a key once games are stored. A move that does not
    replay raises ``games.engine.core.EngineError`` (the game is then kept
    as unreplayable and counts in no total).

``tallies(data, seat) -> Iterable[tuple[str, str]]`` (optional)
    The ``(measure, value)`` pairs seat ``seat`` of a counted (rated,
    measured) game is tallied under, beside the platform's own "games" and
    "seat": each pair adds one seat, and one win if the seat won, to its
    ``Tally`` row (win rate by that value on the game's page). A pure
    function of the stored ``data``, so recording, forgetting and rebuilding
    a game always add and take away the same rows.

``game_panel(game, data, names) -> dict`` (optional)
    What a finished game's page and replay show under "Statistics of this
    game": ``"charts"``, a list of :class:`stats.charts.LineChart` (or None,
    skipped), and optionally ``"template"``, a template of the game's own
    drawn after the charts with the rest of the dict (and ``panel``) as its
    context. Without it a measured game shows no panel.

``PAGE_LABEL`` and ``page(request, kind) -> HttpResponse`` (optional)
    The game's site-wide page at ``/stats/<kind>/`` (``stats:kind``), and
    its tab's label (marked for translation) in ``stats/_nav.html``. The
    platform's view has already refused anything but GET and HEAD and
    points the request at the read replica; ``players_filter`` and
    ``stats.selectors`` (card and tally tables over the stored totals) are
    there for the part. Extend ``stats/base.html`` to get the tabs.

``item_page(request, kind, item) -> HttpResponse`` (optional)
    A page per item (a card) at ``/stats/<kind>/<item>/`` (``stats:item``);
    raise ``Http404`` for an unknown item.

``card_name(card) -> str`` (optional)
    A card's name in the active language, for a profile's favourite cards
    (which link to ``item_page`` when the game has one).

Per-seat card rows (``CardStats``, and the totals ``CardTotal`` over rated
games) are kept for the cards a game's :class:`GameNumbers` lists in
``cards``; a game without cards lists none. ``CardTotal`` is keyed by the
card's name: two installed games must not share a card name.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from django.http import HttpRequest

from games import kinds
from games.kinds import GameKind

if TYPE_CHECKING:
    from django.http import HttpResponse
    from django.utils.functional import Promise

    from games.engine.core import Engine
    from games.models import Game

#: Player counts the pages split by (``?players=``).
PLAYER_COUNTS = (2, 3, 4)


@dataclass(slots=True)
class GameNumbers:
    """What one finished game's log says (a part's ``measure`` returns it).

    Attributes:
        turns: the game's length in turns, as the game counts them (``GameStats.turns``).
        data: everything else the game measured (per-turn series...), JSON, stored in ``GameStats.data``.
        cards: the cards on the table that get a row per seat (``CardStats``); empty for a game without.
        first, bought, gained: per seat: card -> the turn it first gained one, copies bought, copies
            gained otherwise (a card missing counts 0 / never).
        kind, players: the game's kind and seat count (the platform fills them in).
    """

    turns: int = 0
    data: dict[str, Any] = field(default_factory=dict)
    cards: list[str] = field(default_factory=list)
    first: list[dict[str, int]] = field(default_factory=list)
    bought: list[dict[str, int]] = field(default_factory=list)
    gained: list[dict[str, int]] = field(default_factory=list)
    kind: str = ""
    players: int = 0

    def as_data(self) -> dict[str, Any]:
        """Return the JSON stored in ``GameStats.data``."""
        return self.data


class StatsPart(Protocol):
    """The one required function of a game's ``stats`` part (the optional ones: the module docstring)."""

    def measure(self, state: Any, engine: Engine, moves: list[tuple[int, dict[str, Any]]]) -> GameNumbers:
        """Replay ``moves`` from ``state`` and measure the game (see the module docstring)."""
        ...


class TallyPart(Protocol):
    """A part that tallies seats by its own measures (``tallies``)."""

    def tallies(self, data: dict[str, Any], seat: int) -> Iterable[tuple[str, str]]:
        """The ``(measure, value)`` pairs the seat counts under (see the module docstring)."""
        ...


class PanelPart(Protocol):
    """A part that draws a finished game's statistics (``game_panel``)."""

    def game_panel(self, game: Game, data: dict[str, Any], names: list[str]) -> dict[str, Any]:
        """Charts (and a template) for the game's page (see the module docstring)."""
        ...


class PagePart(Protocol):
    """A part with a site-wide page (``PAGE_LABEL``, ``page``)."""

    PAGE_LABEL: str | Promise

    def page(self, request: HttpRequest, kind: GameKind) -> HttpResponse:
        """The game's page at ``/stats/<kind>/``."""
        ...


def part_of(kind: str) -> Any | None:
    """Return the ``stats`` part of installed game ``kind``, or None (no such game, or no statistics)."""
    game_kind = kinds.find(kind)
    return game_kind.part("stats") if game_kind is not None else None


def pages() -> list[tuple[str, str]]:
    """``(kind, tab label)`` of every installed game whose part has a site-wide page, in the games' order."""
    return [(kind.name, str(part.PAGE_LABEL)) for kind, part in kinds.parts("stats") if hasattr(part, "page")]


def players_filter(request: HttpRequest) -> int | None:
    """The ``?players=`` filter of a page: one of :data:`PLAYER_COUNTS`, or None for all ("" or "all").

    Raises:
        ValueError: anything else (the page answers 400).
    """
    raw = request.GET.get("players", "")
    if raw in ("", "all"):
        return None
    players = int(raw)
    if players not in PLAYER_COUNTS:
        raise ValueError(raw)
    return players
