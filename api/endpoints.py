"""The operations of ``/api/v1/``: thin, as the site's views are (parse, call one service or selector, shape).

Each takes a token with the scope it needs (``api.auth``): ``read`` for
every GET, ``play`` to create, join, leave and move, ``chat`` to post chat.
The same services and the same hidden-information filtering (``games.viewing``)
serve the pages and these.
"""

from __future__ import annotations

import json
from datetime import timedelta
from http import HTTPStatus
from typing import Any

from django.conf import settings
from django.db.models import Prefetch
from django.utils import timezone
from django.utils.translation import gettext as _
from ninja import Path, Query, Router, Status
from pydantic import TypeAdapter
from pydantic import ValidationError as PydanticValidationError

from accounts.models import User
from accounts.selectors import blocked_subquery
from api import gameshapes, stream
from api.auth import CHAT, PLAY, READ
from api.gameshapes import DRAFT, ChoicesData, ChoicesIn, CreateGameIn, GameStateData
from api.present import MAX_ID, game_out, move_choices, state_out, visible_game
from api.problems import Problem, account_suspended
from api.schemas import (
    AccountOut,
    ChatIn,
    ChatOut,
    EventsOut,
    GameOut,
    LadderOut,
    MoveIn,
    PlainStr,
    ProblemOut,
    ProfileOut,
    UndoAnswerIn,
    UndoIn,
)
from games import kinds, selectors, services
from games.forms import ChatForm
from games.models import ChatMessage, Game, Seat
from games.plainjson import check_plain
from moderation import selectors as moderation
from ratings import selectors as rating_selectors

router = Router()

#: Games listed by ``GET /games``.
GAMES_LIMIT = 50
#: Chat lines returned by one read.
CHAT_LIMIT = 100
#: Moves larger than this (as JSON) are refused before anything else (as the page's move form does).
MAX_MOVE_BYTES = 4000

GameId = Path(..., ge=1, le=MAX_ID, description="The game's id.")
RequestId = Path(..., ge=1, le=MAX_ID, description="The undo request's id (``undo_request.id`` in the game's state).")
STATUS_FILTER = Query(None, description="Only games in this status.")
USERNAME = Path(..., max_length=150, description="The player's username.")
LADDER_KIND = Path(
    ..., max_length=20, description="A game kind: " + " or ".join(", ".join(kinds.names()).rsplit(", ", 1)) + "."
)


#: What any operation with a token may answer: no or a bad token, a missing scope or a suspended account,
#: too many requests.
ANY = (401, 403, 429)
#: ... and one with parameters or a body: 400 when they do not match the schema.
PARAMS = (400, *ANY)
#: ... and one about a game: 404 when it does not exist or is private to others.
GAME = (404, *PARAMS)


def _errors(ok: tuple[int, Any], *statuses: int) -> dict[int, Any]:
    """Response schemas: the ``ok`` (status, schema) pair and ``statuses``, the errors it can give, as problem
    details (each operation lists only its own, so a client knows what to handle)."""
    out: dict[int, Any] = dict([ok])
    for status in sorted(set(statuses)):
        out[status] = ProblemOut
    return out


def _check_shape(adapter: TypeAdapter[Any], data: Any) -> None:
    """Raise 400 ``invalid_request`` (with pydantic's ``errors``, as for the request itself) unless ``data``
    has the shape ``adapter`` checks."""
    try:
        adapter.validate_python(data)
    except PydanticValidationError as exc:
        errors = [{"loc": ["body", "move", *(str(p) for p in e["loc"])], "msg": e["msg"]} for e in exc.errors()[:20]]
        raise Problem(
            HTTPStatus.BAD_REQUEST,
            "invalid_request",
            _("That is not a move of the game's notation."),
            extra={"errors": errors},
        ) from None


def _user(request: Any) -> User:
    return request.auth.user


def _with_seats(qs: Any) -> Any:
    return qs.prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))


@router.get("/me", response=_errors((200, AccountOut), *ANY), auth=READ, tags=["account"])
def me(request: Any) -> dict[str, Any]:
    """The token's user and the token's scopes."""
    user = _user(request)
    return {
        "username": user.username,
        "name": str(user.shown_name),
        "bot_account": user.bot_account,
        "scopes": list(request.auth.scopes),
        "profile_url": user.get_absolute_url(),
    }


@router.get("/games", response=_errors((200, list[GameOut]), *PARAMS), auth=READ, tags=["games"])
def my_games(request: Any, status: Game.Status | None = STATUS_FILTER) -> Any:
    """The caller's games (a seat at them), newest first, at most 50."""
    user = _user(request)
    qs = Game.objects.filter(seats__user=user).defer("options", "seed")
    if status is not None:
        qs = qs.filter(status=status)
    return [game_out(g, user) for g in _with_seats(qs.order_by("-created", "-pk"))[:GAMES_LIMIT]]


@router.get("/games/my-move", response=_errors((200, list[GameOut]), *ANY), auth=READ, tags=["games"])
def my_move_games(request: Any) -> Any:
    """Running games where the caller owes a decision, the oldest deadline first (the lobby's "your move")."""
    user = _user(request)
    return [game_out(g, user) for g in _with_seats(selectors.my_move_games(user))]


@router.get("/games/open", response=_errors((200, list[GameOut]), *ANY), auth=READ, tags=["games"])
def open_games(request: Any) -> Any:
    """Open games the caller may join or watch (invitations included), newest first."""
    user = _user(request)
    return [game_out(g, user) for g in _with_seats(selectors.open_games(user))]


@router.post("/games", response=_errors((201, GameOut), 422, *PARAMS), auth=PLAY, tags=["games"])
def create_game(request: Any, body: CreateGameIn) -> Any:
    """Create a game and take a seat at it. It starts once full (at once, with bots in the other seats).

    The start deals the seats in a random order: ``my_seat`` says which is yours.
    """
    user = _user(request)
    per_move = timedelta(seconds=body.time_per_move)
    if per_move not in services.TIME_CONTROLS:
        allowed = ", ".join(str(int(d.total_seconds())) for d in services.TIME_CONTROLS)
        raise Problem(
            HTTPStatus.UNPROCESSABLE_ENTITY,
            "invalid_options",
            _("The time per move must be one of (seconds): %(allowed)s.") % {"allowed": allowed},
        )
    names = list(dict.fromkeys(body.invited))
    invited = list(User.objects.filter(username__in=names, deleted__isnull=True))
    missing = sorted(set(names) - {u.username for u in invited})
    if missing:
        raise Problem(
            HTTPStatus.UNPROCESSABLE_ENTITY,
            "invalid_options",
            _("No such player: %(names)s") % {"names": ", ".join(missing)},
        )
    try:
        options = gameshapes.create_options(body.kind, body)  # the fields the game reads (its API part)
    except ValueError as exc:
        raise Problem(HTTPStatus.UNPROCESSABLE_ENTITY, "invalid_options", str(exc)) from None
    try:
        check_plain(options)
    except ValueError:
        raise Problem(HTTPStatus.BAD_REQUEST, "invalid_request", _("The request is malformed.")) from None
    game = services.game_create(
        creator=user,
        kind=body.kind,
        options=options,
        players=body.players,
        rated=body.rated,
        private=body.private,
        invited=invited,
        time_per_move=per_move,
        bots=body.bots,
    )
    return Status(HTTPStatus.CREATED, game_out(visible_game(game.pk, user), user))


@router.post("/games/{game_id}/join", response=_errors((200, GameOut), 409, *GAME), auth=PLAY, tags=["games"])
def join_game(request: Any, game_id: int = GameId) -> Any:
    """Take a seat at an open game; the game starts when the last seat is taken."""
    user = _user(request)
    visible_game(game_id, user)
    services.game_join(game_id=game_id, user=user)
    return game_out(visible_game(game_id, user), user)


@router.post("/games/{game_id}/leave", response=_errors((204, None), 409, *GAME), auth=PLAY, tags=["games"])
def leave_game(request: Any, game_id: int = GameId) -> Any:
    """Give up a seat at a game that has not started (its creator cancels it instead: ``POST .../cancel``)."""
    user = _user(request)
    visible_game(game_id, user)
    services.game_leave(game_id=game_id, user=user)
    return Status(HTTPStatus.NO_CONTENT, None)


@router.post("/games/{game_id}/cancel", response=_errors((200, GameOut), 409, *GAME), auth=PLAY, tags=["games"])
def cancel_game(request: Any, game_id: int = GameId) -> Any:
    """Cancel a game you created that has not started (status ``aborted``); the others seated are told.

    403 ``cannot_join`` when you did not create it; 409 ``game_not_active``
    once it started (resign on the site instead).
    """
    user = _user(request)
    visible_game(game_id, user)
    services.game_cancel(game_id=game_id, user=user)
    return game_out(visible_game(game_id, user), user)


@router.get("/games/{game_id}", response=_errors((200, GameStateData), *GAME), auth=READ, tags=["play"])
def game_state(request: Any, game_id: int = GameId) -> Any:
    """The game as the caller may see it: the engine's view for their seat, the decision they owe, their legal moves."""
    user = _user(request)
    return state_out(visible_game(game_id, user), user)


@router.post(
    "/games/{game_id}/moves", response=_errors((200, GameStateData), 409, 422, *GAME), auth=PLAY, tags=["play"]
)
def make_move(request: Any, body: MoveIn, game_id: int = GameId) -> Any:
    """Make a move for the position ``expected_seq``.

    409 ``stale_move`` (with ``current_seq``) when the game moved on; 403
    ``not_your_move``; 422 ``illegal_move`` with the engine's reason; 409
    ``game_not_active`` once the game is over.
    """
    user = _user(request)
    visible_game(game_id, user)
    move = dict(body.move)
    try:
        check_plain(move)
        size = len(json.dumps(move))
    except (ValueError, TypeError):
        raise Problem(HTTPStatus.BAD_REQUEST, "invalid_request", _("That move cannot be read.")) from None
    if size > MAX_MOVE_BYTES:
        raise Problem(HTTPStatus.BAD_REQUEST, "invalid_request", _("That move is too large."))
    if not isinstance(move.get("act"), str):
        raise Problem(HTTPStatus.BAD_REQUEST, "invalid_request", _("A move is an object with an 'act'."))
    move.pop("player", None)  # the seat comes from the token's user
    result = services.game_submit_move(game_id=game_id, user=user, move=move, expected_seq=body.expected_seq)
    game = visible_game(game_id, user)
    snap = result.snapshot if result.snapshot is not None and game.last_seq == result.game.last_seq else None
    return state_out(game, user, snap=snap)


@router.post(
    "/games/{game_id}/choices", response=_errors((200, ChoicesData), 409, 422, *GAME), auth=READ, tags=["play"]
)
def choices(request: Any, body: ChoicesIn, game_id: int = GameId) -> Any:
    """What may come next in a move you are building, in a game whose moves are built part by part: the key to
    fill (``part``) and its legal values.

    Send the move so far (a play's card and option, then with the parts
    chosen); ``part`` null means nothing more can be added. A play's parts
    may be left shorter than the card allows. 403 ``not_your_move`` unless
    you owe the move; 422 ``illegal_move`` when the move so far already
    breaks a rule (``detail`` says which), or the game's moves have no parts
    (``reason`` ``no_parts``). Changes nothing.
    """
    user = _user(request)
    game = visible_game(game_id, user)
    draft = dict(body.move)
    try:
        check_plain(draft)
    except (ValueError, TypeError):
        raise Problem(HTTPStatus.BAD_REQUEST, "invalid_request", _("That move cannot be read.")) from None
    if DRAFT is not None:
        _check_shape(DRAFT, draft)
    return move_choices(game, user, draft)


@router.post("/games/{game_id}/undo", response=_errors((200, GameStateData), 409, 422, *GAME), auth=PLAY, tags=["play"])
def undo(request: Any, body: UndoIn, game_id: int = GameId) -> Any:
    """Take back your last move in your turn, as the game page's Undo does (``games.undo``).

    Free while nothing hidden was shown since and nobody else was asked
    anything; past that, 422 ``illegal_move`` (``reason``: ``undo_needs_consent``) saying why, unless
    ``ask`` is true: the others are then asked (``undo_request`` in the
    answer; the event stream tells them ``undo_asked``), and it is done once
    every other person still playing allows it before the next move.
    409 ``stale_move`` when the game moved on since ``expected_seq``.
    """
    user = _user(request)
    visible_game(game_id, user)
    if body.ask:
        services.game_undo_ask(game_id=game_id, user=user, expected_seq=body.expected_seq)
    else:
        services.game_undo(game_id=game_id, user=user, expected_seq=body.expected_seq)
    return state_out(visible_game(game_id, user), user)


@router.post(
    "/games/{game_id}/undo/{request_id}",
    response=_errors((200, GameStateData), 409, 422, *GAME),
    auth=PLAY,
    tags=["play"],
)
def undo_answer(request: Any, body: UndoAnswerIn, game_id: int = GameId, request_id: int = RequestId) -> Any:
    """Allow (``agree``) or refuse another player's open request to take back moves.

    The last "allow" makes the undo; one refusal ends the request. 409
    ``game_not_active`` when the request is no longer open (a move came
    first, or it was answered); 403 when you have no say in it.
    """
    user = _user(request)
    visible_game(game_id, user)
    services.game_undo_answer(game_id=game_id, user=user, request_id=request_id, agree=body.agree)
    return state_out(visible_game(game_id, user), user)


def _visible_chat(game: Game, user: User) -> Any:
    """The game's chat lines ``user`` is shown: none a moderator hid, none from players they blocked."""
    return (
        ChatMessage.objects.filter(game=game, moderation_hidden__isnull=True)
        .exclude(user_id__in=blocked_subquery(user))
        .select_related("user")
    )


def _chat_out(m: ChatMessage) -> dict[str, Any]:
    return {
        "id": m.pk,
        "username": m.user.username,
        "name": str(m.user.shown_name),
        "text": m.text,
        "created": m.created,
    }


@router.get("/games/{game_id}/chat", response=_errors((200, list[ChatOut]), *GAME), auth=READ, tags=["chat"])
def chat_read(
    request: Any,
    game_id: int = GameId,
    after: int = Query(0, ge=0, le=2**63 - 1, description="Only lines after this id."),
) -> Any:
    """The game's chat lines after ``after``, oldest first, at most 100."""
    user = _user(request)
    game = visible_game(game_id, user)
    return [_chat_out(m) for m in _visible_chat(game, user).filter(pk__gt=after).order_by("pk")[:CHAT_LIMIT]]


@router.post("/games/{game_id}/chat", response=_errors((201, ChatOut), *GAME), auth=CHAT, tags=["chat"])
def chat_post(request: Any, body: ChatIn, game_id: int = GameId) -> Any:
    """Post a chat line (one line of plain text, at most 500 characters)."""
    user = _user(request)
    game = visible_game(game_id, user)
    form = ChatForm({"text": body.text})
    if not form.is_valid():
        detail = " ".join(str(e) for errors in form.errors.values() for e in errors)
        raise Problem(HTTPStatus.BAD_REQUEST, "invalid_request", detail)
    message = services.chat_post(game_id=game.pk, user=user, text=form.cleaned_data["text"])
    return Status(HTTPStatus.CREATED, _chat_out(message))


@router.get("/games/{game_id}/record", response=_errors((200, dict[str, Any]), 409, *GAME), auth=READ, tags=["games"])
def game_record(request: Any, game_id: int = GameId) -> Any:
    """A finished game's record: options, seed, every move and the result (as the site's record.json)."""
    user = _user(request)
    return services.game_record(visible_game(game_id, user))


@router.get("/events", response=_errors((200, EventsOut), *PARAMS), auth=READ, tags=["events"])
def events(
    request: Any,
    after: int | None = Query(
        None, ge=0, le=2**63 - 1, description="The cursor: the last event id seen. Omitted: from now."
    ),
    wait: int = Query(0, ge=0, le=60, description="Seconds to wait for an event when there is none (capped at 25)."),
) -> Any:
    """What happened in the caller's games since ``after``: a bounded long poll, resumable with the cursor.

    Answers at once when there are events, else after ``wait`` seconds (at
    most the server's limit, which is 0 on servers whose workers cannot
    spare a thread) with none; either way ``cursor`` is what to send as
    ``after`` next, and ``poll_after`` how long to pause first when nothing
    came. Events are kept 14 days. A cursor past the last event ever
    written is a 400 ``cursor_beyond_end``. A ban that comes while it waits
    ends the wait with 403 ``account_suspended``, as any request after it.
    """
    user = _user(request)
    poll_after = 0 if settings.HERALD_API_EVENTS_MAX_WAIT else settings.HERALD_API_EVENTS_POLL_AFTER
    if after is None:
        return {"events": [], "cursor": stream.latest_id(user), "poll_after": poll_after}
    if stream.beyond_the_end(after):
        # No event will ever come after it: waiting would be an empty stream forever.
        raise Problem(
            HTTPStatus.BAD_REQUEST,
            "cursor_beyond_end",
            _("This cursor is past the last event. Ask again without it to start from now."),
        )
    rows = stream.read(user, after=after, wait=wait, stop=lambda: moderation.is_banned(user))
    if not rows and (state := moderation.user_state(user)).banned:
        raise account_suspended(state.banned_until)
    out = [
        {"id": r.pk, "kind": r.kind, "game": r.game_id, "seq": r.seq, "data": r.data, "created": r.created}
        for r in rows
    ]
    return {"events": out, "cursor": rows[-1].pk if rows else after, "poll_after": 0 if rows else poll_after}


@router.get("/players/{username}", response=_errors((200, ProfileOut), 404, *PARAMS), auth=READ, tags=["players"])
def profile(request: Any, username: PlainStr = USERNAME) -> Any:
    """A player's public profile: their standing on each ladder."""
    owner = User.objects.filter(username=username, deleted__isnull=True).first()
    if owner is None:
        raise Problem(HTTPStatus.NOT_FOUND, "not_found", _("No such player."))
    standings = rating_selectors.standings(owner, now=timezone.now())
    return {
        "username": owner.username,
        "name": str(owner.shown_name),
        "bot_account": owner.bot_account,
        "standings": [
            {
                "kind": s.kind,
                "rating": s.rating,
                "provisional": s.provisional,
                "games": s.games,
                "played": s.played,
                "won": s.won,
                "lost": s.lost,
                "forfeited": s.forfeited,
            }
            for s in standings
        ],
    }


@router.get("/ladders/{kind}", response=_errors((200, LadderOut), 404, *PARAMS), auth=READ, tags=["players"])
def ladder(
    request: Any,
    kind: PlainStr = LADDER_KIND,
    page: int = Query(1, ge=1, le=100000),
) -> Any:
    """A page of a game's leaderboard (50 a page)."""
    if kind not in rating_selectors.ladder_kinds():
        raise Problem(HTTPStatus.NOT_FOUND, "not_found", _("No such ladder."))
    board = rating_selectors.ladder(kind=kind, now=timezone.now(), page=page, viewer=_user(request))
    return {
        "kind": kind,
        "page": board.page.number,
        "pages": board.page.paginator.num_pages,
        "rows": [
            {
                "position": r.position,
                "username": r.user.username if r.user else "",
                "name": str(r.user.shown_name) if r.user else "",
                "rating": r.rating,
                "games": r.games,
            }
            for r in board.page.object_list
        ],
    }
