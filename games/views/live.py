"""Server push for the game page and the lobby: Server-Sent Events streams (``games.live``, ``ops.live_hub``).

``GET /games/<id>/live?seq=N&v=CURSOR`` streams the game page's live region
(status, board, seats, log) as the viewer would get it by reloading: event
``live``, data ``{"seq", "v", "html"}``. What a stream gets is drawn for its
*view*: a seat's own eyes (its user only), anonymous visitors, signed-in
spectators, or one staff member, each in its language, time zone and the
site's own cookies (``herald_*``: the hint strip). Each process renders a
view once per change, however many pages show it, so no seat's render ever
reaches another seat's stream. The forms in a pushed fragment carry
:data:`CSRF_PLACEHOLDER`, never a token: ``live.js`` puts the page's own in
its place. Event ``chat`` says "fetch the chat" (the page's poll does,
drawing it for that viewer), ``down`` that the server lost the push (the
page polls, and connects again).

``GET /live/lobby`` streams ``lobby`` ("look again") when the viewer's
games, invitations or the open games change.

Opening a stream checks access like the page (404 for a game one may not
see) and costs a few queries; after that an idle stream costs none (the
request's database connection is closed before it waits). While the hub
has no Redis subscription (Redis down) a stream is refused with 503, and the
page polls.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Hashable
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.db import connections
from django.db.models import Prefetch
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.views.decorators.http import require_safe
from django_htmx.middleware import HtmxDetails

from games import live
from games.lifecycle import seat_seen
from games.models import Game, Seat
from games.presence import presence_of
from games.views.access import get_game_for_user
from games.views.page import game_context, status_cursor
from ops.live_hub import DOWN, Listener, hub, register_renderer, sse

#: What ``{% csrf_token %}`` draws in a pushed fragment (``live.js`` swaps in the page's own token):
#: a fragment is shared by every page of its view, and a token belongs to one browser's session.
CSRF_PLACEHOLDER = "herald-live-csrf"
#: What the board's cache key holds instead of a session's CSRF secret, for pushed renders.
_BOARD_KEY = "live"
#: How often a client whose stream failed tries again (EventSource ``retry``, milliseconds).
RETRY_MS = 3000
#: Seconds a new stream waits for its process's hub to subscribe (its first stream makes it), else 503.
READY_WAIT = 2.0


@dataclass(frozen=True)
class Viewer:
    """Whose eyes a pushed render uses: enough to draw the page as that viewer's reload would."""

    user: Any
    seat: int | None
    language: str
    time_zone: str
    cookies: tuple[tuple[str, str], ...]


def _viewer(request: HttpRequest, seat: Seat | None) -> tuple[Hashable, Viewer]:
    """The view key of this request's page and the :class:`Viewer` that draws it.

    A seat's view is its user's alone; anonymous visitors share one, signed-in
    spectators another (the live region differs for them only in "report"
    links, the same for all), and each staff member has their own.
    """
    user = request.user
    cookies = tuple(sorted((k, v) for k, v in request.COOKIES.items() if k.startswith("herald_")))
    viewer = Viewer(
        user=user,
        seat=seat.position if seat is not None else None,
        language=translation.get_language(),
        time_zone=timezone.get_current_timezone_name(),
        cookies=cookies,
    )
    if seat is not None:
        who: tuple[Any, ...] = ("seat", seat.position, user.pk)
    elif not user.is_authenticated:
        who = ("anonymous",)
    elif user.is_staff:
        who = ("staff", user.pk)
    else:
        who = ("spectator",)
    return (who, viewer.language, viewer.time_zone, cookies), viewer


def _render_request(game: Game, viewer: Viewer) -> HttpRequest:
    request = HttpRequest()
    request.method = "GET"
    request.path = request.path_info = game.get_absolute_url()
    request.user = viewer.user
    request.COOKIES = dict(viewer.cookies)
    request.META = {"CSRF_COOKIE": _BOARD_KEY, "SERVER_NAME": "live", "SERVER_PORT": "80"}
    request.LANGUAGE_CODE = viewer.language
    request.htmx = HtmxDetails(request)  # type: ignore[attr-defined]
    return request


def live_payload(game: Game, viewer: Viewer) -> bytes:
    """The ``live`` event for ``viewer`` at ``game``'s present position (seats prefetched with users).

    Raises:
        Http404: the viewer's seat is no longer this user's (it never changes hands while a stream lives).
    """
    seats = list(game.seats.all())
    seat = None
    if viewer.seat is not None:
        seat = next((s for s in seats if s.position == viewer.seat and s.user_id == viewer.user.pk), None)
        if seat is None:
            raise Http404("No such seat")
    request = _render_request(game, viewer)
    with translation.override(viewer.language), timezone.override(viewer.time_zone):
        context = game_context(request, game, seat)
        html = render_to_string("games/game.html#live", {**context, "csrf_token": CSRF_PLACEHOLDER}, request=request)
    # The page is open and got the move: as its poll did, this counts as seen (no "your move" email).
    seat_seen(seat=seat)
    return sse("live", {"seq": game.last_seq, "v": context["cursor"], "html": html})


def live_cursor(game: Game) -> str:
    """The game page's status cursor now (``games.views.page.status_cursor``, with who is present)."""
    presence = presence_of(game) if game.is_open or game.is_active else {}
    return status_cursor(game, len(game.seats.all()), presence)


def close_connections() -> None:
    """Close this thread's database connections (a stream must hold none while it waits), but never a test's."""
    for conn in connections.all(initialized_only=True):
        if not conn.in_atomic_block:
            conn.close()


def _load_game(game_id: int) -> Game:
    return Game.objects.prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user"))).get(
        pk=game_id
    )


#: (game id, view key) -> (created, seq, cursor) last pushed by this process: a message that changed nothing
#: shown to that view (a chat line, a message heard twice) draws nothing.
_pushed: dict[tuple[int, Hashable], tuple[Any, int, str]] = {}
#: How many games ``_pushed`` remembers before it starts again (forgetting costs one render too many).
PUSHED_KEPT = 10_000


def render_game_views(message: dict[str, Any], views: dict[Hashable, Viewer]) -> dict[Hashable, bytes | None]:
    """The hub's renderer for ``game:<id>``: one ``live`` payload per view key, drawn once each.

    Nothing is drawn for a key whose last push from this process showed the
    same seq and status cursor (a chat line, a message heard twice).
    """
    try:
        game_id = int(message["topic"].split(":", 1)[1])
        try:
            game = _load_game(game_id)
        except Game.DoesNotExist:
            return {}
        state = (game.created, game.last_seq, live_cursor(game))
        if len(_pushed) > PUSHED_KEPT:
            _pushed.clear()
        out: dict[Hashable, bytes | None] = {}
        for key, viewer in views.items():
            if _pushed.get((game_id, key)) == state:
                continue
            _pushed[(game_id, key)] = state
            try:
                out[key] = live_payload(game, viewer)
            except Http404:
                out[key] = None
        return out
    finally:
        close_connections()


register_renderer("game", render_game_views)


def _open_game(request: HttpRequest, game_id: int) -> tuple[Hashable, Viewer, live.Connection]:
    game, seat = get_game_for_user(request, game_id)
    key, viewer = _viewer(request, seat)
    user_id = request.user.pk if request.user.is_authenticated else None
    connection = live.new_connection("game", user_id, game.pk, seat.position if seat is not None else None)
    return key, viewer, connection


def _catch_up(game_id: int, viewer: Viewer, seq: int, cursor: str) -> bytes:
    """The ``live`` event if the page (drawn at ``seq``/``cursor``) is behind, else nothing; closes the connection."""
    try:
        game = _load_game(game_id)
        if game.last_seq == seq and live_cursor(game) == cursor:
            return b""
        try:
            return live_payload(game, viewer)
        except Http404:
            return b""
    finally:
        close_connections()


async def stream_events(
    listener: Listener, connection: live.Connection, first: bytes = b"", *, nudge: str | None = None
) -> AsyncIterator[bytes]:
    """The stream: ``first``, then what the hub hands ``listener``, with keep-alive comments between.

    A rendered payload is sent as it is; a plain message as the event
    ``nudge`` (else its ``kind``), whose data is only its ``seq``. The
    listener must already be in this loop's hub; it leaves it when the
    stream ends, and the connection hooks of ``games.live`` run around it.
    """
    the_hub = hub()
    try:
        # The request's own connection (its session, its access check) is not kept while the stream waits.
        await sync_to_async(close_connections)()
        yield f"retry: {RETRY_MS}\n\n".encode() + first
        # Hooks are for signed-in viewers (presence): a visitor's idle stream costs no thread at all.
        hooked = connection.user_id is not None
        if hooked and live.has_hooks("connect"):
            await sync_to_async(live.run_hooks, thread_sensitive=False)("connect", connection)
        while True:
            item = await listener.get(settings.HERALD_LIVE_HEARTBEAT)
            if item is None:
                yield b": ping\n\n"
                if hooked and live.has_hooks("heartbeat"):
                    await sync_to_async(live.run_hooks, thread_sensitive=False)("heartbeat", connection)
            elif item is DOWN:
                yield sse("down", {})
                return
            elif isinstance(item, bytes):
                yield item
            else:
                yield sse(nudge or str(item.get("kind") or "refresh"), {"seq": item.get("seq")})
    finally:
        the_hub.remove(listener)
        if connection.user_id is not None and live.has_hooks("disconnect"):
            await sync_to_async(live.run_hooks, thread_sensitive=False)("disconnect", connection)


def event_stream(body: AsyncIterator[bytes]) -> StreamingHttpResponse:
    """A ``text/event-stream`` response of ``body``, never cached nor buffered by a proxy."""
    response = StreamingHttpResponse(body, content_type="text/event-stream")
    response["Cache-Control"] = "no-store"
    response["X-Accel-Buffering"] = "no"
    return response


def unavailable() -> HttpResponse:
    """503 while the hub cannot hear other processes (Redis down), or under WSGI: the page polls meanwhile."""
    response = HttpResponse(status=HTTPStatus.SERVICE_UNAVAILABLE)
    response["Retry-After"] = "5"
    return response


@require_safe
async def game_live(request: HttpRequest, game_id: int) -> HttpResponseBase:
    """The game page's stream (module docstring); ``seq`` and ``v`` say what the page shows."""
    try:
        seq = int(request.GET.get("seq", ""))
    except ValueError:
        return HttpResponseBadRequest("seq must be a number")
    cursor = request.GET.get("v", "")
    if not isinstance(request, ASGIRequest):
        return unavailable()  # a WSGI server would hold a thread per page, and send nothing until the end
    the_hub = hub()
    if not await the_hub.wait_ready(READY_WAIT):
        return unavailable()
    key, viewer, connection = await sync_to_async(_open_game)(request, game_id)
    listener = Listener([live.game_topic(game_id)], key=key, info=viewer)
    # Listening before looking: a change in between is both seen here and pushed (the page keeps the newer).
    the_hub.add(listener)
    try:
        first = await sync_to_async(_catch_up)(game_id, viewer, seq, cursor)
    except BaseException:
        the_hub.remove(listener)
        raise
    return event_stream(stream_events(listener, connection, first))


def _lobby_topics(request: HttpRequest) -> tuple[list[str], int | None]:
    user = request.user
    topics = [live.LOBBY]
    if user.is_authenticated:
        running = [Game.Status.OPEN, Game.Status.ACTIVE, Game.Status.FROZEN]
        ids = Seat.objects.filter(user=user, game__status__in=running).values_list("game_id", flat=True)
        topics += [live.user_topic(user.pk), *(live.game_topic(i) for i in ids)]
    close_connections()
    return topics, user.pk if user.is_authenticated else None


@require_safe
async def lobby_live(request: HttpRequest) -> HttpResponseBase:
    """The lobby's stream: event ``lobby`` when its lists may have changed (the page fetches them again)."""
    if not isinstance(request, ASGIRequest):
        return unavailable()
    the_hub = hub()
    if not await the_hub.wait_ready(READY_WAIT):
        return unavailable()
    topics, user_id = await sync_to_async(_lobby_topics)(request)
    listener = Listener(topics)
    the_hub.add(listener)
    return event_stream(stream_events(listener, live.new_connection("lobby", user_id), nudge="lobby"))
