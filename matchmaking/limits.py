"""Matchmaking's limits and the facts it reads: ratings, running games, bans, a new game's options.

Shared by the seek services (``matchmaking.services``), the matcher
(``matchmaking.matcher``) and rematches (``matchmaking.rematch``).
``docs/matchmaking.md`` explains the numbers.

What a game brings to matchmaking is its **matchmaking part**, the module
``<game package>.matchmaking`` (``games.kinds``; docs/games.md), each name
optional, the part too:

``BANNABLE``
    The options a player may ban from the game's random set-ups (a tuple of
    stored values, e.g. card names), in the order the bans page lists them.
    Bans are stored per player, not per game (``KingdomBans``); each game
    reads those of its own ``BANNABLE``.
``DRAWN``
    How many of ``BANNABLE`` a random set-up draws (the matcher seats last a
    table whose bans leave fewer).
``BANS_HINT``
    The bans page's explanation, marked for translation, with ``%(max_bans)s``.
``ban_label(value) -> str``
    A bannable value's name in the reader's language.
``new_options(previous, banned) -> dict``
    The options of a game made for a seek or a rematch, given the options of
    the game a rematch follows (or None) and the seated players' bans. A game
    without it gets ``previous`` (or ``{}``): its engine's defaults.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from datetime import datetime, timedelta
from types import ModuleType
from typing import Any

from django.utils.translation import gettext as _

from accounts.models import User
from games import kinds
from games.models import Game, Seat
from matchmaking.models import KingdomBans
from ratings.models import Rating
from ratings.services import Belief

#: Open seeks one player may have at once (one per table size, say; more only clutters the lobby).
MAX_OPEN_SEEKS = 3
#: The default rating range: this many points either side of the player's own rating.
DEFAULT_WINDOW = 300
#: How long a seek may wait, offered on the form; the default is a day.
SEEK_LIFETIMES: list[timedelta] = [timedelta(hours=1), timedelta(hours=6), timedelta(days=1), timedelta(days=3)]
DEFAULT_LIFETIME = timedelta(days=1)
#: The lobby's one-button pairing ("Play a rated ... game"): a day per move, like the new-game form's default.
QUICK_TIME_PER_MOVE = timedelta(days=1)
#: Running correspondence games (open or in progress) a player may have: a newcomer's, what each two
#: finished games add, and the ceiling (Board Game Arena's idea: the cap grows with games finished).
RUNNING_BASE = 10
RUNNING_PER_FINISHED = 0.5
RUNNING_MAX = 60
#: Players with this many timeouts (not resignations) within ``LATE_WINDOW`` are matched last.
LATE_TIMEOUTS = 2
LATE_WINDOW = timedelta(days=30)
#: Two players who sat at a game started within this are not paired again while others wait.
REPEAT_WINDOW = timedelta(days=7)
#: Options (kingdom cards) a player may ban from random set-ups.
MAX_BANS = 3
#: The name of a game's matchmaking part module (``<package>.matchmaking``).
PART = "matchmaking"
#: The matcher's PostgreSQL advisory lock key (any constant no other code uses).
MATCHER_LOCK = 0x5EE4_0031


class MatchError(Exception):
    """A request the matchmaking rules refuse; ``str(err)`` is for the player.

    Attributes:
        code: a stable word for programs (the API's problem ``code``).
        status: the HTTP status the API answers with.
    """

    def __init__(self, message: str, code: str = "refused", status: int = 422) -> None:
        super().__init__(message)
        self.code = code
        self.status = status


# ---------------------------------------------------------------------------
# Reading


def rating_of(user_id: int, kind: str, now: datetime) -> int:
    """``user_id``'s displayed rating on ``kind``'s ladder at ``now``; a newcomer's (1500) if never rated."""
    r = Rating.objects.filter(user_id=user_id, kind=kind).first()
    if r is None:
        return Belief.new().display_at(now)
    return Belief(r.mu, r.sigma, r.games, r.last_played).display_at(now)


def ratings_of(user_ids: set[int], kinds: set[str], now: datetime) -> dict[tuple[int, str], int]:
    """Displayed ratings by (user, kind), newcomers' included; one query."""
    out = {(u, k): Belief.new().display_at(now) for u in user_ids for k in kinds}
    for r in Rating.objects.filter(user_id__in=user_ids, kind__in=kinds):
        out[(r.user_id, r.kind)] = Belief(r.mu, r.sigma, r.games, r.last_played).display_at(now)
    return out


def running_cap(user: User) -> int:
    """How many running correspondence games (open or in progress) ``user`` may have.

    ``RUNNING_BASE`` plus ``RUNNING_PER_FINISHED`` per finished game, at most ``RUNNING_MAX``.
    """
    finished = Seat.objects.filter(user=user, game__status=Game.Status.FINISHED).count()
    return min(RUNNING_MAX, RUNNING_BASE + int(finished * RUNNING_PER_FINISHED))


def running_games(user: User) -> int:
    """The games ``user`` sits in that are open or in progress (seats they still play)."""
    return Seat.objects.filter(
        user=user, forfeited=False, game__status__in=[Game.Status.OPEN, Game.Status.ACTIVE]
    ).count()


def check_capacity(user: User, *, extra: int = 0) -> None:
    """Refuse a new game for ``user`` when their running games (plus ``extra`` open seeks) reach the cap.

    Raises:
        MatchError: at the cap ("too_many_games", 409).
    """
    cap = running_cap(user)
    if running_games(user) + extra >= cap:
        raise MatchError(
            _("You already have %(n)d games running or waiting, your limit for now: it grows as you finish games.")
            % {"n": cap},
            "too_many_games",
            409,
        )


def part(kind: str) -> ModuleType | None:
    """The matchmaking part of the installed game ``kind``, or None (an unknown game, or one without a part)."""
    found = kinds.find(kind)
    return found.part(PART) if found is not None else None


def bannable(kind: str) -> tuple[str, ...]:
    """What a player may ban from the random set-ups of game ``kind`` (its part's ``BANNABLE``; none without)."""
    return tuple(getattr(part(kind), "BANNABLE", ()))


def ban_choices() -> list[tuple[str, str]]:
    """Every installed game's bannable options as form choices: (stored value, name in the reader's language).

    A callable, so that Django draws the choices when the form is shown, in that request's language.
    """
    out: list[tuple[str, str]] = []
    for _kind, module in kinds.parts(PART):
        label = getattr(module, "ban_label", str)
        out += [(value, label(value)) for value in getattr(module, "BANNABLE", ())]
    return out


def bans_hints(max_bans: int) -> list[str]:
    """The bans page's explanations, one for each installed game whose part has ``BANS_HINT``."""
    return [
        str(module.BANS_HINT) % {"max_bans": max_bans}
        for _kind, module in kinds.parts(PART)
        if hasattr(module, "BANS_HINT")
    ]


def bans_of(user_ids: list[int]) -> dict[int, frozenset[str]]:
    """Each user's bans that name an installed game's bannable option (empty for those who banned none); one query."""
    known = {value for value, _label in ban_choices()}
    out: dict[int, frozenset[str]] = {u: frozenset() for u in user_ids}
    for row in KingdomBans.objects.filter(user_id__in=user_ids):
        out[row.user_id] = frozenset(c for c in row.cards if c in known)
    return out


def draw(pool: Sequence[str], banned: set[str] | frozenset[str], n: int) -> list[str]:
    """``n`` of ``pool`` drawn at random (``secrets``) from those nobody at the table banned.

    If the bans leave fewer than ``n``, the banned ones fill the gap in name
    order (the matcher avoids such tables; a rematch cannot).
    """
    free = [c for c in pool if c not in banned]
    if len(free) < n:
        free += sorted(c for c in banned if c in pool)[: n - len(free)]
    return secrets.SystemRandom().sample(free, n)


def options_for(kind: str, user_ids: list[int], previous: dict[str, Any] | None = None) -> dict[str, Any]:
    """A new game's options for a seek's or a rematch's table: the game part's ``new_options`` given every
    seated player's bans of its options, or ``previous`` (``{}``) for a game without it.

    ``previous``: the options of the game a rematch follows.
    """
    maker = getattr(part(kind), "new_options", None)
    if maker is None:
        return dict(previous or {})
    own = set(bannable(kind))
    banned = frozenset(c for bans in bans_of(user_ids).values() for c in bans if c in own)
    return dict(maker(previous, banned))
