"""Presence: who has a game open now, and when each player was last seen there.

Whatever keeps a game open calls :func:`presence_touch`: today the game
page and its poll (every 5 s, at most a minute apart in a background tab),
and a server-push connection while it stays open. A touch is kept in the
cache for ``settings.HERALD_PRESENCE_TTL`` seconds (20): a player whose page
touched the game within that time has it open. The seat's ``last_seen``
(the database) is written at most once per ``SAVE_EVERY`` while they stay,
so it says when they were last seen once the cache has forgotten them.

What it is for: each seat on the game page shows "here now" or "last seen
5 minutes ago", and a "your move" email or push waits while its player has
the game open, and goes out once they leave without moving
(``correspondence.outbox``).

With Redis down the cache forgets everything (``website.cache``): nobody
counts as present, so no email waits, and ``last_seen`` is still written
(one UPDATE per touch that finds nothing to change, at most).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db.models import Q
from django.utils import timezone

from games.models import Game, Seat

#: ``Seat.last_seen`` is written at most this often while a player stays on the page.
SAVE_EVERY = timedelta(seconds=60)


@dataclass(frozen=True, slots=True)
class Presence:
    """One seated player's presence at one game.

    Attributes:
        here: True while they have the game open (touched within ``HERALD_PRESENCE_TTL`` seconds).
        last_seen: when they last had it open (UTC), or None if never.
    """

    here: bool
    last_seen: datetime | None


def _key(game_id: int, user_id: int) -> str:
    return f"herald:presence:{game_id}:{user_id}"


def _ttl() -> int:
    return int(settings.HERALD_PRESENCE_TTL)


def presence_touch(game: Game | int, user: Any) -> None:
    """Record that ``user`` has ``game`` open now (a page load, a poll, a push connection's heartbeat).

    One cache read and one write per call; an UPDATE of the seat's ``last_seen`` at most
    once per ``SAVE_EVERY`` (only a seated user's). Anonymous users and
    ``None`` are ignored. Never raises for a cache outage (the cache is fail-soft).

    Args:
        game: a Game or its id.
        user: a User, a user id, an anonymous user or None.
    """
    user_id = user if isinstance(user, int) else getattr(user, "pk", None)
    if user_id is None:
        return
    game_id = game if isinstance(game, int) else game.pk
    key = _key(game_id, user_id)
    now = time.time()
    _touched, saved = _read(cache.get(key))
    # The save's time rides in the same cache entry (one read, one write per touch), and is compared
    # here rather than left to a cache timeout, so the rule holds whatever the cache's clock.
    if saved is None or now - saved >= SAVE_EVERY.total_seconds():
        seen = datetime.fromtimestamp(now, tz=UTC)
        Seat.objects.filter(game_id=game_id, user_id=user_id).filter(
            Q(last_seen__isnull=True) | Q(last_seen__lt=seen - SAVE_EVERY)
        ).update(last_seen=seen)
        saved = now
    cache.set(key, (now, saved), _ttl())


def _read(entry: Any) -> tuple[float | None, float | None]:
    """``(touched, saved)`` from a cache entry (POSIX seconds), or Nones for a missing or foreign one."""
    if isinstance(entry, (tuple, list)) and len(entry) == 2 and all(isinstance(x, float) for x in entry):
        return entry[0], entry[1]
    return None, None


def presence_of(game: Game) -> dict[int, Presence]:
    """Each seated person's presence at ``game``: user id -> :class:`Presence` (bots have none).

    One cache read for all seats; seats come from ``game.seats.all()`` (a
    prefetch, if the caller made one).
    """
    people = [(s.user_id, s) for s in game.seats.all() if s.user_id is not None and not s.bot]
    if not people:
        return {}
    found = cache.get_many([_key(game.pk, user_id) for user_id, _s in people])
    now = time.time()
    out: dict[int, Presence] = {}
    for user_id, s in people:
        touched, _saved = _read(found.get(_key(game.pk, user_id)))
        here = touched is not None and now - touched < _ttl()
        last = s.last_seen
        if touched is not None:
            at = datetime.fromtimestamp(touched, tz=UTC)
            last = at if last is None or at > last else last
        out[user_id] = Presence(here=here, last_seen=last)
    return out


def is_present(game_id: int, user_id: int) -> bool:
    """True while ``user_id`` has game ``game_id`` open (see :func:`presence_touch`). One cache read."""
    touched, _saved = _read(cache.get(_key(game_id, user_id)))
    return touched is not None and time.time() - touched < _ttl()


def presence_mark(game: Game, presence: dict[int, Presence]) -> str:
    """A short string that changes when anyone at ``game`` arrives or leaves (for the page's poll cursor)."""
    return "".join(
        "h" if s.user_id is not None and (p := presence.get(s.user_id)) is not None and p.here else "-"
        for s in game.seats.all()
    )


def seen_recently(when: datetime | None) -> bool:
    """True if ``when`` (UTC) is under a minute ago: the page says "a moment ago" rather than a count."""
    return when is not None and timezone.now() - when < timedelta(minutes=1)
