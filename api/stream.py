"""The event stream: "something happened in my games", for API clients.

The listeners below run inside the transaction of the change (``games.events``)
and write one :class:`StreamEvent` row per seated user who holds an unrevoked
token (people without one never read the stream, so they cost one query per
change and no rows). ``GET /api/v1/events`` reads the rows after a cursor
(the last id seen), waiting a bounded time for new ones: a long poll that
holds a worker thread for at most ``settings.HERALD_API_EVENTS_MAX_WAIT`` seconds.

The rows say what happened and where (kind, game, seq); the client reads the
game itself for the details, through the same filtering as the pages, so
nothing hidden can leak through the stream.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import connection
from django.utils import timezone

from api.models import ApiToken, StreamEvent
from games import live
from games.models import Game
from ops import live_hub

if TYPE_CHECKING:
    from accounts.models import User
    from games import events

#: Events returned by one read.
PAGE = 100
#: How often a waiting read looks again (seconds).
POLL_EVERY = 1.0
#: Rows older than this are pruned (``prune``, daily from Celery beat: ``api.tasks.prune_stream``).
KEEP_DAYS = 14


#: The last answer of ``_readers`` in this thread: the events of one change (moves applied, then decisions
#: owed, then maybe the game's end) share it, so a move costs one query here, not three.
_last = threading.local()


def _readers(game: Game, only: Iterable[int] | None = None, *, fresh: bool = False) -> list[int]:
    """The ids of ``game``'s seated users (or of those among ``only``) who hold an active token.

    One query per change: the event that opens a change (``fresh``: moves
    applied, a start, a forfeit, a cancellation, a chat line) asks the
    database, and the events that follow it in the same change (decisions
    owed, the game's end) reuse that answer for the game at its ``last_seq``.
    """
    key = (game.pk, game.last_seq)
    if fresh or getattr(_last, "key", None) != key:
        _last.key = key
        _last.ids = set(
            ApiToken.objects.filter(revoked__isnull=True, user__seats__game_id=game.pk)
            .values_list("user_id", flat=True)
            .distinct()
        )
    ids: set[int] = _last.ids
    return sorted(ids if only is None else ids & set(only))


def forget_readers(event: events.ChangesCommitted | None = None) -> None:
    """Forget ``_readers``' answer, so the next change asks the database again.

    Called after each change is committed (``ChangesCommitted``), and when
    a token is made or revoked in this thread.
    """
    _last.key = None


def _write(game: Game, kind: str, user_ids: Iterable[int], data: dict[str, Any] | None = None) -> None:
    now = timezone.now()
    user_ids = list(user_ids)
    for uid in user_ids:
        # Wakes that user's waiting long polls, in whichever process they wait (ops.live_hub).
        live.notify_on_commit(live.events_topic(uid))
    StreamEvent.objects.bulk_create(
        [
            StreamEvent(user_id=uid, game_id=game.pk, kind=kind, seq=game.last_seq, data=data or {}, created=now)
            for uid in user_ids
        ]
    )


def on_game_started(event: events.GameStarted) -> None:
    """A game started: tell its players."""
    _write(event.game, "started", _readers(event.game, fresh=True))


def on_moves_applied(event: events.MovesApplied) -> None:
    """Moves were made: tell every player (who moved is in the game's log)."""
    _write(event.game, "move", _readers(event.game, fresh=True), {"first_seq": event.first_seq})


def on_decisions_owed(event: events.DecisionsOwed) -> None:
    """Seats now owe a decision: tell their users (bot-played seats have nobody to tell)."""
    users = [s.user_id for s in event.seats if s.user_id is not None and not s.bot]
    # At the start (seq 0) this is the change's first event (the deal publishes it before GameStarted),
    # so nothing earlier in the change has asked the database yet.
    _write(event.game, "your_move", _readers(event.game, users, fresh=event.game.last_seq == 0))


def on_seat_forfeited(event: events.SeatForfeited) -> None:
    """A seat timed out, resigned or was forfeited: tell every player."""
    _write(event.game, "forfeit", _readers(event.game, fresh=True), {"seat": event.seat.position})


def on_game_finished(event: events.GameFinished) -> None:
    """A game ended with ranks: tell every player."""
    _write(event.game, "game_over", _readers(event.game))


def on_game_cancelled(event: events.GameCancelled) -> None:
    """A game was cancelled: tell its seated players."""
    _write(event.game, "cancelled", _readers(event.game, fresh=True), {"why": event.why})


def on_chat_posted(event: events.ChatPosted) -> None:
    """A chat line was posted: tell the game's players (the client reads the line through the chat endpoint)."""
    message = event.message
    game = Game.objects.only("id", "last_seq").get(pk=message.game_id)
    _write(game, "chat", _readers(game, fresh=True), {"message": message.pk})


def on_undo_asked(event: events.UndoAsked) -> None:
    """A player asked to take back moves: tell those whose answer is needed (the request is in the game's state)."""
    users = [s.user_id for s in event.voters if s.user_id is not None]
    _write(
        event.game,
        "undo_asked",
        _readers(event.game, users, fresh=True),
        {"seat": event.seat, "request": event.request_id},
    )


def latest_id(user: User) -> int:
    """The id of ``user``'s newest stream row (0 for none): a cursor that skips the past."""
    return StreamEvent.objects.filter(user=user).order_by("-pk").values_list("pk", flat=True).first() or 0


def read(user: User, *, after: int, wait: float, stop: Callable[[], bool] | None = None) -> list[StreamEvent]:
    """Return ``user``'s stream rows after id ``after``, oldest first, at most ``PAGE``.

    With none yet, wait up to ``wait`` seconds (capped at
    ``settings.HERALD_API_EVENTS_MAX_WAIT``) for one, then return [] (the
    client asks again with the same cursor). Served over ASGI, the wait is on
    the live hub (``ops.live_hub.wait_sync``): the rows' writer wakes it the
    moment they commit, and it holds no database connection meanwhile; while
    the hub cannot hear the site (Redis down), and under WSGI, it looks again
    every ``POLL_EVERY`` seconds. ``stop``, asked after each pause, ends the
    wait at once with [] when it answers True (the user was banned
    meanwhile: the caller refuses the request).
    """
    deadline = time.monotonic() + min(max(wait, 0.0), float(settings.HERALD_API_EVENTS_MAX_WAIT))
    while True:
        rows = list(StreamEvent.objects.filter(user=user, pk__gt=after).order_by("pk")[:PAGE])
        left = deadline - time.monotonic()
        if rows or left <= 0:
            return rows
        woke = "unavailable"
        if settings.SERVED_OVER_ASGI:
            _put_connection_away()
            woke = live_hub.wait_sync([live.events_topic(user.pk)], left)
        if woke == "unavailable":
            time.sleep(min(POLL_EVERY, max(0.0, deadline - time.monotonic())))
        if stop is not None and stop():
            return []


def _put_connection_away() -> None:
    """Close this thread's database connection before a long wait (not inside a transaction: a test's)."""
    if not connection.in_atomic_block:
        connection.close()


def beyond_the_end(after: int) -> bool:
    """Whether ``after`` is past every stream row ever written (a cursor no event will ever follow)."""
    newest = StreamEvent.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
    return after > newest


def prune(*, older_than_days: int = KEEP_DAYS) -> int:
    """Delete stream rows older than ``older_than_days``; return how many."""
    cutoff = timezone.now() - timedelta(days=older_than_days)
    deleted, _detail = StreamEvent.objects.filter(created__lt=cutoff).delete()
    return deleted
