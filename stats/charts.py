"""Server-drawn line charts of a finished game's per-turn numbers (SVG, no JavaScript).

A :class:`LineChart` is plain geometry for ``stats/_line_chart.html``: one
polyline per seat over turns, axis labels, and the same numbers as rows
for the table beside it (screen readers and anyone who wants the figures).
Seats are told apart by colour and by dash pattern and marker, so the
chart reads in grey too.
"""

from __future__ import annotations

from dataclasses import dataclass

#: The SVG's box: wide and short enough to stay legible when scaled to a phone.
WIDTH, HEIGHT = 440, 240
LEFT, RIGHT, TOP, BOTTOM = 40, 16, 14, 30


@dataclass(frozen=True, slots=True)
class Line:
    """One seat's polyline: ``points`` is the SVG attribute, ``seat`` picks its style."""

    seat: int
    name: str
    points: str
    last_x: float
    last_y: float
    last: int


@dataclass(frozen=True, slots=True)
class Tick:
    """An axis label at a position in the box."""

    at: float
    label: int


@dataclass(frozen=True, slots=True)
class LineChart:
    """A chart of one measure (victory points, money...) per seat per turn.

    Attributes:
        title: what is measured (already translated).
        lines: one per seat.
        x_ticks, y_ticks: axis labels (turns; the measure's values).
        rows: ``(turn, [value per seat or None])`` for the table.
        ends: the last row is the end of the game rather than a turn (a game's final count).
        width, height: the SVG box; left/bottom: where the axes are drawn.
    """

    title: str
    lines: list[Line]
    x_ticks: list[Tick]
    y_ticks: list[Tick]
    rows: list[tuple[int, list[int | None]]]
    ends: bool = False
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    bottom: int = HEIGHT - BOTTOM
    right: int = WIDTH - RIGHT


def _ticks(lo: int, hi: int, count: int = 5) -> list[int]:
    """Round tick values covering [lo, hi] (steps of 1, 2, 5 times a power of ten)."""
    span = max(1, hi - lo)
    raw = span / count
    step = 1
    while step * 10 <= raw:
        step *= 10
    for m in (1, 2, 5, 10):
        if step * m >= raw:
            step *= m
            break
    first = (lo // step) * step
    return list(range(first, hi + step, step))


def line_chart(
    title: str, names: list[str], series: list[list[int]], *, first_turn: int = 0, ends: bool = False
) -> LineChart | None:
    """Draw ``series`` (per seat, one value per turn, the first at ``first_turn``) as a :class:`LineChart`.

    Returns None when there is nothing to draw.
    """
    if not series or not any(series):
        return None
    values = [v for s in series for v in s]
    y_ticks = _ticks(min(0, min(values)), max(values))
    lo, hi = y_ticks[0], y_ticks[-1]
    longest = max(len(s) for s in series)
    last_turn = first_turn + longest - 1
    inner_w = WIDTH - LEFT - RIGHT
    inner_h = HEIGHT - TOP - BOTTOM

    def x(turn: int) -> float:
        return round(LEFT + inner_w * (turn - first_turn) / max(1, last_turn - first_turn), 1)

    def y(v: int) -> float:
        return round(TOP + inner_h * (hi - v) / max(1, hi - lo), 1)

    lines = []
    for seat, s in enumerate(series):
        if not s:
            continue
        pts = " ".join(f"{x(first_turn + i)},{y(v)}" for i, v in enumerate(s))
        end = first_turn + len(s) - 1
        lines.append(Line(seat, names[seat] if seat < len(names) else str(seat + 1), pts, x(end), y(s[-1]), s[-1]))
    x_values = [t for t in _ticks(first_turn, last_turn, 8) if t >= first_turn]
    rows = [
        (turn, [s[turn - first_turn] if turn - first_turn < len(s) else None for s in series])
        for turn in range(first_turn, last_turn + 1)
    ]
    return LineChart(
        title=title,
        lines=lines,
        x_ticks=[Tick(x(t), t) for t in x_values if t <= last_turn],
        y_ticks=[Tick(y(v), v) for v in y_ticks],
        rows=rows,
        ends=ends,
    )
