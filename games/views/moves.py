"""Reading a move from a request and making it."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import presentation, selectors, services
from games.i18n import refusal_text
from games.plainjson import check_plain, loads_plain_json
from games.views.access import (
    AuthenticatedHttpRequest,
    HtmxHttpRequest,
    busy_or,
    login_required_for_game_post,
    visible_game_light,
)
from games.views.page import game_context, live_response, render_live, render_page

#: Moves larger than this are refused before parsing (no real move comes close).
MAX_MOVE_BYTES = 4000


class MalformedMove(ValueError):
    """The request does not carry a move and a seq in a shape we understand."""


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
        check_plain(move)
    except ValueError:
        raise MalformedMove(_("That move cannot be read.")) from None
    return move, seq


@login_required_for_game_post
@require_POST
def game_move(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    """Make a move; answer HTMX with the live region, plain posts with a redirect.

    Status codes: 200 (HTMX, applied), 302 (plain post, applied or stale),
    400 malformed, 403 not your move, 409 stale or game not running,
    422 refused by the rules (with the engine's reason).
    """
    game = visible_game_light(request, game_id)  # 404 for games the user may not see
    try:
        move, seq = parse_move(request.POST)
        # A check of the game's page (games.presentation.confirm_move), before the rules see the move.
        refusal = presentation.confirm_move(game.kind, move, request.POST)
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
        return render_live(request, game_id, error=message, status=HTTPStatus.CONFLICT)
    except services.IllegalMove as exc:
        return _refused(request, game_id, refusal_text(exc.reason, exc.code), HTTPStatus.UNPROCESSABLE_ENTITY)
    except services.NotYourMove as exc:
        return _refused(request, game_id, str(exc), HTTPStatus.FORBIDDEN)
    except (services.GameNotActive, services.LockTimeout) as exc:
        return _refused(request, game_id, busy_or(exc), HTTPStatus.CONFLICT)
    if request.htmx:
        if result.seats is None or (settings.CELERY_TASK_ALWAYS_EAGER and any(s.bot_played for s in result.seats)):
            # Tasks run inline (no broker): a bot may already have answered, after the commit.
            # (A result without its seats, which the move path always gives, is read again too.)
            return render_live(request, game_id)
        # Drawn from what the move just committed: no second read of game, seats and state.
        game = selectors.with_seats(result.game, result.seats)
        seat = selectors.seat_for(game, request.user)
        context = game_context(request, game, seat, snap=result.snapshot)
        return live_response(request, context, regions=not game.is_active)
    return redirect("games:detail", game_id=game_id)


def _refused(request: HtmxHttpRequest, game_id: int, message: str, status: int) -> HttpResponse:
    """Answer a refused move: the live region (HTMX) or the whole page, with ``message`` and ``status``."""
    if request.htmx:
        return render_live(request, game_id, error=message, status=status)
    return render_page(request, game_id, error=message, status=status)


@login_required_for_game_post
@require_POST
def game_standing(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    """Set the user's standing answers for this game (a game whose page part has ``STANDING_FORM``), then back.

    A question the new answers settle is answered at once. Status codes: 302
    (saved, or refused with a message), 400 (a setting that does not exist).
    """
    game = visible_game_light(request, game_id)  # 404 for games the user may not see
    form_class = presentation.standing_form(game.kind)
    form = form_class(request.POST) if form_class is not None else None
    if form is None or not form.is_valid():
        return _refused(request, game_id, _("Those standing answers cannot be read."), HTTPStatus.BAD_REQUEST)
    try:
        services.game_standing_set(game_id=game_id, user=request.user, settings=form.cleaned_settings())
    except (services.NotYourMove, services.GameNotActive, services.LockTimeout, services.AccountRestricted) as exc:
        messages.error(request, busy_or(exc))
    else:
        messages.success(request, _("Your standing answers for this game were saved."))
    return redirect("games:detail", game_id=game_id)
