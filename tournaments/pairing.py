"""Who sits with whom: Swiss and round-robin pairings (from caissify-pairings) and multi-table seating.

Pure functions on player ids; nothing here reads or writes the database.

* **Swiss** (2 players a table): the FIDE Dutch system (C.04.3), computed
  by the ``caissify-pairings`` library (cross-checked by its authors against
  the FIDE-endorsed bbpPairings), never by code of ours. Seat 0 plays
  "white" (moves first).
* **Round robin**: the FIDE Berger tables, from the same library; a double
  round robin plays the second cycle with the seat orders reversed.
* **Multi-table rounds** (3-4 a table): players in order of standing are
  dealt to tables in snake order (1, 2, 3, 3, 2, 1, ...), then, where a
  table would repeat a group that already sat together, players of the
  nearest standing are swapped between tables until no group repeats (when
  that is possible).
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations

from caissify_pairings import MissingFloatHistoryWarning, generate_pairings


@dataclass(slots=True)
class SwissPlayer:
    """A player as the Dutch system needs them after the rounds played so far.

    Attributes:
        id: the entry's id.
        number: the starting number (1 = top seed).
        rating: the seeding rating.
        score: points so far (1 a win, 0.5 a draw, 1 a bye).
        colors: per round played, "white", "black" or "none" (a bye or no game).
        floats: per round, "up", "down" or "none" (FIDE's floats, see :func:`float_of`).
        byes: byes received.
    """

    id: int
    number: int
    rating: int
    score: float = 0.0
    colors: list[str] = field(default_factory=list)
    floats: list[str] = field(default_factory=list)
    byes: int = 0


def float_of(my_score_before: float, their_score_before: float) -> str:
    """FIDE's float of a player paired against an opponent with the given scores before the round."""
    if my_score_before > their_score_before:
        return "down"
    if my_score_before < their_score_before:
        return "up"
    return "none"


def swiss_round(
    players: Sequence[SwissPlayer], previous: Iterable[tuple[int, int]], round_number: int, total_rounds: int
) -> list[tuple[int, int | None]]:
    """Pair one Swiss round by the FIDE Dutch system (caissify-pairings' ``dutch`` engine).

    Args:
        players: the players still in the tournament, with their history.
        previous: every pair (a, b) that has already met.
        round_number: 1-based.
        total_rounds: the tournament's number of rounds.

    Returns:
        ``(white, black)`` per table in the library's board order; ``(id, None)`` is a bye (1 point).

    Raises:
        caissify_pairings' errors when no pairing exists (fewer than 2 players).
    """
    rows = [
        {
            "id": p.id,
            "name": str(p.id),
            "score": float(p.score),
            "rating": p.rating,
            "starting_number": p.number,
            "color_hist": list(p.colors),
            "float_history": list(p.floats),
            "bye_count": p.byes,
        }
        for p in players
    ]
    with warnings.catch_warnings():
        # Round 2 after a round of nothing but equal scores has all floats "none": that is correct.
        warnings.simplefilter("ignore", MissingFloatHistoryWarning)
        out = generate_pairings(
            system="dutch",
            players=rows,
            previous_pairings={tuple(sorted(p)) for p in previous},
            round_number=round_number,
            total_rounds=total_rounds,
            bye_value=1.0,
        )
    return [(row["white_id"], row.get("black_id")) for row in sorted(out, key=lambda r: r["table"])]


def round_robin_rounds(ids: Sequence[int], *, double: bool = False) -> list[list[tuple[int, int | None]]]:
    """Every round of a (double) round robin by the FIDE Berger tables, players numbered in ``ids`` order.

    Returns:
        One list per round of ``(first seat, second seat)``; ``(id, None)`` is
        the bye an odd number of players brings. Every pair meets once (twice,
        seat orders swapped, when ``double``).
    """
    rows = [
        {"id": pid, "name": str(pid), "score": 0.0, "rating": 0, "starting_number": i}
        for i, pid in enumerate(ids, start=1)
    ]
    n = len(ids) + len(ids) % 2
    cycles = 2 if double else 1
    rounds = []
    for number in range(1, (n - 1) * cycles + 1):
        out = generate_pairings(
            system="round_robin",
            players=rows,
            previous_pairings=set(),
            round_number=number,
            total_rounds=(n - 1) * cycles,
            cycles=cycles,
        )
        rounds.append([(r["white_id"], r.get("black_id")) for r in sorted(out, key=lambda r: r["table"])])
    return rounds


def round_robin_round_count(players: int, *, double: bool = False) -> int:
    """How many rounds a (double) round robin of ``players`` has: one per opponent (an odd field adds a bye round)."""
    if players < 2:
        return 0
    return (players + players % 2 - 1) * (2 if double else 1)


def table_sizes(n: int, size: int) -> list[int]:
    """Split ``n`` players into tables of ``size`` where possible, else of ``size`` +- 1 (2 to 4).

    Returns:
        The table sizes, largest first (``[1]`` for a lone player: a bye).
    """
    if n <= 1:
        return [n] if n else []
    tables = max(1, round(n / size))
    while n / tables > 4:
        tables += 1
    while tables > 1 and n / tables < 2:
        tables -= 1
    base, extra = divmod(n, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def snake(order: Sequence[int], sizes: Sequence[int]) -> list[list[int]]:
    """Deal ``order`` (best first) to tables in snake order: 1, 2, ..., t, t, ..., 1, 1, 2, ...

    A table that is full is skipped, so unequal sizes still fill exactly.
    """
    tables: list[list[int]] = [[] for _ in sizes]
    t = len(sizes)
    sequence: list[int] = []
    while len(sequence) < sum(sizes):
        sequence.extend(range(t))
        sequence.extend(reversed(range(t)))
    it = iter(order)
    for index in sequence:
        if len(tables[index]) < sizes[index]:
            player = next(it, None)
            if player is None:
                break
            tables[index].append(player)
    return tables


def multi_table_round(
    order: Sequence[int], size: int, history: Iterable[frozenset[int]], *, final_table: bool = False
) -> list[list[int]]:
    """Seat a multi-table round: snake order by standing, never a group that already sat together if avoidable.

    Args:
        order: the players still in, best standing first.
        size: the players per table wanted (3 or 4).
        history: every group that sat at one table before.
        final_table: seat the ``size`` leaders at table 1 (the final), the rest as usual.

    Returns:
        The tables, each a list of ids in standing order (table 1 first).
    """
    order = list(order)
    tables: list[list[int]] = []
    if final_table and len(order) >= size:
        # The final is the leaders' whatever they met before; the others still avoid repeats.
        tables.append(order[:size])
        order = order[size:]
    rest = snake(order, table_sizes(len(order), size)) if order else []
    rest = _avoid_repeats(rest, set(history), {p: i for i, p in enumerate(order)})
    return [*tables, *rest]


def _avoid_repeats(tables: list[list[int]], history: set[frozenset[int]], rank: dict[int, int]) -> list[list[int]]:
    """Swap players between tables until no table repeats a past group, changing standings least.

    Each repeated table tries swaps with other tables, closest standings
    first, and takes the first swap after which neither table is a past
    group. Stops when nothing repeats, or no swap helps (the repeat is then
    unavoidable by one swap; a tiny field can make it so).
    """
    tables = [list(t) for t in tables]
    for _ in range(len(tables) * 8):
        bad = [i for i, t in enumerate(tables) if len(t) > 1 and frozenset(t) in history]
        if not bad:
            break
        i = bad[0]
        options = []
        for j, other in enumerate(tables):
            if j == i:
                continue
            for a in tables[i]:
                for b in other:
                    options.append((abs(rank[a] - rank[b]), rank[a], rank[b], j, a, b))
        for _cost, _ra, _rb, j, a, b in sorted(options):
            new_i = [b if p == a else p for p in tables[i]]
            new_j = [a if p == b else p for p in tables[j]]
            if frozenset(new_i) not in history and (len(new_j) < 2 or frozenset(new_j) not in history):
                tables[i] = sorted(new_i, key=rank.__getitem__)
                tables[j] = sorted(new_j, key=rank.__getitem__)
                break
        else:
            break
    return tables


def place_points(places: dict[int, int]) -> dict[int, float]:
    """Tournament points by finishing place: first 1, last 0, evenly between; tied places share.

    ``places`` maps a player to their place (1 = first; ties share a place, as
    games' ranks do). With ``n`` at the table, place ``k`` is worth
    ``(n - k) / (n - 1)``; players tied on a place share the points of the
    places they cover. Two players: a win 1, a draw 0.5, a loss 0, so Swiss
    and round robin score as chess does; three: 1, 0.5, 0; four: 1, 2/3, 1/3, 0.
    """
    n = len(places)
    if n < 2:
        return dict.fromkeys(places, 1.0)
    out = {}
    for place in set(places.values()):
        tied = [p for p, k in places.items() if k == place]
        covered = range(place, place + len(tied))
        share = sum(Fraction(n - k, n - 1) for k in covered) / len(tied)
        for p in tied:
            out[p] = float(share)
    return out


def repeated_groups(rounds: Iterable[Iterable[Iterable[int]]]) -> list[frozenset[int]]:
    """The groups (of 2 or more) that sat together in more than one round: what tests check is empty."""
    seen: set[frozenset[int]] = set()
    repeats = []
    for tables in rounds:
        for t in tables:
            group = frozenset(t)
            if len(group) < 2:
                continue
            if group in seen:
                repeats.append(group)
            seen.add(group)
    return repeats


def pairs_of(tables: Iterable[Iterable[int]]) -> set[frozenset[int]]:
    """Every pair of players who sat at one table."""
    return {frozenset(p) for t in tables for p in combinations(list(t), 2)}
