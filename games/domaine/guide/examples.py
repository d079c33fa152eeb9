"""Small Domaine positions drawn on the rules page, measured by the engine itself.

Each example is a real engine ``Board`` (a 12x12 board of which the page
shows a corner): its domains, score and income come from
``Board.derived()``, the same code that scores games, so the page's numbers
cannot disagree with the rules. The drawing is the board's own
(``games.domaine.board.draw``), cropped to the corner shown.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

from games.domaine.board import CELL, RIM, Drawing, draw, parse_square, square_xy
from games.engine.domaine import rules
from games.engine.domaine.board import SQ_INDEX, Board, edge_between, terrain_from_rows
from games.engine.domaine.engine import public_position
from games.engine.domaine.state import PLAY, SETUP


@dataclass
class Example:
    """A drawn corner of a board and what the engine says of it.

    Attributes:
        drawing: the board's drawing (``games.domaine.board.Drawing``).
        viewbox: the SVG viewBox of the corner shown ("x y width height").
        marks: extra text drawn on squares: ``{"x", "y", "text"}`` (SVG units, the square's corner).
        zone: squares tinted as a zone (the distance rule's "too near"), as ``{"x", "y"}``.
        score, income: the engine's score and income of seat 0 (the orange player).
        facts: numbers the caption quotes (counted from the same board).
    """

    drawing: Drawing
    viewbox: str
    marks: list[dict[str, Any]] = field(default_factory=list)
    zone: list[dict[str, Any]] = field(default_factory=list)
    score: int = 0
    income: int = 0
    facts: dict[str, int] = field(default_factory=dict)


def _board(rows: list[str]) -> Board:
    """A board whose top-left corner is ``rows`` (meadows elsewhere)."""
    full = [(r + "." * 12)[:12] for r in rows] + ["." * 12] * (12 - len(rows))
    return Board(terrain_from_rows(full))


def _viewbox(cols: int, rows: int) -> str:
    pad = 4
    return f"{RIM - pad} {RIM - pad} {cols * CELL + 2 * pad} {rows * CELL + 2 * pad}"


def _drawn(board: Board, step: str = PLAY) -> Drawing:
    # public_position reads only the board, the step and the alliances of a state (in setup: no domains).
    view = public_position(SimpleNamespace(board=board, step=step, alliances=[]))  # type: ignore[arg-type]
    drawing = draw(view)
    drawing.col_labels = drawing.row_labels = []
    return drawing


def domain_example() -> Example:
    """A closed domain in a corner: a castle, a knight, borders on two sides and the rim on the others.

    What it shows: only squares inside a closed domain score; forests 1, villages 3, meadows 0; the two
    castles of other colours outside share one area, open land, which scores nothing.
    """
    board = _board([".F.V..", "F..F..", "......", "V..F..", "..F...", "......"])
    board.set_castle(SQ_INDEX["B2"], 0)
    board.set_knight(SQ_INDEX["C2"], 0)
    board.set_castle(SQ_INDEX["F3"], 1)
    board.set_castle(SQ_INDEX["C6"], 2)
    for a, b in (
        ("D1", "E1"),
        ("D2", "E2"),
        ("D3", "E3"),
        ("D4", "E4"),
        ("A4", "A5"),
        ("B4", "B5"),
        ("C4", "C5"),
        ("D4", "D5"),
    ):
        board.add_border(edge_between(SQ_INDEX[a], SQ_INDEX[b]))
    d = board.derived()
    (domain,) = [dom for dom in d.domains.values() if dom.owner == 0]
    terrain = [board.terrain[s] for s in domain.squares]
    return Example(
        drawing=_drawn(board),
        viewbox=_viewbox(6, 6),
        score=d.scores[0],
        income=d.income(0),
        facts={
            "squares": len(domain.squares),
            "forests": terrain.count(rules.FOREST),
            "villages": terrain.count(rules.VILLAGE),
            "borders": board.borders_on_board,
        },
    )


def distance_example(distance: int = 6) -> Example:
    """One castle and, tinted, the squares closer than ``distance`` to it (|dx| + |dy|), where no other
    castle of its colour may stand; each square shows its distance."""
    board = _board([])
    centre = "F6"
    board.set_castle(SQ_INDEX[centre], 0)
    cc, cr = parse_square(centre) or (0, 0)
    marks, zone = [], []
    for col in range(11):
        for row in range(11):
            far = abs(col - cc) + abs(row - cr)
            name = f"{'ABCDEFGHIJKL'[col]}{row + 1}"
            x, y = square_xy(name)
            if far and far < distance:
                zone.append({"x": x, "y": y})
            if far:
                marks.append({"x": x, "y": y, "text": str(far), "far": far >= distance})
    return Example(
        drawing=_drawn(board, SETUP), viewbox=_viewbox(11, 11), marks=marks, zone=zone, facts={"distance": distance}
    )
