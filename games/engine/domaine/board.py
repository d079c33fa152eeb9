"""The Domaine board: squares, edges, pieces, borders and what follows from them.

Squares are numbered ``col * 12 + (row - 1)``, so sorting square numbers
gives the notation's order (column letter, then row as a number). Edges are
numbered in the notation's order too (first square, then second).

Areas, domains, neutral zones and scores are never stored by hand: they are
*derived* from the pieces and borders (``Board.derived()``) and cached until
the board changes. A new border updates the cached areas locally (a
two-sided search that stops as soon as the two squares meet again or the
smaller side runs out), so placing borders never floods the whole board.
"""

from __future__ import annotations

import functools
import json
from bisect import bisect_left
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from games.engine.core import IllegalMove, Rng
from games.engine.domaine import rules

N = rules.SIZE
NSQ = N * N
COLS = "ABCDEFGHIJKL"
_DATA = Path(__file__).with_name("data")

#: Square number -> name ("C7").
SQ_NAME: list[str] = [COLS[i // N] + str(i % N + 1) for i in range(NSQ)]
SQ_INDEX: dict[str, int] = {name: i for i, name in enumerate(SQ_NAME)}


def _neighbours(i: int) -> list[int]:
    c, r = divmod(i, N)
    out = []
    if c > 0:
        out.append(i - N)
    if r > 0:
        out.append(i - 1)
    if r < N - 1:
        out.append(i + 1)
    if c < N - 1:
        out.append(i + N)
    return out


#: Edges as (smaller square, larger square), in notation order.
EDGES: list[tuple[int, int]] = sorted({(min(a, b), max(a, b)) for a in range(NSQ) for b in _neighbours(a)})
NEDGES = len(EDGES)
EDGE_ID: dict[tuple[int, int], int] = {e: k for k, e in enumerate(EDGES)}
EDGE_NAME: list[str] = [SQ_NAME[a] + "-" + SQ_NAME[b] for a, b in EDGES]
#: Per square: list of (neighbour square, edge number).
ADJ: list[tuple[tuple[int, int], ...]] = [
    tuple((b, EDGE_ID[(min(a, b), max(a, b))]) for b in _neighbours(a)) for a in range(NSQ)
]
#: Per square: its orthogonal neighbours.
NEIGHBOURS: list[tuple[int, ...]] = [tuple(b for b, _ in ADJ[a]) for a in range(NSQ)]


def parse_square(text: Any) -> int:
    """Return the number of square ``text`` ("C7").

    Raises:
        IllegalMove: not a square of the 12x12 board (code ``bad_square``).
    """
    # The names are the keys: one dict look-up. (The pattern's ``$`` also matched a name with a line end,
    # which then failed the look-up with a KeyError: a crash, not a refusal.)
    i = SQ_INDEX.get(text) if isinstance(text, str) else None
    if i is None:
        raise IllegalMove(f"{text!r} is not a square of the board (A1 to L12).", "bad_square")
    return i


def parse_edge(text: Any) -> int:
    """Return the number of edge ``text`` ("C7-C8").

    Rule (notation): an edge is named by its two squares, the smaller first
    (column letter first, then row as a number: ``A9-A10``, ``C7-D7``), and
    that is how the engine writes every edge it reports. A move naming the
    larger square first (``C8-C7``) still means that edge: the notation does
    not call it an error, and logs made while the text form sent edges as
    typed must keep replaying.

    Raises:
        IllegalMove: not two orthogonally adjacent squares (code
            ``bad_edge``); the rim of the board is not an edge.
    """
    if not isinstance(text, str) or text.count("-") != 1:
        raise IllegalMove(f"{text!r} is not an edge: name two adjacent squares, as C7-C8.", "bad_edge")
    a, b = (parse_square(p) for p in text.split("-"))
    key = (min(a, b), max(a, b))
    if key not in EDGE_ID:
        raise IllegalMove(f"{text} is not an edge: {SQ_NAME[a]} and {SQ_NAME[b]} are not side by side.", "bad_edge")
    return EDGE_ID[key]


def edge_between(a: int, b: int) -> int:
    """Return the edge number between adjacent squares ``a`` and ``b``."""
    return EDGE_ID[(a, b) if a < b else (b, a)]


def colour_name(colour: int) -> int | str:
    """Return a colour as the notation names it: a seat, or ``"neutral"``."""
    return "neutral" if colour == rules.NEUTRAL else colour


# --- Data ---------------------------------------------------------------------


def load_tiles() -> tuple[str, dict[str, list[str]]]:
    """Return (centre tile id, {tile id: 4 rows}) from ``data/tiles.json``.

    The file is read once per process (every deal used to read and parse it
    again); each call returns its own lists, so a caller may change them."""
    centre, tiles = _tiles_file()
    return centre, {tid: list(rows) for tid, rows in tiles.items()}


@functools.cache
def _tiles_file() -> tuple[str, dict[str, tuple[str, ...]]]:
    data = json.loads((_DATA / "tiles.json").read_text(encoding="utf-8"))
    return data["centre"], {tid: tuple(rows) for tid, rows in data["tiles"].items()}


def _turn(rows: list[str], quarter_turns: int) -> list[str]:
    """Return a square tile turned clockwise ``quarter_turns`` times."""
    for _ in range(quarter_turns % 4):
        n = len(rows)
        rows = ["".join(rows[n - 1 - c][r] for c in range(n)) for r in range(n)]
    return rows


def deal_terrain(rng: Rng) -> str:
    """Deal the board from the game's rng (rule: centre tile in the centre,
    randomly turned; the other 8 shuffled into the outer places, each turned).

    Returns the terrain as a 144-character string indexed by square number.
    """
    centre, tiles = load_tiles()
    outer = sorted(t for t in tiles if t != centre)
    rng.shuffle(outer)
    places = [(tr, tc) for tr in range(3) for tc in range(3) if (tr, tc) != (1, 1)]
    layout = {(1, 1): centre, **dict(zip(places, outer, strict=True))}
    grid = [[""] * N for _ in range(N)]
    for (tr, tc), tid in sorted(layout.items()):
        rows = _turn(tiles[tid], rng.randrange(4))
        for r in range(rules.TILE):
            for c in range(rules.TILE):
                grid[tr * rules.TILE + r][tc * rules.TILE + c] = rows[r][c]
    return terrain_from_rows(["".join(row) for row in grid])


def terrain_from_rows(rows: list[str]) -> str:
    """Convert 12 row strings (row 1 first, column A first) to a terrain string.

    Raises:
        ValueError: not 12 rows of 12 known terrain letters.
    """
    if not isinstance(rows, list) or len(rows) != N or any(not isinstance(r, str) or len(r) != N for r in rows):
        raise ValueError("a board is 12 strings of 12 terrain letters")
    if any(ch not in rules.TERRAINS for r in rows for ch in r):
        raise ValueError("unknown terrain letter in board")
    return "".join(rows[i % N][i // N] for i in range(NSQ))


def terrain_rows(terrain: str) -> list[str]:
    """Return the terrain as 12 row strings (row 1 first)."""
    return ["".join(terrain[c * N + r] for c in range(N)) for r in range(N)]


# --- Derived facts --------------------------------------------------------------


@dataclass(slots=True)
class Domain:
    """A domain: an area holding exactly one castle.

    Attributes:
        castle: the castle's square (names the domain).
        owner: the castle's colour (seat, or ``rules.NEUTRAL``).
        area: the area number in ``Derived.label``.
        squares: the area's squares, sorted.
        knights: the owner's knights standing in it.
    """

    castle: int
    owner: int
    area: int
    squares: list[int]
    knights: int


_SQUARE_TERRAIN: dict[str, tuple[list[int], list[str]]] = {}


def _square_terrain(terrain: str) -> tuple[list[int], list[str]]:
    """Per square, its points in a domain and its mine letter ("" for none),
    memoised per board (the terrain never changes in a game)."""
    got = _SQUARE_TERRAIN.get(terrain)
    if got is None:
        if len(_SQUARE_TERRAIN) > 64:
            _SQUARE_TERRAIN.clear()
        got = _SQUARE_TERRAIN[terrain] = (
            [rules.SQUARE_POINTS[t] for t in terrain],
            [t if t in rules.MINES else "" for t in terrain],
        )
    return got


class Derived:
    """What follows from a board: areas, domains, neutral zones, scores.

    Attributes:
        label: area number per square.
        areas: area number -> its squares (sorted).
        castles: area number -> castle squares in it.
        domain_at: per square, the castle square of its domain, or -1.
        domains: castle square -> Domain, for every domain.
        scores: per colour (index 0..4), the live score.
        mines: per colour, count of each mine kind in its domains.
        cache: facts the rules and bots work out from these on demand
            (``actions.legal_border_mask``, ``bots.plans``), kept with them
            because they hold exactly as long as the pieces and areas do.
    """

    __slots__ = ("label", "areas", "castles", "domain_at", "domains", "scores", "mines", "cache")

    def __init__(self, board: Board, label: list[int], areas: list[list[int]]) -> None:
        self.label = label
        self.areas = areas
        self.cache: dict[str, Any] = {}
        castle = board.castle
        knight = board.knight
        # Castles per area, each list in square order: walk the castles, not every square.
        castles: list[list[int]] = [[] for _ in areas]
        for s in board.castle_squares():
            castles[label[s]].append(s)
        self.castles = castles
        domain_at = [-1] * NSQ
        domains: dict[int, Domain] = {}
        scores = [0] * (rules.NEUTRAL + 1)
        mines = [dict.fromkeys(rules.MINES, 0) for _ in range(rules.NEUTRAL + 1)]
        points, mine_at = _square_terrain(board.terrain)
        owners = set()
        for a, cs in enumerate(self.castles):
            if len(cs) != 1:
                continue
            c = cs[0]
            owner = castle[c]
            squares = areas[a]
            k = 0
            score = 0
            mc = mines[owner]
            for s in squares:
                domain_at[s] = c
                if knight[s] == owner:
                    k += 1
                score += points[s]
                m = mine_at[s]
                if m:
                    mc[m] += 1
            scores[owner] += score
            owners.add(owner)
            domains[c] = Domain(c, owner, a, squares, k)
        # A colour without domains has no mines: only the owners can have a majority.
        for colour in owners:
            mc = mines[colour]
            for m in rules.MINES:
                if mc[m] >= rules.MINE_MAJORITY:
                    scores[colour] += rules.MINE_MAJORITY_POINTS
        self.domain_at = domain_at
        self.domains = domains
        self.scores = scores
        self.mines = mines

    def neutral_zones(self) -> list[list[int]]:
        """Return the neutral zones (areas with no castle), each sorted, by first square."""
        return sorted(sq for sq, cs in zip(self.areas, self.castles, strict=True) if not cs)

    def income(self, colour: int) -> int:
        """Return the income of ``colour``: 1 per different mine kind in its domains."""
        return rules.INCOME_PER_MINE_KIND * sum(1 for v in self.mines[colour].values() if v)


def _label_areas(border: bytearray) -> tuple[list[int], list[list[int]]]:
    """Flood the board once: return (area per square, squares per area)."""
    label = [-1] * NSQ
    areas: list[list[int]] = []
    for start in range(NSQ):
        if label[start] >= 0:
            continue
        a = len(areas)
        label[start] = a
        members = [start]
        stack = [start]
        while stack:
            s = stack.pop()
            for t, e in ADJ[s]:
                if label[t] < 0 and not border[e]:
                    label[t] = a
                    members.append(t)
                    stack.append(t)
        members.sort()
        areas.append(members)
    return label, areas


def _loops() -> list[list[tuple[int, int, int]]]:
    """Per edge a-b, the other three edges of each 2x2 block holding it: (a-a2, a2-b2, b2-b)."""
    out = []
    for a, b in EDGES:
        loops = []
        for a2 in NEIGHBOURS[a]:
            for b2 in NEIGHBOURS[b]:
                if a2 != b and b2 != a and b2 in NEIGHBOURS[a2]:
                    loops.append((edge_between(a, a2), edge_between(a2, b2), edge_between(b2, b)))
        out.append(loops)
    return out


_LOOPS = _loops()


def split_side(border: bytearray, a: int, b: int) -> list[int] | None:
    """If a border on the (free) edge a-b would cut their area in two, return
    the smaller side's squares; else ``None``.

    Searches from both squares at once, one square at a time, so it stops
    after the smaller side is exhausted or as soon as the two searches meet.
    The edge a-b itself is treated as bordered.
    """
    e_ab = edge_between(a, b)
    for e1, e2, e3 in _LOOPS[e_ab]:
        # a and b stay joined around a 2x2 block with its other three edges free: no split.
        if not (border[e1] or border[e2] or border[e3]):
            return None
    seen = {a: 0, b: 1}
    stacks = ([a], [b])
    sides: tuple[list[int], list[int]] = ([a], [b])
    while True:
        for side in (0, 1):
            stack = stacks[side]
            if not stack:
                return sorted(sides[side])
            s = stack.pop()
            for t, e in ADJ[s]:
                if border[e] or e == e_ab:
                    continue
                got = seen.get(t)
                if got is None:
                    seen[t] = side
                    sides[side].append(t)
                    stack.append(t)
                elif got != side:
                    return None


def _ring() -> list[tuple[tuple[int, int, int, int, int], ...]]:
    """Per square s, its diagonal squares q as ``(q, t1, t2, e1, e2)``: t1 and t2
    are the two orthogonal neighbours of s next to q, e1 the edge t1-q, e2 q-t2."""
    out = []
    for s in range(NSQ):
        c, r = divmod(s, N)
        links = []
        for dc, dr in ((-1, -1), (-1, 1), (1, -1), (1, 1)):
            if 0 <= c + dc < N and 0 <= r + dr < N:
                q = (c + dc) * N + r + dr
                t1, t2 = (c + dc) * N + r, c * N + r + dr
                links.append((q, t1, t2, edge_between(t1, q), edge_between(q, t2)))
        out.append(tuple(links))
    return out


_RING = _ring()


def _joined_around(border: bytearray, label: list[int], area: int, centre: int, targets: list[int]) -> bool:
    """True if the ``targets`` (orthogonal neighbours of ``centre``) are joined
    inside ``area`` through the diagonal squares around ``centre`` alone.

    A cheap sufficient test: False only means "not around the corner", and the
    caller then searches the area. ``centre`` itself is never used as a step.
    """
    group = {t: t for t in targets}
    groups = len(group)
    for q, t1, t2, e1, e2 in _RING[centre]:
        if label[q] != area or border[e1] or border[e2]:
            continue
        g1, g2 = group.get(t1), group.get(t2)
        if g1 is None or g2 is None or g1 == g2:
            continue
        for t, g in group.items():
            if g == g2:
                group[t] = g1
        groups -= 1
        if groups == 1:
            # All joined: the corners left cannot part them.
            return True
    return groups == 1


def parts_without(
    border: bytearray, label: list[int], area: int, members: list[int], skip: int, seeds: list[int]
) -> list[list[int]] | None:
    """The parts area ``area`` falls into without square ``skip``, or ``None`` if it holds together.

    ``members`` are the area's squares (sorted, ``skip`` among them), ``seeds`` its squares next to
    ``skip`` (every part holds one). Returns the parts' squares, each sorted,
    ordered by first square: the parts a flood of the area without ``skip``
    finds, in the order a flood from each smallest square left finds them.

    One search per seed, taking turns square by square; two that meet join.
    It stops as soon as every seed is joined (no split), or when all
    searches but one have run out: that one's part is the rest of the area,
    read off ``members`` without searching it. The usual split cuts a small
    pocket off a large area, so only the pocket is searched.
    """
    k = len(seeds)
    owner = dict(zip(seeds, range(k), strict=True))
    root = list(range(k))
    stacks = [[t] for t in seeds]
    found = [[t] for t in seeds]
    live = list(range(k))
    groups = k
    while len(live) > 1:
        for r in live[:]:
            if root[r] != r:
                continue
            stack = stacks[r]
            q = stack.pop()
            for t, e in ADJ[q]:
                if border[e] or t == skip or label[t] != area:
                    continue
                o = owner.get(t)
                if o is None:
                    owner[t] = r
                    stack.append(t)
                    found[r].append(t)
                    continue
                while root[o] != o:
                    o = root[o]
                if o != r:
                    # Two searches met: one part. Fold o's search into r's.
                    root[o] = r
                    stack.extend(stacks[o])
                    found[r].extend(found[o])
                    if o in live:
                        live.remove(o)
                    groups -= 1
                    if groups == 1:
                        return None
            if not stack:
                live.remove(r)
    if groups == 1:
        return None
    done = [r for r in range(k) if root[r] == r and r not in live]
    parts = [sorted(found[r]) for r in done]
    if live:
        # The rest: the area's sorted list without skip and the parts found, deleted by bisection.
        rest = members[:]
        for q in (skip, *(q for r in done for q in found[r])):
            del rest[bisect_left(rest, q)]
        parts.append(rest)
    parts.sort()
    return parts


def _reaches_all(
    border: bytearray,
    label: list[int],
    area: int,
    targets: list[int],
    skip: int | None = None,
    centre: int | None = None,
) -> bool:
    """True if a search inside ``area`` from ``targets[0]`` reaches every other target.

    Breadth-first, so when the targets are close (the usual case: the
    squares around one square) it stops after a few squares. ``skip`` is a
    square the search must go around (a square about to change hands).
    ``centre``: the targets are orthogonal neighbours of that square (which
    is ``skip`` or outside ``area``), so first try joining them around its
    corners, which settles most calls without a search.
    """
    want = set(targets[1:])
    if not want:
        return True
    if centre is not None and _joined_around(border, label, area, centre, targets):
        return True
    start = targets[0]
    seen = {start} if skip is None else {start, skip}
    frontier = [start]
    while frontier:
        nxt = []
        for q in frontier:
            for t, e in ADJ[q]:
                if t not in seen and not border[e] and label[t] == area:
                    seen.add(t)
                    if t in want:
                        want.discard(t)
                        if not want:
                            return True
                    nxt.append(t)
        frontier = nxt
    return False


class Board:
    """Terrain, pieces and borders; the rest is derived on demand.

    Attributes:
        terrain: 144 terrain letters by square number (never changes).
        castle: per square, the colour of its castle or -1.
        knight: per square, the colour of its knight or -1.
        border: per edge, 1 if a border marker stands on it.
        borders_on_board: number of markers on the board.

    Three caches, never part of the game's data: the partition into areas
    (``_la``: label per square, squares per area), kept up to date locally
    when a border is added or a square changes domain, the ``Derived``
    facts built from it (``_d``), dropped whenever a piece or border moves,
    and the castle squares (``_cs``), dropped when a castle is placed.
    """

    __slots__ = ("terrain", "castle", "knight", "border", "borders_on_board", "_la", "_d", "_cs")

    def __init__(self, terrain: str) -> None:
        self.terrain = terrain
        self.castle = [-1] * NSQ
        self.knight = [-1] * NSQ
        self.border = bytearray(NEDGES)
        self.borders_on_board = 0
        self._la: tuple[list[int], list[list[int]]] | None = None
        self._d: Derived | None = None
        self._cs: tuple[int, ...] | None = None

    def copy(self) -> Board:
        """Return an independent copy (caches are shared: they are never mutated, only replaced)."""
        b = Board.__new__(Board)
        b.terrain = self.terrain
        b.castle = self.castle[:]
        b.knight = self.knight[:]
        b.border = bytearray(self.border)
        b.borders_on_board = self.borders_on_board
        b._la = self._la
        b._d = self._d
        b._cs = self._cs
        return b

    def __getstate__(self) -> tuple[str, list[int], list[int], bytes, int]:
        return (self.terrain, self.castle, self.knight, bytes(self.border), self.borders_on_board)

    def __setstate__(self, st: tuple[str, list[int], list[int], bytes, int]) -> None:
        self.terrain, self.castle, self.knight, border, self.borders_on_board = st
        self.border = bytearray(border)
        self._la = None
        self._d = None
        self._cs = None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and self.__getstate__() == other.__getstate__()

    # -- derived --
    def derived(self) -> Derived:
        """Return the areas, domains and scores of the board as it stands."""
        d = self._d
        if d is None:
            if self._la is None:
                self._la = _label_areas(self.border)
            d = self._d = Derived(self, *self._la)
        return d

    def derived_from_scratch(self) -> Derived:
        """Recompute everything with one full flood (for tests of the caches)."""
        label, areas = _label_areas(self.border)
        return Derived(self, label, areas)

    # -- changes --
    def add_border(self, e: int) -> None:
        """Put a marker on edge ``e`` and update the areas locally."""
        a, b = EDGES[e]
        la = self._la
        side = split_side(self.border, a, b) if la is not None else None
        self.border[e] = 1
        self.borders_on_board += 1
        if la is None or side is None:
            # No cache, or the same partition: pieces and terrain unchanged, so all derived facts hold.
            return
        label, areas = la[0][:], la[1][:]
        old = label[a]
        new = len(areas)
        side_set = set(side)
        for s in side:
            label[s] = new
        areas[old] = [s for s in areas[old] if s not in side_set]
        areas.append(side)
        self._la = (label, areas)
        self._d = None

    def remove_border(self, e: int) -> None:
        """Take the marker off edge ``e`` (back to the supply)."""
        self.border[e] = 0
        self.borders_on_board -= 1
        self._la = None
        self._d = None

    def move_square(self, s: int, removed: list[int], added: list[int]) -> None:
        """Move square ``s`` into the area across the ``removed`` edges, putting
        markers on the ``added`` edges (expansion). Updates the areas locally:
        ``s`` joins its new area, and only what is left of its old area is
        searched again (it may fall apart into several areas: ``parts_without``)."""
        la = self._la
        for e in removed:
            self.border[e] = 0
        for e in added:
            self.border[e] = 1
        self.borders_on_board += len(added) - len(removed)
        self._d = None
        if la is None or not removed:
            self._la = None
            return
        label, areas = la[0][:], la[1][:]
        a, b = EDGES[removed[0]]
        dest = label[b] if a == s else label[a]
        old = label[s]
        label[s] = dest
        areas[dest] = sorted(areas[dest] + [s])
        border = self.border
        # Squares of the old area that touched s: if one search from the first
        # reaches all the others, what is left of the old area holds together.
        touching = [t for t, e in ADJ[s] if label[t] == old]
        parts = []
        if touching:
            got = None
            if not _joined_around(border, label, old, s, touching):
                got = parts_without(border, label, old, areas[old], s, touching)
            if got is None:
                areas[old] = [q for q in areas[old] if q != s]
                self._la = (label, areas)
                return
            parts = got
        if parts:
            areas[old] = parts[0]
            for part in parts[1:]:
                k = len(areas)
                areas.append(part)
                for q in part:
                    label[q] = k
        else:
            # The old area was just this square: move the last area into its slot.
            last = areas.pop()
            if old < len(areas):
                areas[old] = last
                for q in last:
                    label[q] = old
        self._la = (label, areas)

    def set_castle(self, s: int, colour: int) -> None:
        """Put a castle of ``colour`` on square ``s``."""
        self.castle[s] = colour
        self._d = None
        self._cs = None

    def set_knight(self, s: int, colour: int) -> None:
        """Put a knight of ``colour`` on ``s`` (-1 removes the knight)."""
        self.knight[s] = colour
        # Pieces never change the areas, only what they are and hold.
        self._d = None

    # -- queries --
    def castle_squares(self) -> tuple[int, ...]:
        """Return the squares holding a castle (any colour), in square order.

        Castles are placed during setup only and never move, so the answer
        is kept (and shared by copies) until the next ``set_castle``: most
        questions about castles then walk a dozen squares, not 144.
        """
        cs = self._cs
        if cs is None:
            cs = self._cs = tuple(s for s, c in enumerate(self.castle) if c >= 0)
        return cs

    def occupied(self, s: int) -> bool:
        """True if a castle or a knight stands on ``s``."""
        return self.castle[s] >= 0 or self.knight[s] >= 0

    def knights_on_board(self, colour: int) -> int:
        """Return how many knights of ``colour`` stand on the board."""
        return self.knight.count(colour)

    def castles_on_board(self, colour: int) -> int:
        """Return how many castles of ``colour`` stand on the board."""
        return self.castle.count(colour)

    def piece_colours(self, s: int) -> tuple[int, int]:
        """Return (castle colour, knight colour) on ``s`` (-1 for none)."""
        return self.castle[s], self.knight[s]

    def linked_to_own_piece(self, s: int, colour: int) -> bool:
        """True if ``s`` is orthogonally next to a castle or knight of ``colour``
        with no border between the two (the knight placement rule)."""
        border = self.border
        castle = self.castle
        knight = self.knight
        return any(not border[e] and (castle[t] == colour or knight[t] == colour) for t, e in ADJ[s])
