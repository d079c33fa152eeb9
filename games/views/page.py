"""The game page: its context, the cached fragments' keys, the poll and the chat."""

from __future__ import annotations

import zlib
from functools import partial
from http import HTTPStatus
from typing import Any

from django.db.models import BooleanField, ExpressionWrapper, Q
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils.functional import SimpleLazyObject
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST, require_safe

from accounts.selectors import blocked_subquery
from games import policy, presentation, selectors, services
from games.forms import ChatForm
from games.lifecycle import seat_seen
from games.models import ChatMessage, Game, Seat
from games.presence import presence_mark, presence_of, presence_touch
from games.replay import Snapshot
from games.viewing import seat_view, turn_free
from games.views.access import (
    AuthenticatedHttpRequest,
    HtmxHttpRequest,
    get_game_for_user,
    login_required_for_game_post,
)

#: How long a rendered board is kept (a new move makes a new key at once; this bounds a deploy's stale HTML).
BOARD_CACHE_SECONDS = 300
CHAT_SHOWN = 50


def game_context(
    request: HttpRequest, game: Game, seat: Seat | None, *, error: str = "", snap: Snapshot | None = None
) -> dict[str, Any]:
    """Everything ``games/game.html`` and its partials need, for this viewer.

    ``view`` is ``engine.view(state, viewer)`` and the only game data the
    templates get; ``viewer`` is the seat index, or None for spectators.
    ``snap``: the game's snapshot at ``game.last_seq`` if the caller has it
    (the move path), else read from the cache.
    """
    seats = list(game.seats.all())
    viewer = seat.position if seat is not None else None
    shown = seat_view(game, seat, snap=snap)
    view = shown.view
    events = shown.snapshot.events if shown.snapshot is not None else None
    # Whether the turn's player is free to move, for a game whose log reads it (games.presentation).
    settled = presentation.log_reads_turn(game.kind) and turn_free(game, shown.snapshot)

    def chat_lines() -> list[ChatMessage]:
        lines = list(_visible_chat(request, game).select_related("user").order_by("-created", "-pk")[:CHAT_SHOWN])
        lines.reverse()
        return lines

    # Presence (games.presence): who has the game open now, else when last seen; one cache read.
    presence = presence_of(game) if game.is_open or game.is_active else {}
    # Read only by what draws the chat: a move's answer and a poll's live region do not.
    chat: Any = SimpleLazyObject(chat_lines)
    user = request.user
    return {
        "game": game,
        "seat": seat,
        "seats": seats,
        "viewer": viewer,
        # The reader's own seat, which the board calls "(you)" (the replay draws other seats' eyes too).
        "you": viewer,
        "view": view,
        "my_move": seat is not None and game.is_active and viewer in game.to_act and not seat.given_up,
        # Undo and the others' consent (games/_undo.html); read only when the status region is drawn.
        "undo": SimpleLazyObject(lambda: services.undo_context(game, seat, seats) or {}),
        "undo_hint_template": presentation.undo_hint_template(game.kind),
        "waiting_on": [s for s in seats if s.position in game.to_act] if game.is_active else [],
        # A bot answers within a second or two: poll faster while one is to act.
        "poll_every": "1s" if game.is_active and any(s.bot for s in seats if s.position in game.to_act) else "5s",
        # Built only when the log's cached fragment is missing (a new position, or another reader).
        "log": SimpleLazyObject(partial(selectors.game_log, game, viewer, events=events, settled=settled)),
        # What the log is drawn from, extending the lines drawn for the previous position (games_tags.log_entries).
        "log_events": events,
        "log_settled": settled,
        "log_cache": _log_cache_key(game, viewer),
        "chat": chat,
        "chat_cursor": SimpleLazyObject(lambda: chat[-1].pk if chat else 0),
        "chat_form": ChatForm(),
        "can_chat": user.is_authenticated and not policy.is_restricted(user, "chat"),
        "can_join": (user.is_authenticated and game.is_open and seat is None and len(seats) < game.max_players),
        "can_leave": game.is_open and seat is not None and game.creator_id != user.pk,
        "can_cancel": game.is_open and user.is_authenticated and (game.creator_id == user.pk or user.is_staff),
        "can_resign": game.is_active and seat is not None and not seat.given_up,
        # The game's standing answers for this seat in this game, if it has any (drawn outside the polled region).
        "standing_form": (
            form_class(initial_settings=seat.standing)
            if (form_class := presentation.standing_form(game.kind))
            and game.is_active
            and seat is not None
            and not seat.given_up
            else None
        ),
        # Who else may take a seat at an invite-only game (the invitees themselves, the creator, staff see it).
        "invitees": (
            [i.user.shown_name for i in game.invitations.select_related("user").order_by("pk")]
            if game.is_open and game.private
            else []
        ),
        # The game's options in words, for the line of facts under the seats (its page part says them).
        "options_text": presentation.options_text(game),
        # The game's board and its stylesheet (its page part, games.presentation), else the generic board.
        "board_template": presentation.board_templates(game.kind),
        "board_stylesheet": presentation.stylesheet(game.kind),
        "error": error,
        "presence": presence,
        "cursor": status_cursor(game, len(seats), presence),
        # The board is the costliest part of the page and depends only on these (its forms carry the
        # session's CSRF token, so the session's secret is part of the key; without one, no caching).
        "board_cache": _board_cache_key(request, game, viewer),
        "board_cache_seconds": BOARD_CACHE_SECONDS,
    }


def _visible_chat(request: HttpRequest, game: Game) -> Any:
    """The game's chat lines this viewer is shown (the page's list, and what its poll compares with)."""
    chat_qs = ChatMessage.objects.filter(game=game)
    # Lines a moderator hid stay in the table for the record; only moderators see them (marked).
    if policy.reads_hidden_chat(request.user):
        chat_qs = chat_qs.annotate(is_hidden=ExpressionWrapper(Q(moderation_hidden__isnull=False), BooleanField()))
    else:
        chat_qs = chat_qs.filter(moderation_hidden__isnull=True)
    if request.user.is_authenticated:
        # Chat from players the viewer blocked is hidden, for the viewer only.
        chat_qs = chat_qs.exclude(user_id__in=blocked_subquery(request.user))
    return chat_qs


def _board_cache_key(request: HttpRequest, game: Game, viewer: int | None) -> str:
    """What the rendered board depends on: what the log's does (``_log_cache_key``) and the CSRF secret.

    Empty (no caching) while the request has no CSRF secret yet: the board's
    forms would then carry a token of a secret the next request replaces.
    """
    secret = request.META.get("CSRF_COOKIE")
    if not secret or game.started is None:
        return ""
    return f"{_log_cache_key(game, viewer)}:{secret}"


def _log_cache_key(game: Game, viewer: int | None) -> str:
    """What the log's text depends on: the position, whose eyes and the language (it has no form).

    Forfeits (a timeout, a resignation) change the page without a move, so
    the seats' forfeit flags are part of the key too, and so are the names
    shown (a deleted account, a new display name). Seats come from the
    prefetch, with their users: no query. (``{% cache %}`` hashes the key.)
    """
    seats = game.seats.all()
    gone = "".join("f" if s.forfeited else "-" for s in seats)
    names = "\x1f".join(str(s.name) for s in seats)
    return f"{game.pk}:{game.last_seq}:{game.status}:{gone}:{viewer}:{get_language()}:{names}"


def status_cursor(game: Game, seat_count: int, presence: dict[int, Any]) -> str:
    """What a poll compares to see whether the live region changed (besides seq).

    A join changes the seat count; a forfeit (a resignation out of turn in a
    game of 3-4) changes only the seats' forfeit flags; a moderator's
    deadline extension or clock pause, or a vacation, changes only the
    seats' deadlines, which the page's clocks show (a checksum of them keeps
    the poll's URL short); a request to take moves back changes only its row; a player
    arriving or leaving changes only ``presence`` (``games.presence``). Seats come from
    the prefetch: no query.
    """
    seats = game.seats.all()
    gone = "".join("f" if s.forfeited else "-" for s in seats)
    deadlines = ",".join(s.deadline.isoformat() if s.deadline else "" for s in seats)
    # A request to take moves back, and each answer to it, changes the page without a move (games.undo).
    asked = services.undo_request_mark(game) if game.is_active else ""
    here = presence_mark(game, presence)
    return f"{game.status}.{seat_count}.{gone}.{zlib.crc32(deadlines.encode()):08x}{asked}.{here}"


@require_safe
@never_cache
def game_detail(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """The game page: status, board, log and chat; spectators get the public view."""
    policy.request_work("game")
    game, seat = get_game_for_user(request, game_id)
    # Opening the game counts as having seen "your move"; while it stays open, no email for it.
    seat_seen(seat=seat)
    presence_touch(game, seat.user_id if seat is not None else None)
    return render(request, "games/game.html", game_context(request, game, seat))


def render_live(request: HttpRequest, game_id: int, *, error: str = "", status: int = HTTPStatus.OK) -> HttpResponse:
    """Render the ``live`` region (status, board, log) for this viewer, fresh from the database."""
    game, seat = get_game_for_user(request, game_id)
    context = game_context(request, game, seat, error=error)
    return live_response(request, context, status=status, regions=not game.is_active)


# --- A live page equals a reloaded page (issue 28 part 4) ---------------------------------------


def live_response(
    request: HttpRequest, context: dict[str, Any], *, status: int = HTTPStatus.OK, regions: bool = False
) -> HttpResponse:
    """The ``live`` region for an htmx answer (a move, a poll), with what a reload would show differently.

    Out of band: the page's messages (``_messages.html``: rendering them marks them read, so "Game
    created." goes with the first update, as a reload drops it), and with ``regions`` (the game
    started or ended since the page was drawn: ``regions_changed``) the standing answers and the
    game's statistics, which appear and go with the game's status.
    """
    oob = {**context, "oob": True}
    parts = [
        render_to_string("games/game.html#live", context, request=request),
        render_to_string("_messages.html", oob, request=request),
    ]
    if regions:
        parts.append(render_to_string("games/game.html#standing", oob, request=request))
        parts.append(render_to_string("games/game.html#stats", oob, request=request))
    return HttpResponse("".join(parts), status=status)


def regions_changed(seen: str | None, now: str) -> bool:
    """Whether the regions outside ``live`` differ between the page's cursor ``seen`` and ``now`` (``status_cursor``).

    They depend on the game's status and the seats' forfeits (a seat handed to a bot loses its
    standing answers), the cursor's first and third fields.
    """
    if seen is None:
        return False
    a, b = seen.split("."), now.split(".")
    return len(a) < 3 or (a[0], a[2]) != (b[0], b[2])


def render_page(request: HttpRequest, game_id: int, *, error: str, status: int) -> HttpResponse:
    """Render the full game page with an error, for refused plain (non-HTMX) posts."""
    game, seat = get_game_for_user(request, game_id)
    return render(request, "games/game.html", game_context(request, game, seat, error=error), status=status)


@require_safe
def game_poll(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """Return 204 if nothing changed since ``?seq=N&v=...&chat=M``, else the changed regions.

    ``seq`` is the last move seen, ``v`` the status cursor (a join changes the
    page without a move), ``chat`` the last chat message id seen.
    """
    try:
        seq = int(request.GET.get("seq", ""))
        chat_seen = int(request.GET.get("chat", "0") or 0)
    except ValueError:
        return HttpResponseBadRequest(_("seq must be a number"))
    game, seat = get_game_for_user(request, game_id)
    # A page left open counts as seen, and as present (games.presence): the "your move" email waits.
    seat_seen(seat=seat)
    presence_touch(game, seat.user_id if seat is not None else None)
    cursor = request.GET.get("v")
    presence = presence_of(game) if game.is_open or game.is_active else {}
    moved = seq != game.last_seq
    live_changed = moved or (cursor is not None and cursor != status_cursor(game, len(game.seats.all()), presence))
    # Only lines this viewer is shown count: the page's cursor never reaches the others.
    last_chat = _visible_chat(request, game).order_by("-pk").values_list("pk", flat=True).first() or 0
    chat_changed = last_chat != chat_seen
    if not live_changed and not chat_changed:
        return HttpResponse(status=HTTPStatus.NO_CONTENT)
    context = game_context(request, game, seat)
    chat_part = render_to_string("games/game.html#chat_messages", {**context, "oob": True}, request=request)
    if not live_changed:
        # Only the chat changed: swap it out of band and leave the board alone, so
        # a move being built on the page (a draft of a board built by clicks) is not wiped.
        response = HttpResponse(chat_part)
        response["HX-Reswap"] = "none"
        return response
    response = live_response(request, context, regions=regions_changed(cursor, context["cursor"]))
    if chat_changed:
        response.write(chat_part)
    return response


@login_required_for_game_post
@require_POST
def game_chat(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    """Post a chat message; HTMX gets the chat region, plain posts a redirect (or, refused, the page).

    A refused plain post gets the whole page with the reason beside the chat
    box and the text still in it, with the error status; the form's action
    ends in ``#chat``, so the browser shows that part of the page.
    """
    game, seat = get_game_for_user(request, game_id)
    form = ChatForm(request.POST)
    status = HTTPStatus.OK
    error = ""
    if not form.is_valid():
        error = " ".join(str(e) for errors in form.errors.values() for e in errors)
        status = HTTPStatus.BAD_REQUEST
    else:
        try:
            services.chat_post(game_id=game.pk, user=request.user, text=form.cleaned_data["text"])
        except services.ChatRateLimited as exc:
            error, status = str(exc), HTTPStatus.TOO_MANY_REQUESTS
        except services.ServiceError as exc:
            error, status = str(exc), HTTPStatus.BAD_REQUEST
    if not request.htmx and not error:
        return redirect(f"{game.get_absolute_url()}#chat")
    context = game_context(request, game, seat)
    context["chat_error"] = error
    # A refused message stays in the box, so a rate limit does not make the player retype it.
    context["chat_text"] = request.POST.get("text", "")[:500] if error else ""
    template = "games/game.html#chat" if request.htmx else "games/game.html"
    return render(request, template, context, status=status)
