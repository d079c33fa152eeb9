"""The Domaine board as drawing instructions for the SVG template.

Everything here is presentation: it reads ``engine.view(state, viewer)``
(and, while a player builds a move, the engine's ``targets`` answer) and
returns coordinates, colours and links. It knows the notation (squares
``C7``, edges ``C7-C8``) but no rule: which squares or edges are legal
comes from the engine, never from here.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext_lazy as _

#: Columns left to right, rows 1-12 top to bottom (rules: "Square").
COLS = "ABCDEFGHIJKL"
SIZE = 12
#: One square in SVG units; the rim keeps room for the letters and numbers.
CELL = 40
RIM = 22
BOARD_PX = SIZE * CELL
VIEWBOX = BOARD_PX + 2 * RIM

#: Terrain letter (``view["board"]``) -> (css class, label). Colours and
#: symbols live in domaine.css and the SVG template, so that each terrain
#: differs by symbol as well as by colour (colour-blind players).
TERRAIN = {
    ".": ("meadow", _("meadow")),
    "F": ("forest", _("forest")),
    "V": ("village", _("village")),
    "g": ("gold", _("gold mine")),
    "s": ("silver", _("silver mine")),
    "c": ("copper", _("copper mine")),
    "d": ("diamond", _("diamond mine")),
    "R": ("royal", _("royal city")),
}

#: Seat -> colour (Okabe-Ito palette, distinguishable with the common
#: colour-vision deficiencies); "neutral" is grey. Pieces also carry the
#: seat number, so colour is never the only cue.
SEAT_COLOURS = ["#d55e00", "#0072b2", "#cc79a7", "#e69f00"]
NEUTRAL_COLOUR = "#8a8a8a"


def colour_of(owner: Any) -> str:
    """Return the fill colour of a seat number or ``"neutral"``."""
    if isinstance(owner, int) and 0 <= owner < len(SEAT_COLOURS):
        return SEAT_COLOURS[owner]
    return NEUTRAL_COLOUR


def mark_of(owner: Any) -> str:
    """Return the text drawn on a piece: the seat number from 1, or "N" for neutral."""
    return str(owner + 1) if isinstance(owner, int) else "N"


def parse_square(name: str) -> tuple[int, int] | None:
    """Return ``(column, row)`` from 0 for a square name, or None if it is not one."""
    if not isinstance(name, str) or len(name) < 2 or name[0] not in COLS:
        return None
    try:
        row = int(name[1:])
    except ValueError:
        return None
    if not 1 <= row <= SIZE:
        return None
    return COLS.index(name[0]), row - 1


def square_name(col: int, row: int) -> str:
    """Return the name of the square at ``(column, row)`` counted from 0."""
    return f"{COLS[col]}{row + 1}"


def square_xy(name: str) -> tuple[int, int]:
    """Return the SVG top-left corner of a square."""
    col, row = parse_square(name) or (0, 0)
    return RIM + col * CELL, RIM + row * CELL


def _edge_ends(edge: str) -> tuple[tuple[int, int], tuple[int, int]] | None:
    parts = edge.split("-") if isinstance(edge, str) else []
    if len(parts) != 2:
        return None
    a, b = parse_square(parts[0]), parse_square(parts[1])
    if a is None or b is None:
        return None
    return a, b


def edge_line(edge: str) -> tuple[int, int, int, int] | None:
    """Return the SVG segment ``(x1, y1, x2, y2)`` of an edge between two squares."""
    ends = _edge_ends(edge)
    if ends is None:
        return None
    (c1, r1), (c2, r2) = ends
    if c1 == c2:  # one above the other: a horizontal segment
        y = RIM + max(r1, r2) * CELL
        x = RIM + c1 * CELL
        return x, y, x + CELL, y
    x = RIM + max(c1, c2) * CELL
    y = RIM + r1 * CELL
    return x, y, x, y + CELL


def edge_diamond(edge: str) -> str:
    """Return the SVG points of an edge's tap area: the diamond between the two
    squares' centres and the edge's ends (the diamonds of all edges tile the board)."""
    line = edge_line(edge)
    ends = _edge_ends(edge)
    if line is None or ends is None:
        return ""
    x1, y1, x2, y2 = line
    (c1, r1), (c2, r2) = ends
    h = CELL // 2
    ax, ay = RIM + c1 * CELL + h, RIM + r1 * CELL + h
    bx, by = RIM + c2 * CELL + h, RIM + r2 * CELL + h
    return f"{x1},{y1} {ax},{ay} {x2},{y2} {bx},{by}"


@dataclass
class Target:
    """A clickable square or edge: where it is drawn and where a click goes."""

    name: str
    url: str
    x: int = 0
    y: int = 0
    points: str = ""
    label: str = ""
    line: tuple[int, int, int, int] | None = None


@dataclass
class Drawing:
    """What the SVG template draws, back to front."""

    size: int = VIEWBOX
    cell: int = CELL
    rim: int = RIM
    board_px: int = BOARD_PX
    squares: list[dict[str, Any]] = field(default_factory=list)
    shading: list[dict[str, Any]] = field(default_factory=list)
    borders: list[tuple[int, int, int, int]] = field(default_factory=list)
    alliance_edges: list[tuple[int, int, int, int]] = field(default_factory=list)
    castles: list[dict[str, Any]] = field(default_factory=list)
    knights: list[dict[str, Any]] = field(default_factory=list)
    col_labels: list[tuple[str, int]] = field(default_factory=list)
    row_labels: list[tuple[str, int]] = field(default_factory=list)
    draft_squares: list[dict[str, Any]] = field(default_factory=list)
    draft_edges: list[tuple[int, int, int, int]] = field(default_factory=list)
    square_targets: list[Target] = field(default_factory=list)
    edge_targets: list[Target] = field(default_factory=list)
    #: Borders are picked in two taps: these squares (each beside a legal edge) open their sides.
    focus_targets: list[Target] = field(default_factory=list)
    #: The square whose sides are offered now, drawn outlined (``{"x", "y", "name"}``), or None.
    focus: dict[str, Any] | None = None
    #: Squares tinted as too near the placer's own castles in setup (``{"x", "y"}``).
    zone: list[dict[str, Any]] = field(default_factory=list)
    #: The zone is around the neutral castles (a neutral castle is being placed), not the viewer's own.
    zone_neutral: bool = False
    #: While borders are picked: squares with no side where one may go (inside a domain, say), hatched.
    blocked: list[dict[str, Any]] = field(default_factory=list)


def _shared_edges(a: Iterable[str], b: Iterable[str]) -> list[str]:
    """Return the edges between a square of ``a`` and an orthogonal neighbour in ``b``."""
    b_set = {parse_square(s) for s in b}
    out = []
    for name in a:
        pos = parse_square(name)
        if pos is None:
            continue
        c, r = pos
        for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            if (c + dc, r + dr) in b_set:
                other = square_name(c + dc, r + dr)
                first, second = sorted((name, other), key=lambda s: parse_square(s) or (0, 0))
                out.append(f"{first}-{second}")
    return sorted(set(out))


def draw(
    view: dict[str, Any],
    *,
    targets: dict[str, Any] | None = None,
    draft: dict[str, Any] | None = None,
    link: Callable[[str], str] | None = None,
) -> Drawing:
    """Return the drawing of ``view``'s board.

    Args:
        view: ``engine.view(state, viewer)`` (or of a previewed position).
        targets: the engine's ``targets`` answer for the viewer's draft:
            its ``choices`` become clickable, as squares or as edges.
        draft: the move being built, whose squares and edges are marked;
            values of the wrong type (it comes from the client) are not drawn.
        link: choice -> the URL a click on it goes to.
    """
    d = Drawing()
    rows = view.get("board") or []
    for r, line in enumerate(rows):
        for c, letter in enumerate(line):
            css, label = TERRAIN.get(letter, ("meadow", ""))
            d.squares.append(
                {"name": square_name(c, r), "x": RIM + c * CELL, "y": RIM + r * CELL, "terrain": css, "label": label}
            )
    for dom in view.get("domains") or []:
        colour = colour_of(dom.get("owner"))
        for s in dom.get("squares") or []:
            x, y = square_xy(s)
            d.shading.append({"x": x, "y": y, "colour": colour})
    d.borders = [line for e in view.get("borders") or [] if (line := edge_line(e))]
    by_castle = {dom["castle"]: dom for dom in view.get("domains") or []}
    for a, b in view.get("alliances") or []:
        if a in by_castle and b in by_castle:
            shared = set(_shared_edges(by_castle[a]["squares"], by_castle[b]["squares"]))
            d.alliance_edges += [line for e in sorted(shared) if (line := edge_line(e))]
    allied = {c for pair in view.get("alliances") or [] for c in pair}
    for s, owner in sorted((view.get("castles") or {}).items()):
        x, y = square_xy(s)
        d.castles.append(
            {
                "name": s,
                "x": x,
                "y": y,
                "colour": colour_of(owner),
                "mark": mark_of(owner),
                "domain": s in by_castle,
                "allied": s in allied,
            }
        )
    for s, owner in sorted((view.get("knights") or {}).items()):
        x, y = square_xy(s)
        d.knights.append({"name": s, "x": x, "y": y, "colour": colour_of(owner), "mark": mark_of(owner)})
    d.col_labels = [(COLS[c], RIM + c * CELL + CELL // 2) for c in range(SIZE)]
    d.row_labels = [(str(r + 1), RIM + r * CELL + CELL // 2) for r in range(SIZE)]
    if draft:
        for key in ("at", "knight", "knights", "squares", "domain", "remove", "with"):
            value = draft.get(key)
            for s in value if isinstance(value, list) else [value]:
                if isinstance(s, str) and parse_square(s):
                    x, y = square_xy(s)
                    d.draft_squares.append({"name": s, "x": x, "y": y, "part": key})
        # The draft comes from the client: ``parse_draft`` checks its shape, but the drawing must not
        # depend on that (a hand-edited ``"borders": true`` once crashed the page here).
        borders = draft.get("borders")
        edges = borders if isinstance(borders, list) else []
        d.draft_edges = [line for e in edges if isinstance(e, str) and (line := edge_line(e))]
    if targets and targets.get("part") and link is not None:
        choices = targets.get("choices")
        for choice in choices if isinstance(choices, list) else []:
            if not isinstance(choice, str):
                continue
            if "-" in choice:
                points, line = edge_diamond(choice), edge_line(choice)
                if points:
                    d.edge_targets.append(Target(choice, link(choice), points=points, label=choice, line=line))
            elif parse_square(choice):
                x, y = square_xy(choice)
                d.square_targets.append(Target(choice, link(choice), x=x, y=y, label=choice))
    return d


def edges_by_square(edges: Iterable[str]) -> dict[str, list[str]]:
    """Group edge names by each of their two squares: square -> the edges on its sides, in order."""
    out: dict[str, list[str]] = {}
    for edge in edges:
        ends = edge.split("-") if isinstance(edge, str) else []
        if len(ends) == 2 and all(parse_square(e) for e in ends):
            for sq in ends:
                out.setdefault(sq, []).append(edge)
    return out


def too_near(castles: Iterable[str], distance: int) -> list[dict[str, Any]]:
    """Squares closer than ``distance`` (|dx| + |dy|) to any of ``castles``, as drawing corners.

    Presentation of the engine's number: the distance in force comes from
    the open setup decision (``params["distance"]``), which the engine
    computes; this only draws where it rules squares out.
    """
    spots = [p for c in castles if (p := parse_square(c))]
    out = []
    for col in range(SIZE):
        for row in range(SIZE):
            if any(abs(col - c) + abs(row - r) < distance for c, r in spots):
                x, y = square_xy(square_name(col, row))
                out.append({"x": x, "y": y, "name": square_name(col, row)})
    return out


def draft_json(draft: dict[str, Any] | None) -> str:
    """Return a draft as compact JSON (for hidden inputs and query strings)."""
    return json.dumps(draft or {}, separators=(",", ":"), ensure_ascii=False)


#: The parts of a ``play`` that put something on the board (``domain`` alone only names a domain).
PLACING_PARTS = ("borders", "knights", "squares", "remove", "knight", "with")
#: The form field that says "yes, play this card without using it"; the move itself is unchanged.
EMPTY_PLAY_FIELD = "play_empty"


def places_nothing(move: Any) -> bool:
    """True for a ``play`` that puts nothing on the board: legal (every action is "up to"), but the
    card and its cost are spent for nothing, so the page asks the player to say so on purpose.

    Only a play that names a card: without one (``"card": null``) the move is
    not a play of anything, and the engine's refusal says what is missing."""
    return (
        isinstance(move, dict)
        and move.get("act") == "play"
        and isinstance(move.get("card"), str)
        and bool(move["card"])
        and not any(move.get(k) for k in PLACING_PARTS)
    )


def unconfirmed_empty_play(move: Any, post: Any) -> str | None:
    """Refuse a play that places nothing unless the form ticked ``EMPTY_PLAY_FIELD``; None lets the move go on.

    Legal, but it spends the card for nothing: only on purpose (the page's
    tick box), never by a stray click on Confirm. A check of the page, not
    of the rules, so the engine and the move's form are unchanged.
    """
    from django.utils.translation import gettext as _

    if places_nothing(move) and post.get(EMPTY_PLAY_FIELD) != "1":
        return _("This play places nothing: place something first, or tick the box to play the card anyway.")
    return None


#: The four sides of a square, in reading order for a cross of buttons: (key, column step, row step).
SIDES = (("top", 0, -1), ("left", -1, 0), ("right", 1, 0), ("bottom", 0, 1))


def focus_sides(square: str, edges: Iterable[str], link: Callable[[str], str]) -> list[dict[str, Any]]:
    """The four sides of ``square`` as large buttons: which may take a border now, and where each leads.

    On a phone a side drawn on the board is a few pixels thick; after the
    player chose the square, these are the finger-sized way to pick its side.

    Args:
        square: the chosen square ("C7").
        edges: the legal border edges on its sides (names like "C7-C8").
        link: edge name -> the URL that adds it to the draft.

    Returns:
        Four dicts (top, left, right, bottom) with ``side`` (that key),
        ``edge`` (the edge name, or "" at the board's rim) and ``url`` ("" when
        no border may go there).
    """
    pos = parse_square(square)
    legal = set(edges)
    out = []
    for side, dc, dr in SIDES:
        edge = ""
        if pos is not None and 0 <= pos[0] + dc < SIZE and 0 <= pos[1] + dr < SIZE:
            other = square_name(pos[0] + dc, pos[1] + dr)
            first, second = sorted((square, other), key=lambda s: parse_square(s) or (0, 0))
            edge = f"{first}-{second}"
        out.append({"side": side, "edge": edge, "url": link(edge) if edge in legal else ""})
    return out
