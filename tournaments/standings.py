"""The standings of a tournament, and each player's history as the pairing needs it. Read-only.

Tie-breaks (FIDE C.07 names): for two-player systems Buchholz (the sum of
the opponents' points), then Sonneborn-Berger (each opponent's points
times what one scored against them), then wins; for multi-table rounds
the number of first places, then the opponents' points (the sum of the
points of everyone met at a table, Buchholz-like). A bye counts as points,
with no opponent. Players tied on all of these share a rank.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from tournaments.models import Entry, Table, TableSeat, Tournament
from tournaments.pairing import SwissPlayer, float_of


@dataclass(slots=True)
class Row:
    """One line of the standings.

    Attributes:
        rank: 1 for the leader; tied rows share it.
        entry: the player's entry (user loaded).
        points: tournament points (ties at tables shared).
        tiebreaks: the tie-break values, in the order of :func:`tiebreak_names`.
        played: tables played (byes included); wins: first places alone (a Swiss bye counts too).
        results: per round, the points scored (None: not paired).
    """

    entry: Entry
    points: float = 0.0
    tiebreaks: tuple[float, ...] = ()
    played: int = 0
    wins: int = 0
    rank: int = 0
    results: list[float | None] = field(default_factory=list)


def tiebreak_names(tournament: Tournament) -> list[str]:
    """The tie-breaks' keys in order: ``buchholz``, ``sb``, ``wins`` (two a table), or ``firsts``, ``opp``."""
    if tournament.players_per_table == 2:
        return ["buchholz", "sb", "wins"]
    return ["firsts", "opp"]


def _seats(tournament: Tournament) -> list[TableSeat]:
    return list(
        TableSeat.objects.filter(table__round__tournament=tournament)
        .select_related("table", "table__round")
        .order_by("table__round__number", "table__number", "position")
    )


def standings(tournament: Tournament) -> list[Row]:
    """The standings now: every entry (withdrawn ones too), best first, with ranks and tie-breaks.

    A table whose game is still running counts nothing yet.
    """
    entries = list(tournament.entries.select_related("user").order_by("number", "pk"))
    rows = {e.pk: Row(entry=e, results=[None] * tournament.current_round) for e in entries}
    seats = _seats(tournament)
    by_table: dict[int, list[TableSeat]] = defaultdict(list)
    for s in seats:
        by_table[s.table_id].append(s)
    for s in seats:
        row = rows.get(s.entry_id)
        if row is None or s.points is None:
            continue
        row.points += s.points
        row.played += 1
        if s.points >= 1.0:  # first alone (a shared first, a draw, scores less)
            row.wins += 1
        number = s.table.round.number
        if number <= len(row.results):
            row.results[number - 1] = s.points
    for row in rows.values():
        row.tiebreaks = _tiebreaks(tournament, row, by_table, rows)
    ordered = sorted(rows.values(), key=lambda r: (-r.points, *(-t for t in r.tiebreaks), r.entry.number, r.entry.pk))
    previous = None
    for i, row in enumerate(ordered, start=1):
        key = (round(row.points, 6), *(round(t, 6) for t in row.tiebreaks))
        row.rank = ordered[i - 2].rank if previous == key else i
        previous = key
    return ordered


def _tiebreaks(
    tournament: Tournament, row: Row, by_table: dict[int, list[TableSeat]], rows: dict[int, Row]
) -> tuple[float, ...]:
    mine = [s for seats in by_table.values() for s in seats if s.entry_id == row.entry.pk and s.points is not None]
    opp_points = 0.0
    sb = 0.0
    for s in mine:
        for other in by_table[s.table_id]:
            if other.entry_id == s.entry_id:
                continue
            theirs = rows[other.entry_id].points if other.entry_id in rows else 0.0
            opp_points += theirs
            sb += theirs * (s.points or 0.0)
    if tournament.players_per_table == 2:
        return (opp_points, sb, float(row.wins))
    return (float(row.wins), opp_points)


def swiss_history(tournament: Tournament, entries: list[Entry]) -> tuple[list[SwissPlayer], set[tuple[int, int]]]:
    """Each player's score, colours, floats and byes after the rounds played, and the pairs that met.

    What the FIDE Dutch pairing needs (``caissify-pairings``' caller
    contract): colours and floats per round, derived from the scores before
    each round.
    """
    players = {e.pk: SwissPlayer(id=e.pk, number=e.number, rating=e.rating) for e in entries}
    met: set[tuple[int, int]] = set()
    seats = _seats(tournament)
    by_round: dict[int, dict[int, list[TableSeat]]] = defaultdict(lambda: defaultdict(list))
    for s in seats:
        by_round[s.table.round.number][s.table_id].append(s)
    score: defaultdict[int, float] = defaultdict(float)
    for number in sorted(by_round):
        before = dict(score)
        paired = set()
        for table_seats in by_round[number].values():
            ids = [s.entry_id for s in table_seats]
            paired.update(ids)
            if len(table_seats) == 1:
                s = table_seats[0]
                if s.entry_id in players:
                    p = players[s.entry_id]
                    p.colors.append("none")
                    p.floats.append("down")
                    p.byes += 1
            else:
                a, b = sorted(table_seats, key=lambda s: s.position)[:2]
                met.add((min(a.entry_id, b.entry_id), max(a.entry_id, b.entry_id)))
                for me, them, color in ((a, b, "white"), (b, a, "black")):
                    if me.entry_id in players:
                        p = players[me.entry_id]
                        p.colors.append(color)
                        p.floats.append(float_of(before.get(me.entry_id, 0.0), before.get(them.entry_id, 0.0)))
            for s in table_seats:
                score[s.entry_id] += s.points or 0.0
        for pid, p in players.items():
            if pid not in paired:
                p.colors.append("none")
                p.floats.append("none")
    for pid, p in players.items():
        p.score = score.get(pid, 0.0)
    return list(players.values()), met


def past_groups(tournament: Tournament) -> set[frozenset[int]]:
    """Every group of entries that sat at one table (byes left out)."""
    groups: dict[int, set[int]] = defaultdict(set)
    for table_id, entry_id in TableSeat.objects.filter(table__round__tournament=tournament).values_list(
        "table_id", "entry_id"
    ):
        groups[table_id].add(entry_id)
    return {frozenset(g) for g in groups.values() if len(g) > 1}


def round_tables(tournament: Tournament) -> list[tuple[int, list[Table]]]:
    """The rounds made so far, newest first, each with its tables (seats, users and games loaded)."""
    tables = (
        Table.objects.filter(round__tournament=tournament)
        .select_related("round", "game")
        .prefetch_related("seats__entry__user")
        .order_by("-round__number", "number")
    )
    out: dict[int, list[Table]] = {}
    for t in tables:
        out.setdefault(t.round.number, []).append(t)
    return list(out.items())
