"""Turning games, seats and players into the API's response data; finding the games a caller may see."""

from __future__ import annotations

from datetime import timedelta
from http import HTTPStatus
from typing import TYPE_CHECKING, Any

from django.db.models import Prefetch
from django.utils.translation import gettext as _

from api import gameshapes
from api.problems import Problem
from games import selectors
from games.engine.core import IllegalMove
from games.i18n import refusal_text
from games.models import Game, Seat
from games.replay import engine_for
from games.undo import open_request
from games.viewing import seat_view

if TYPE_CHECKING:
    from accounts.models import User
    from games.replay import Snapshot

#: The largest game id the API takes (the column's range on every database).
MAX_ID = 2**31 - 1


def not_found() -> Problem:
    """The 404 for a game that does not exist or is private to others (the two look the same)."""
    return Problem(HTTPStatus.NOT_FOUND, "not_found", _("No such game."))


def visible_game(game_id: int, user: User) -> Game:
    """Return the game with its seats and players if ``user`` may see it; else raise a 404 :class:`Problem`."""
    try:
        game = Game.objects.prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user"))).get(
            pk=game_id
        )
    except Game.DoesNotExist:
        raise not_found() from None
    if not selectors.can_view(game, user):
        raise not_found()
    return game


def seat_out(seat: Seat) -> dict[str, Any]:
    """A seat as ``SeatOut``."""
    user = seat.user if seat.user_id is not None else None
    return {
        "seat": seat.position,
        "name": str(seat.name),
        "username": user.username if user is not None and user.deleted is None else None,
        "bot": seat.bot or None,
        "bot_account": bool(user is not None and user.bot_account),
        "rank": seat.rank,
        "score": seat.score,
        "forfeited": seat.forfeited,
        "deadline": seat.deadline,
    }


def game_out(game: Game, user: User) -> dict[str, Any]:
    """A game as ``GameOut``, for ``user``; expects ``game.seats`` prefetched with users."""
    seats = list(game.seats.all())
    mine = next((s for s in seats if s.user_id == user.pk), None)
    my_move = mine is not None and game.is_active and mine.position in game.to_act and not mine.given_up
    return {
        "id": game.pk,
        "kind": game.kind,
        "status": game.status,
        "rated": game.rated,
        "private": game.private,
        "max_players": game.max_players,
        "seats": [seat_out(s) for s in seats],
        "to_act": list(game.to_act) if game.is_active else [],
        "last_seq": game.last_seq,
        "my_seat": mine.position if mine is not None else None,
        "my_move": my_move,
        "time_per_move": int(game.time_per_move / timedelta(seconds=1)),
        "clock": game.clock,
        "created": game.created,
        "started": game.started,
        "finished": game.finished,
        "url": game.get_absolute_url(),
    }


def owed_decision(engine: Any, state: Any, seat: int) -> dict[str, Any] | None:
    """The decision ``seat`` owes in ``state`` (``engine.pending``), as JSON data, or None.

    An answer asked of the seat (a discard, a gain, a yes/no) comes before
    its turn ("turn": any turn move), as the engines' ``legal_moves`` take
    them. Only the seat's own decision is returned, so it may carry the
    seat's own hand (a game may list it as options).
    """
    mine = [d for d in engine.pending(state) if d.player == seat]
    mine.sort(key=lambda d: d.kind == "turn")
    return mine[0].to_dict() if mine else None


def state_out(game: Game, user: User, *, snap: Snapshot | None = None) -> dict[str, Any]:
    """A game as ``gameshapes.GameState`` for ``user``: the engine's view for their seat, as the game page draws it."""
    seat = selectors.seat_for(game, user)
    shown = seat_view(game, seat, snap=snap, with_legal=True)  # may freeze a game whose log no longer replays
    summary = game_out(game, user)
    view = shown.view
    decision = None
    if view is not None and summary["my_move"] and shown.snapshot is not None:
        decision = owed_decision(engine_for(game), shown.snapshot.state, summary["my_seat"])
    asked = open_request(game) if game.is_active else None
    legal = shown.legal if summary["my_move"] else []
    out: dict[str, Any] = {
        "kind": game.kind,
        "game": summary,
        "view": view,
        "decision": decision,
        "legal": legal,
        "undo_request": (
            {"id": asked.pk, "seat": asked.seat, "count": asked.count, "agreed": list(asked.agreed)}
            if asked is not None
            else None
        ),
    }
    # The game's API part may reshape the answer (list its moves apart, add keys its state shape has).
    owes = bool(legal) and shown.snapshot is not None
    return gameshapes.present(
        game.kind,
        out,
        engine_for(game) if owes else None,
        shown.snapshot.state if owes and shown.snapshot is not None else None,
        summary["my_seat"] if owes else None,
        legal,
    )


def move_choices(game: Game, user: User, draft: dict[str, Any]) -> dict[str, Any]:
    """What may come next in ``draft``, a move ``user`` is building in ``game`` (``engine.targets``).

    Returns ``{"part": key or None, "remaining": n, "choices": [...]}``.

    Raises:
        Problem: 409 the game is not running; 403 the user owes no move;
            422 the draft already breaks a rule, or the game's moves have no
            parts (its engine has no ``targets``). Nothing is changed.
    """
    if not game.is_active:
        raise Problem(HTTPStatus.CONFLICT, "game_not_active", _("This game is not in progress."))
    seat = selectors.seat_for(game, user)
    if seat is None:
        raise Problem(HTTPStatus.FORBIDDEN, "not_your_move", _("You are not playing in this game."))
    if seat.given_up or seat.position not in game.to_act:
        raise Problem(HTTPStatus.FORBIDDEN, "not_your_move", _("It is not your move."))
    engine = engine_for(game)
    shown = seat_view(game, seat)
    if not hasattr(engine, "targets") or shown.snapshot is None:
        raise Problem(
            HTTPStatus.UNPROCESSABLE_ENTITY,
            "illegal_move",
            _("This game's moves are made whole: there are no parts to build."),
            extra={"reason": "no_parts"},
        )
    try:
        return engine.targets(shown.snapshot.state, seat.position, draft)
    except IllegalMove as exc:
        raise Problem(
            HTTPStatus.UNPROCESSABLE_ENTITY,
            "illegal_move",
            refusal_text(exc.reason, exc.code),
            extra={"reason": exc.code},
        ) from None
    except (KeyError, TypeError, ValueError, IndexError):
        # An engine should answer odd input with IllegalMove; if one does not, the draft is still refused.
        raise Problem(
            HTTPStatus.UNPROCESSABLE_ENTITY,
            "illegal_move",
            _("That move cannot be read."),
            extra={"reason": "malformed"},
        ) from None
