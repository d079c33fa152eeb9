"""Live pages: what a change tells the open pages (topics), and hooks on the open streams.

A committed change to a game publishes ``game:<id>`` through
:mod:`ops.live_hub` (every web process hears it); each process renders the
game's live region once per distinct view among its open pages
(``games.views.live``) and pushes it. Other topics carry only "look again"
(no data a viewer may not see): ``user:<id>`` (an invitation, a new game
of theirs: their lobby), ``lobby`` (the open games changed), ``events:<id>``
(their API event stream has rows), ``tournament:<id>`` (its standings).

**Connection hooks**, for what must happen while a page is open (presence):
``on_connect``, ``on_heartbeat`` (every ``HERALD_LIVE_HEARTBEAT`` seconds
while the stream stays open) and ``on_disconnect`` each register a callable
taking a :class:`Connection`. They run for signed-in viewers' streams only,
in a worker thread (they may use the ORM, and should be quick); an exception
is logged and the stream goes on. This module registers presence's: a seat's
open game page touches ``games.presence`` at connect and every heartbeat
(below ``HERALD_PRESENCE_TTL``), and its arrival and departure redraw the
other pages' seats. A visitor's or spectator's idle stream runs no hook.
"""

from __future__ import annotations

import itertools
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from functools import partial

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games import events
from games.presence import presence_touch
from ops.live_hub import publish

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Connection:
    """One open stream, as the hooks see it.

    Attributes:
        id: unique in this process for its lifetime.
        page: "game", "lobby", "tournament" or "events" (the API).
        user_id: the signed-in user, or None (anonymous).
        game_id: the game of a game page, else None.
        seat: that user's seat position in the game, None for spectators.
        opened: when the stream opened (UTC).
    """

    id: int
    page: str
    user_id: int | None
    game_id: int | None = None
    seat: int | None = None
    opened: datetime = field(default_factory=timezone.now)


Hook = Callable[[Connection], None]
_hooks: dict[str, list[Hook]] = {"connect": [], "heartbeat": [], "disconnect": []}
_ids = itertools.count(1)


def new_connection(page: str, user_id: int | None, game_id: int | None = None, seat: int | None = None) -> Connection:
    """A :class:`Connection` with the next id (for the stream views)."""
    return Connection(id=next(_ids), page=page, user_id=user_id, game_id=game_id, seat=seat)


def on_connect(fn: Hook) -> Hook:
    """Call ``fn(connection)`` when a stream opens (after its access check). Usable as a decorator."""
    _hooks["connect"].append(fn)
    return fn


def on_heartbeat(fn: Hook) -> Hook:
    """Call ``fn(connection)`` every ``settings.HERALD_LIVE_HEARTBEAT`` seconds while a stream stays open."""
    _hooks["heartbeat"].append(fn)
    return fn


def on_disconnect(fn: Hook) -> Hook:
    """Call ``fn(connection)`` once a stream has closed (the page left, the server or Redis went away)."""
    _hooks["disconnect"].append(fn)
    return fn


def has_hooks(name: str) -> bool:
    """Whether any ``name`` hook ("connect", "heartbeat", "disconnect") is registered (else skip the thread)."""
    return bool(_hooks[name])


def run_hooks(name: str, connection: Connection) -> None:
    """Call the ``name`` hooks with ``connection``, in order; log (never raise) what fails. Sync code."""
    for fn in list(_hooks[name]):
        try:
            fn(connection)
        except Exception:  # presence must never end a stream
            log.exception("live %s hook %r failed", name, fn)


def game_topic(game_id: int) -> str:
    """The topic of a game's page: a change renders its live region for each view."""
    return f"game:{game_id}"


def user_topic(user_id: int) -> str:
    """The topic of a user's lobby: "look again"."""
    return f"user:{user_id}"


#: The topic every lobby hears: the open games changed.
LOBBY = "lobby"


def events_topic(user_id: int) -> str:
    """The topic of a user's API event stream: "there are rows"."""
    return f"events:{user_id}"


def tournament_topic(tournament_id: int) -> str:
    """The topic of a tournament's page: "look again"."""
    return f"tournament:{tournament_id}"


def notify_on_commit(topic: str, **data: object) -> None:
    """Publish ``topic`` once the current transaction commits (at once outside one)."""
    transaction.on_commit(partial(publish, topic, **data))


def on_changes_committed(event: events.ChangesCommitted) -> None:
    """After any committed change to a game: its pages draw the new position."""
    publish(game_topic(event.game_id), seq=event.seq)


def on_chat_posted(event: events.ChatPosted) -> None:
    """A chat line: each page fetches its own chat (blocks and moderation differ per viewer)."""
    notify_on_commit(game_topic(event.message.game_id), render=False, kind="chat")


def on_lobby_change(event: events.GameStarted | events.GameCancelled) -> None:
    """A game started or was cancelled: the open games changed, and so did its players' lobbies."""
    notify_on_commit(LOBBY)
    for user_id in {s.user_id for s in event.game.seats.all() if s.user_id is not None}:
        notify_on_commit(user_topic(user_id))


def on_players_invited(event: events.PlayersInvited) -> None:
    """Invitations: the invited players' lobbies list them."""
    for user_id in event.user_ids:
        notify_on_commit(user_topic(user_id))


def _present(connection: Connection) -> None:
    """A seat's open game page keeps its player present (``games.presence``): the "your move" email waits."""
    if connection.page == "game" and connection.seat is not None and connection.game_id is not None:
        presence_touch(connection.game_id, connection.user_id)


def _arrived(connection: Connection) -> None:
    """A seat's player opened the game: present now, and the other pages show it."""
    _present(connection)
    if connection.page == "game" and connection.seat is not None and connection.game_id is not None:
        publish(game_topic(connection.game_id))


def _left(connection: Connection) -> None:
    """A seat's page closed: once presence forgets it (its TTL), the other pages show "last seen"."""
    if connection.page == "game" and connection.seat is not None and connection.game_id is not None:
        later = threading.Timer(settings.HERALD_PRESENCE_TTL + 1, publish, args=(game_topic(connection.game_id),))
        later.daemon = True
        later.start()


def subscribe() -> None:
    """Subscribe this module's listeners (``GamesConfig.ready``) and the presence hooks."""
    on_connect(_arrived)
    on_heartbeat(_present)
    on_disconnect(_left)
    events.subscribe(events.ChangesCommitted, on_changes_committed)
    events.subscribe(events.ChatPosted, on_chat_posted)
    events.subscribe(events.GameStarted, on_lobby_change)
    events.subscribe(events.GameCancelled, on_lobby_change)
    events.subscribe(events.PlayersInvited, on_players_invited)
