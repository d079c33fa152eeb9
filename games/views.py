"""Game pages: the lobby, creating and joining games, the game page, moves, polling, chat.

Views only parse requests and render; ``games.services`` does every write
and ``games.selectors`` every list. Templates never receive engine state,
only ``engine.view(state, seat)``.

HTMX requests get the page's regions (partials of ``games/game.html``);
plain form posts get a redirect (post/redirect/get), or the full page with
an error status when the move was refused, so every form works without
JavaScript.
"""

from __future__ import annotations

import json
import math
import zlib
from functools import partial
from http import HTTPStatus
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Prefetch
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils.functional import SimpleLazyObject
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_htmx.middleware import HtmxDetails

from accounts.selectors import blocked_subquery
from correspondence import services as correspondence
from games import selectors, services
from games.domaine_board import unconfirmed_empty_play
from games.engine.registry import get_engine
from games.forms import GAME_FORMS, ChatForm
from games.i18n import refusal_text
from games.models import ChatMessage, Game, Seat
from moderation.selectors import is_moderator, request_state, with_hidden_flag

if TYPE_CHECKING:
    from accounts.models import User

#: Per game kind: moves the page must have confirmed (``(move, POST) -> refusal or None``).
MOVE_CONFIRMATIONS = {"domaine": unconfirmed_empty_play}
#: How long a rendered board is kept (a new move makes a new key at once; this bounds a deploy's stale HTML).
BOARD_CACHE_SECONDS = 300
#: Moves larger than this are refused before parsing (no real move comes close).
MAX_MOVE_BYTES = 4000
CHAT_SHOWN = 50


class HtmxHttpRequest(HttpRequest):
    """A request that went through ``HtmxMiddleware``."""

    htmx: HtmxDetails


class AuthenticatedHttpRequest(HtmxHttpRequest):
    """A request from a signed-in user (views decorated with ``login_required``)."""

    user: User


# ---------------------------------------------------------------------------
# Access


def get_game_for_user(request: HttpRequest, game_id: int) -> tuple[Game, Seat | None]:
    """Return ``(game, the user's seat or None)`` if the user may watch the game.

    Seats are prefetched with their users. Raises Http404 when the game does
    not exist or is private to others, so private games do not reveal
    themselves.
    """
    try:
        game = Game.objects.prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user"))).get(
            pk=game_id
        )
    except Game.DoesNotExist:
        raise Http404("No such game") from None
    user = request.user if request.user.is_authenticated else None
    if not selectors.can_view(game, user):
        raise Http404("No such game")
    return game, selectors.seat_for(game, user)


def get_game_for_player(request: HttpRequest, game_id: int) -> tuple[Game, Seat]:
    """Like ``get_game_for_user``, but raise PermissionDenied unless the user has a seat."""
    game, seat = get_game_for_user(request, game_id)
    if seat is None:
        raise PermissionDenied(_("You are not playing in this game."))
    return game, seat


def _busy_or(exc: Exception) -> str:
    """The sentence for a refused request: the service's reason, or "try again" when the game was busy.

    ``LockTimeout`` (another request held the game's row too long) is not a
    refusal of the site's rules, and its text is not for players.
    """
    if isinstance(exc, services.LockTimeout):
        return _("Please try again.")
    return str(exc)


# ---------------------------------------------------------------------------
# Lobby and creation


@require_safe
@never_cache
def lobby(request: HtmxHttpRequest) -> HttpResponse:
    """The home page: games to join, games waiting on you, your other games, recent results."""
    correspondence.sweep_on_request()
    user = request.user if request.user.is_authenticated else None
    invitations = list(selectors.my_invitations(user)) if user else []
    invited = {g.pk for g in invitations}
    context: dict[str, Any] = {
        "invitations": invitations,
        # An invitation is shown once, in its own list.
        "open_games": [g for g in selectors.open_games(user) if g.pk not in invited],
        "finished_games": list(selectors.recent_finished_games(user)),
        "my_move_games": list(selectors.my_move_games(user)) if user else [],
        "my_waiting_games": list(selectors.my_waiting_games(user)) if user else [],
    }
    return render(request, "games/lobby.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def game_new(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Show the new-game form of ``?kind=`` (default Dominion); on a valid POST create the game and go to it.

    Each kind has its form in ``GAME_FORMS`` and may have its own page,
    ``games/<kind>/new.html``, else ``games/new.html``.
    """
    kind = request.GET.get("kind") or "dominion"
    form_class = GAME_FORMS.get(kind)
    if form_class is None:
        raise Http404("No such game")
    bots = [b for b in form_class.offered_bots if b in _engine_bots(kind)]
    form = form_class(request.POST or None, bots=bots)
    if request.method == "POST" and form.is_valid():
        try:
            game = services.game_create(creator=request.user, **form.game_create_kwargs())
        except services.InvalidOptions as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, _("Game created."))
            return redirect("games:detail", game_id=game.pk)
    status = HTTPStatus.BAD_REQUEST if request.method == "POST" else HTTPStatus.OK
    return render(request, [f"games/{kind}/new.html", "games/new.html"], {"form": form, "kind": kind}, status=status)


def _engine_bots(kind: str) -> dict[str, Any]:
    try:
        return dict(get_engine(kind).bots)
    except (KeyError, ImportError):
        return {}


@login_required
@require_POST
def game_join(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    """Take a seat at an open game."""
    get_game_for_user(request, game_id)
    try:
        game = services.game_join(game_id=game_id, user=request.user)
    except services.ServiceError as exc:
        messages.error(request, str(exc))
    except services.LockTimeout as exc:
        messages.error(request, _busy_or(exc))
    else:
        messages.success(request, _("The game has started.") if game.is_active else _("You joined the game."))
    return redirect("games:detail", game_id=game_id)


@login_required
@require_POST
def game_leave(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    """Give up a seat at a game that has not started."""
    get_game_for_player(request, game_id)
    try:
        services.game_leave(game_id=game_id, user=request.user)
    except (services.ServiceError, services.LockTimeout) as exc:
        messages.error(request, _busy_or(exc))
        return redirect("games:detail", game_id=game_id)
    messages.success(request, _("You left the game."))
    return redirect("games:lobby")


@login_required
@require_POST
def game_cancel(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    """Cancel a game that has not started (its creator only)."""
    get_game_for_user(request, game_id)
    try:
        services.game_cancel(game_id=game_id, user=request.user)
    except (services.ServiceError, services.LockTimeout) as exc:
        messages.error(request, _busy_or(exc))
        return redirect("games:detail", game_id=game_id)
    messages.success(request, _("The game was cancelled."))
    return redirect("games:lobby")


@login_required
@require_POST
def game_resign(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    """Resign a running game: only with the form's confirmation box ticked (a resignation cannot be undone)."""
    get_game_for_player(request, game_id)
    if request.POST.get("confirm") != "1":
        messages.error(request, _("Tick the box to confirm that you resign."))
        return redirect("games:detail", game_id=game_id)
    try:
        services.game_resign(game_id=game_id, user=request.user)
    except (services.ServiceError, services.LockTimeout) as exc:
        messages.error(request, _busy_or(exc))
    else:
        messages.success(request, _("You resigned this game."))
    return redirect("games:detail", game_id=game_id)


# ---------------------------------------------------------------------------
# The game page


def _game_context(
    request: HttpRequest, game: Game, seat: Seat | None, *, error: str = "", snap: services.Snapshot | None = None
) -> dict[str, Any]:
    """Everything ``games/game.html`` and its partials need, for this viewer.

    ``view`` is ``engine.view(state, viewer)`` and the only game data the
    templates get; ``viewer`` is the seat index, or None for spectators.
    ``snap``: the game's snapshot at ``game.last_seq`` if the caller has it
    (the move path), else read from the cache.
    """
    seats = list(game.seats.all())
    viewer = seat.position if seat is not None else None
    view: dict[str, Any] | None = None
    events = None
    if game.started is not None:
        if snap is None:
            snap = services.snapshot_at(game)
        finished = game.status == Game.Status.FINISHED
        # A finished game hides nothing (as its log and replay do).
        view = get_engine(game.kind).view(snap.state, viewer, reveal_all=finished)
        events = snap.events
        if finished and not view.get("game_over"):
            # It ended off the board (resignations, timeouts): drawn as over, winners as the seats rank.
            view["game_over"] = True
            view["result"] = {**(view.get("result") or {}), "winners": [s.position for s in seats if s.rank == 1]}
        if (seat is not None and seat.given_up) or not game.is_active:
            # A bot plays this seat now: its former player still sees the hand, but has no move to make.
            # Nor has anyone once the game is over: a forfeit ends it without the rules, whose view
            # would still list the moves of the seat whose turn it was.
            view["legal"] = []
            view["decision"] = None

    def chat_lines() -> list[ChatMessage]:
        lines = list(_visible_chat(request, game).select_related("user").order_by("-created", "-pk")[:CHAT_SHOWN])
        lines.reverse()
        return lines

    # Read only by what draws the chat: a move's answer and a poll's live region do not.
    chat: Any = SimpleLazyObject(chat_lines)
    user = request.user
    return {
        "game": game,
        "seat": seat,
        "seats": seats,
        "viewer": viewer,
        "view": view,
        "my_move": seat is not None and game.is_active and viewer in game.to_act and not seat.given_up,
        "waiting_on": [s for s in seats if s.position in game.to_act] if game.is_active else [],
        # A bot answers within a second or two: poll faster while one is to act.
        "poll_every": "1s" if game.is_active and any(s.bot for s in seats if s.position in game.to_act) else "5s",
        # Built only when the log's cached fragment is missing (a new position, or another reader).
        "log": SimpleLazyObject(partial(selectors.game_log, game, viewer, events=events)),
        # What the log is drawn from, extending the lines drawn for the previous position (games_tags.log_entries).
        "log_events": events,
        "log_cache": _log_cache_key(game, viewer),
        "chat": chat,
        "chat_cursor": SimpleLazyObject(lambda: chat[-1].pk if chat else 0),
        "chat_form": ChatForm(),
        "can_chat": user.is_authenticated and not request_state(request).muted,
        "can_join": (user.is_authenticated and game.is_open and seat is None and len(seats) < game.max_players),
        "can_leave": game.is_open and seat is not None and game.creator_id != user.pk,
        "can_cancel": game.is_open and user.is_authenticated and (game.creator_id == user.pk or user.is_staff),
        "can_resign": game.is_active and seat is not None and not seat.given_up,
        # Who else may take a seat at an invite-only game (the invitees themselves, the creator, staff see it).
        "invitees": (
            [i.user.shown_name for i in game.invitations.select_related("user").order_by("pk")]
            if game.is_open and game.private
            else []
        ),
        "board_template": [f"games/{game.kind}/board.html", "games/generic_board.html"],
        "error": error,
        "cursor": _cursor(game, len(seats)),
        # The board is the costliest part of the page and depends only on these (its forms carry the
        # session's CSRF token, so the session's secret is part of the key; without one, no caching).
        "board_cache": _board_cache_key(request, game, viewer),
        "board_cache_seconds": BOARD_CACHE_SECONDS,
    }


def _visible_chat(request: HttpRequest, game: Game) -> Any:
    """The game's chat lines this viewer is shown (the page's list, and what its poll compares with)."""
    chat_qs = ChatMessage.objects.filter(game=game)
    # Lines a moderator hid stay in the table for the record; only moderators see them (marked).
    if is_moderator(request.user):
        chat_qs = with_hidden_flag(chat_qs)
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


def _cursor(game: Game, seat_count: int) -> str:
    """What a poll compares to see whether the live region changed (besides seq).

    A join changes the seat count; a forfeit (a resignation out of turn in a
    game of 3-4) changes only the seats' forfeit flags; a moderator's
    deadline extension or clock pause, or a vacation, changes only the
    seats' deadlines, which the page's clocks show (a checksum of them keeps
    the poll's URL short). Seats come from the prefetch: no query.
    """
    seats = game.seats.all()
    gone = "".join("f" if s.forfeited else "-" for s in seats)
    deadlines = ",".join(s.deadline.isoformat() if s.deadline else "" for s in seats)
    return f"{game.status}.{seat_count}.{gone}.{zlib.crc32(deadlines.encode()):08x}"


@require_safe
@never_cache
def game_detail(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """The game page: status, board, log and chat; spectators get the public view."""
    correspondence.sweep_on_request()
    game, seat = get_game_for_user(request, game_id)
    # Opening the game counts as having seen "your move": no email for it then.
    correspondence.seat_seen(seat=seat)
    return render(request, "games/game.html", _game_context(request, game, seat))


def _render_live(request: HttpRequest, game_id: int, *, error: str = "", status: int = HTTPStatus.OK) -> HttpResponse:
    """Render the ``live`` region (status, board, log) for this viewer, fresh from the database."""
    game, seat = get_game_for_user(request, game_id)
    return render(request, "games/game.html#live", _game_context(request, game, seat, error=error), status=status)


def _render_page(request: HttpRequest, game_id: int, *, error: str, status: int) -> HttpResponse:
    """Render the full game page with an error, for refused plain (non-HTMX) posts."""
    game, seat = get_game_for_user(request, game_id)
    return render(request, "games/game.html", _game_context(request, game, seat, error=error), status=status)


class MalformedMove(ValueError):
    """The request does not carry a move and a seq in a shape we understand."""


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def loads_plain_json(raw: str) -> Any:
    """Parse JSON a client sent, refusing what PostgreSQL's jsonb or UTF-8 cannot hold.

    Refused (``ValueError``): invalid JSON, NaN and Infinity, nesting deep
    enough to exhaust the parser, and strings with NUL or lone surrogates.
    """
    try:
        value = json.loads(raw, parse_constant=_refuse_constant)
    except RecursionError:
        raise ValueError("nested too deeply") from None
    _check_plain(value, depth=0)
    return value


def _check_plain(value: Any, depth: int) -> None:
    if depth > 8:  # no move of either game nests more than two levels
        raise ValueError("nested too deeply")
    if isinstance(value, str):
        if "\x00" in value:
            raise ValueError("NUL in a string")
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise ValueError("not UTF-8 text") from None
    elif isinstance(value, float) and not math.isfinite(value):
        raise ValueError("not a finite number")
    elif isinstance(value, dict):
        for k, v in value.items():
            _check_plain(k, depth + 1)
            _check_plain(v, depth + 1)
    elif isinstance(value, list):
        for v in value:
            _check_plain(v, depth + 1)


def parse_move(post: Any) -> tuple[dict[str, Any], int]:
    """Return ``(move, expected_seq)`` from a move form.

    The move is either JSON in a ``move`` field, or the fields ``act``,
    ``card`` and ``cards`` (repeated) of the notation. ``seq`` is required.
    A ``player`` key is dropped: the seat comes from the signed-in user.

    Raises:
        MalformedMove: missing or unreadable fields.
    """
    try:
        seq = int(post.get("seq", ""))
    except ValueError:
        raise MalformedMove(_("The form lacks the position it was made for.")) from None
    if not 0 <= seq < 2**31:  # the column's range; anything else is not a position we sent
        raise MalformedMove(_("The form lacks the position it was made for."))
    raw = post.get("move")
    if raw:
        if len(raw) > MAX_MOVE_BYTES:
            raise MalformedMove(_("That move is too large."))
        try:
            move = loads_plain_json(raw)
        except ValueError:
            raise MalformedMove(_("That move is not valid JSON.")) from None
        if not isinstance(move, dict) or not isinstance(move.get("act"), str):
            raise MalformedMove(_("A move is an object with an 'act'."))
        move.pop("player", None)
        return move, seq
    act = post.get("act", "")
    if not act or len(act) > 40:
        raise MalformedMove(_("Choose a move."))
    move = {"act": act}
    if post.get("card"):
        move["card"] = post["card"][:40]
    cards = post.getlist("cards") if hasattr(post, "getlist") else []
    if act == "choose" or cards:
        if len(cards) > 100:
            raise MalformedMove(_("That move is too large."))
        move["cards"] = [c[:40] for c in cards]
    try:
        _check_plain(move, depth=0)
    except ValueError:
        raise MalformedMove(_("That move cannot be read.")) from None
    return move, seq


@login_required
@require_POST
def game_move(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    """Make a move; answer HTMX with the live region, plain posts with a redirect.

    Status codes: 200 (HTMX, applied), 302 (plain post, applied or stale),
    400 malformed, 403 not your move, 409 stale or game not running,
    422 refused by the rules (with the engine's reason).
    """
    game = _visible_game_light(request, game_id)  # 404 for games the user may not see
    try:
        move, seq = parse_move(request.POST)
        confirm = MOVE_CONFIRMATIONS.get(game.kind)
        refusal = confirm(move, request.POST) if confirm else None
        if refusal:
            return _refused(request, game_id, refusal, HTTPStatus.UNPROCESSABLE_ENTITY)
        result = services.game_submit_move(game_id=game_id, user=request.user, move=move, expected_seq=seq)
    except MalformedMove as exc:
        return _refused(request, game_id, str(exc), HTTPStatus.BAD_REQUEST)
    except services.StaleMove:
        message = _("The game moved on before your move arrived; here is the current position.")
        if not request.htmx:
            messages.warning(request, message)
            return redirect("games:detail", game_id=game_id)
        return _render_live(request, game_id, error=message, status=HTTPStatus.CONFLICT)
    except services.IllegalMove as exc:
        return _refused(request, game_id, refusal_text(exc.reason, exc.code), HTTPStatus.UNPROCESSABLE_ENTITY)
    except services.NotYourMove as exc:
        return _refused(request, game_id, str(exc), HTTPStatus.FORBIDDEN)
    except (services.GameNotActive, services.LockTimeout) as exc:
        return _refused(request, game_id, _busy_or(exc), HTTPStatus.CONFLICT)
    if request.htmx:
        if settings.CELERY_TASK_ALWAYS_EAGER and any(s.bot_played for s in result.seats):
            # Tasks run inline (no broker): a bot may already have answered, after the commit.
            return _render_live(request, game_id)
        # Drawn from what the move just committed: no second read of game, seats and state.
        game = selectors.with_seats(result.game, result.seats)
        seat = selectors.seat_for(game, request.user)
        return render(request, "games/game.html#live", _game_context(request, game, seat, snap=result.snapshot))
    return redirect("games:detail", game_id=game_id)


def _visible_game_light(request: HttpRequest, game_id: int) -> Game:
    """The game with only the columns access needs (kind, privacy, creator); Http404 as ``get_game_for_user``.

    The move path's access check: the move service reads the game again under
    its lock, so the seats and players are not loaded here (a private game's
    check queries its seats and invitations, as ``selectors.can_view`` does).
    """
    try:
        game = Game.objects.only("id", "kind", "private", "creator_id").get(pk=game_id)
    except Game.DoesNotExist:
        raise Http404("No such game") from None
    if not selectors.can_view(game, request.user if request.user.is_authenticated else None):
        raise Http404("No such game")
    return game


def _refused(request: HtmxHttpRequest, game_id: int, message: str, status: int) -> HttpResponse:
    if request.htmx:
        return _render_live(request, game_id, error=message, status=status)
    return _render_page(request, game_id, error=message, status=status)


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
    # A page left open counts as seen: no "your move" email for a move the player watches arrive.
    correspondence.seat_seen(seat=seat)
    cursor = request.GET.get("v")
    live_changed = seq != game.last_seq or (cursor is not None and cursor != _cursor(game, len(game.seats.all())))
    # Only lines this viewer is shown count: the page's cursor never reaches the others.
    last_chat = _visible_chat(request, game).order_by("-pk").values_list("pk", flat=True).first() or 0
    chat_changed = last_chat != chat_seen
    if not live_changed and not chat_changed:
        return HttpResponse(status=HTTPStatus.NO_CONTENT)
    context = _game_context(request, game, seat)
    chat_part = render_to_string("games/game.html#chat_messages", {**context, "oob": True}, request=request)
    if not live_changed:
        # Only the chat changed: swap it out of band and leave the board alone, so
        # a move being built on the page (a Domaine draft) is not wiped.
        response = HttpResponse(chat_part)
        response["HX-Reswap"] = "none"
        return response
    parts = [render_to_string("games/game.html#live", context, request=request)]
    if chat_changed:
        parts.append(chat_part)
    return HttpResponse("".join(parts))


@login_required
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
        error = " ".join(e for errors in form.errors.values() for e in errors)
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
    context = _game_context(request, game, seat)
    context["chat_error"] = error
    # A refused message stays in the box, so a rate limit does not make the player retype it.
    context["chat_text"] = request.POST.get("text", "")[:500] if error else ""
    template = "games/game.html#chat" if request.htmx else "games/game.html"
    return render(request, template, context, status=status)


@require_safe
def game_record(request: HttpRequest, game_id: int) -> HttpResponse:
    """Download a finished game as JSON (options, seed, every move, result)."""
    game, _seat = get_game_for_user(request, game_id)
    try:
        record = services.game_record(game)
    except services.GameNotActive:
        raise Http404("The record is available once the game has finished.") from None
    response = JsonResponse(record, json_dumps_params={"indent": 1, "ensure_ascii": False})
    response["Content-Disposition"] = f'attachment; filename="herald-{game.kind}-{game.pk}.json"'
    return response


@require_safe
def game_replay(request: HttpRequest, game_id: int) -> HttpResponse:
    """Step through a finished game's log: ``?step=N`` (0 = the deal) and ``?seat=K`` (whose eyes).

    Only finished games: while a game runs, its past positions would reveal
    hands. Everything is shown (the game is over), from the chosen seat's
    place at the table.
    """
    game, seat = get_game_for_user(request, game_id)
    if not game.is_finished:
        raise Http404("Replays are available once the game has finished.")
    positions = services.replay_states(game)
    last = len(positions) - 1
    try:
        step = min(max(int(request.GET.get("step", last)), 0), last)
        perspective = int(request.GET.get("seat", seat.position if seat else 0))
    except ValueError:
        return HttpResponseBadRequest(_("Step and seat must be numbers."))
    seats = list(game.seats.all())
    if not 0 <= perspective < len(seats):
        perspective = 0
    engine = get_engine(game.kind)
    seq, mover, move, state, events = positions[step]
    view = engine.view(state, perspective, reveal_all=True)
    view["legal"] = []
    view["decision"] = None
    names = [str(s.name) for s in seats]
    from games.eventtext import describe

    lines = [describe(game.kind, e.for_viewer(perspective, reveal_all=True) or {}, names) for e in events]
    context = {
        "game": game,
        "seat": None,
        "seats": seats,
        "viewer": perspective,
        "view": view,
        "my_move": False,
        "step": step,
        "last": last,
        "mover": names[mover] if mover is not None else "",
        "lines": [line for line in lines if line],
        "board_template": [f"games/{game.kind}/board.html", "games/generic_board.html"],
        "replaying": True,
    }
    return render(request, "games/replay.html", context)
