"""The matcher's rules: which open seeks sit at one table. Pure Python (no Django, no clock, no randomness).

``matchmaking.services.matcher_run`` reads the open seeks, blocks and recent
opponents from the database, turns them into :class:`Seeker` rows and calls
:func:`match`; ``bench/pairing.py`` calls the same function on a simulated
week. Same input, same tables: the order of everything is fixed by the
seekers' waits and ids, never by a set's order or a random draw.

The rules (``docs/matchmaking.md`` says why):

* Hard rules, never broken: same pool (game, rated or casual, time
  control), a table size every seeker accepts, each player's rating inside
  every other player's range, nobody who blocked (or was blocked by)
  anyone at the table, a user at one table per run, and in rated games
  bot accounts only with bot accounts.
* The table's rating spread (highest minus lowest) must be within the
  *tolerance* of its longest-waiting seeker: ``BASE_TOLERANCE`` points,
  widening by ``TOLERANCE_PER_MINUTE`` for every minute waited. A newcomer
  is thus paired at once with a close opponent, and with a distant one
  only after waiting (and only within the range they chose).
* Among the allowed tables of the seeker who waited longest (players who
  time out often come last), the lowest score wins::

      score = spread
              - WAIT_WEIGHT * (minutes waited, summed over the table)
              - SEAT_BONUS * seats
              + REPEAT_PENALTY * (pairs at the table who played each other recently)
              + LATE_PENALTY * (players at the table who time out often)
              + BAN_PENALTY if the players' kingdom bans leave fewer than MIN_POOL cards

  Rating points are the unit: one minute of waiting is worth
  ``WAIT_WEIGHT`` points of spread, a repeated pairing costs more than any
  spread the tolerance allows, so it is chosen only when no other table is
  possible for that seeker now ("not the same two again while others wait").
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations

#: Spread (rating points) allowed at once, before anyone waited.
BASE_TOLERANCE = 100.0
#: Spread allowed on top of that per minute the longest-waiting seeker at the table waited.
TOLERANCE_PER_MINUTE = 10.0
#: Rating points of spread one minute of waiting outweighs, per seeker at the table.
WAIT_WEIGHT = 1.0
#: Score bonus per seat: a table that seats more waiting players is preferred at equal spread.
SEAT_BONUS = 25.0
#: Score cost of each pair at the table who played each other recently.
REPEAT_PENALTY = 5000.0
#: Score cost of each player at the table who times out often.
LATE_PENALTY = 300.0
#: Score cost of a table whose kingdom bans leave fewer than ``MIN_POOL`` cards.
BAN_PENALTY = 500.0
#: Kingdom cards a random kingdom draws, and the cards it draws from.
MIN_POOL = 10
KINGDOM_POOL = 25
#: Candidates considered for one table (the nearest in rating): bounds the work per seeker.
CANDIDATES = 10


@dataclass(frozen=True, slots=True)
class Seeker:
    """One open seek as the matcher sees it.

    Attributes:
        seek_id: the seek's id (ties are broken by it, oldest first).
        user_id: its player.
        pool: what must be equal to share a table (game kind, rated, time
            control), any hashable value.
        sizes: the table sizes it accepts (2, 3, 4).
        rating: the player's displayed rating on the game's ladder (1500 for a newcomer).
        low, high: the ratings it accepts at its table, inclusive; None: no bound.
        waited: minutes since the seek was posted (0 or more).
        bans: kingdom cards the player bans from random kingdoms.
        late: the player times out often (matched last).
        bot: a bot account (in a rated pool only with other bot accounts).
    """

    seek_id: int
    user_id: int
    pool: object
    sizes: frozenset[int]
    rating: int
    low: int | None = None
    high: int | None = None
    waited: float = 0.0
    bans: frozenset[str] = field(default_factory=frozenset)
    late: bool = False
    bot: bool = False
    rated: bool = False

    def accepts(self, rating: int) -> bool:
        """True if ``rating`` is inside this seeker's range."""
        return (self.low is None or rating >= self.low) and (self.high is None or rating <= self.high)


@dataclass(frozen=True, slots=True)
class Table:
    """A table the matcher made.

    Attributes:
        seek_ids: the seeks seated, the longest-waiting first.
        user_ids: their players, in the same order.
        spread: highest minus lowest rating at the table.
        score: the score it won with (lower is better).
    """

    seek_ids: tuple[int, ...]
    user_ids: tuple[int, ...]
    spread: int
    score: float


def pair(a: int, b: int) -> frozenset[int]:
    """The key of the pair of users ``a`` and ``b`` (in the ``blocked`` and ``met`` sets)."""
    return frozenset((a, b))


def tolerance(waited: float) -> float:
    """The rating spread allowed at a table whose longest-waiting seeker waited ``waited`` minutes."""
    return BASE_TOLERANCE + TOLERANCE_PER_MINUTE * max(0.0, waited)


def _fits(a: Seeker, b: Seeker, blocked: set[frozenset[int]]) -> bool:
    """The hard rules between two seekers (besides the pool and the size)."""
    if a.user_id == b.user_id or pair(a.user_id, b.user_id) in blocked:
        return False
    if a.rated and a.bot != b.bot:
        return False
    return a.accepts(b.rating) and b.accepts(a.rating)


def score(
    table: Sequence[Seeker], met: set[frozenset[int]], *, pool_size: int = KINGDOM_POOL
) -> tuple[float, int] | None:
    """``(score, spread)`` of seating ``table`` together, or None if its spread is beyond the tolerance.

    The hard rules are the caller's; this is the weighing of the module's docstring.
    """
    ratings = [s.rating for s in table]
    spread = max(ratings) - min(ratings)
    if spread > tolerance(max(s.waited for s in table)):
        return None
    repeats = sum(1 for a, b in combinations(table, 2) if pair(a.user_id, b.user_id) in met)
    banned: set[str] = set().union(*(s.bans for s in table))
    value = (
        spread
        - WAIT_WEIGHT * sum(s.waited for s in table)
        - SEAT_BONUS * len(table)
        + REPEAT_PENALTY * repeats
        + LATE_PENALTY * sum(1 for s in table if s.late)
        + (BAN_PENALTY if pool_size - len(banned) < MIN_POOL else 0.0)
    )
    return value, spread


def _order(seekers: Iterable[Seeker]) -> list[Seeker]:
    """Who is served first: players who time out often last; then the longest wait; then the oldest id."""
    return sorted(seekers, key=lambda s: (s.late, -s.waited, s.seek_id))


def match(
    seekers: Iterable[Seeker],
    *,
    blocked: Iterable[frozenset[int]] = (),
    met: Iterable[frozenset[int]] = (),
    pool_size: int = KINGDOM_POOL,
) -> list[Table]:
    """Make the tables the open seeks allow now.

    Greedy, in serving order (:func:`_order`): for each seeker not yet
    seated, the best-scoring allowed table among its ``CANDIDATES`` nearest
    compatible seekers, over every size it accepts; if there is one it is
    made and its players leave the pool for this run.

    Args:
        seekers: the open seeks (one user may have several; they are never
            seated together, and a user gets at most one table per run).
        blocked: pairs of users (:func:`pair`) where one blocked the other.
        met: pairs of users who played each other recently.
        pool_size: the kingdom cards a random kingdom draws from.

    Returns:
        The tables, in the order they were made.
    """
    blocked = set(blocked)
    met = set(met)
    queue = _order(seekers)
    seated_users: set[int] = set()
    seated: set[int] = set()
    tables: list[Table] = []
    for anchor in queue:
        if anchor.seek_id in seated or anchor.user_id in seated_users:
            continue
        near: dict[int, Seeker] = {}
        for s in queue:  # serving order: a user's first seek in it is their longest-waiting one
            if (
                s.seek_id in seated
                or s.user_id in seated_users
                or s.user_id in near
                or s.pool != anchor.pool
                or not (s.sizes & anchor.sizes)
                or not _fits(anchor, s, blocked)
            ):
                continue
            near[s.user_id] = s
        candidates = sorted(near.values(), key=lambda s: (abs(s.rating - anchor.rating), -s.waited, s.seek_id))
        candidates = candidates[:CANDIDATES]
        best: tuple[float, int, tuple[Seeker, ...]] | None = None
        for size in sorted(anchor.sizes, reverse=True):
            fitting = [s for s in candidates if size in s.sizes]
            for others in combinations(fitting, size - 1):
                if not all(_fits(a, b, blocked) for a, b in combinations(others, 2)):
                    continue
                table = (anchor, *others)
                scored = score(table, met, pool_size=pool_size)
                if scored is None:
                    continue
                key = (scored[0], scored[1], tuple(s.seek_id for s in table))
                if best is None or key < (best[0], best[1], tuple(s.seek_id for s in best[2])):
                    best = (scored[0], scored[1], table)
        if best is None:
            continue
        value, spread, table = best
        seated.update(s.seek_id for s in table)
        seated_users.update(s.user_id for s in table)
        tables.append(
            Table(
                seek_ids=tuple(s.seek_id for s in table),
                user_ids=tuple(s.user_id for s in table),
                spread=spread,
                score=value,
            )
        )
    return tables
