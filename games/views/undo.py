"""Taking moves back: the Undo button, the request to the others, and their answer (``games.undo``)."""

from __future__ import annotations

from http import HTTPStatus

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import services
from games.i18n import refusal_text
from games.views.access import AuthenticatedHttpRequest, busy_or, login_required_for_game_post, visible_game_light
from games.views.page import render_live, render_page


def _seq(request: AuthenticatedHttpRequest) -> int | None:
    try:
        seq = int(request.POST.get("seq", ""))
    except ValueError:
        return None
    return seq if 0 <= seq < 2**31 else None


@login_required_for_game_post
@require_POST
def game_undo(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    """Take back the user's last move (``ask=1``: or ask the others to allow it).

    Status codes as for a move: 200 (HTMX) or 302, 400 malformed, 403 not a
    player, 409 stale or not running, 422 refused (with the reason).
    """
    visible_game_light(request, game_id)  # 404 for games the user may not see
    seq = _seq(request)
    if seq is None:
        return _answer(request, game_id, _("The form lacks the position it was made for."), HTTPStatus.BAD_REQUEST)
    ask = request.POST.get("ask") == "1"
    try:
        if ask:
            services.game_undo_ask(game_id=game_id, user=request.user, expected_seq=seq)
        else:
            services.game_undo(game_id=game_id, user=request.user, expected_seq=seq)
    except services.StaleMove:
        message = _("The game moved on before your move arrived; here is the current position.")
        return _answer(request, game_id, message, HTTPStatus.CONFLICT)
    except services.IllegalMove as exc:
        return _answer(request, game_id, refusal_text(exc.reason, exc.code), HTTPStatus.UNPROCESSABLE_ENTITY)
    except services.NotYourMove as exc:
        return _answer(request, game_id, str(exc), HTTPStatus.FORBIDDEN)
    except (services.GameNotActive, services.LockTimeout) as exc:
        return _answer(request, game_id, busy_or(exc), HTTPStatus.CONFLICT)
    return _answer(request, game_id, "", HTTPStatus.OK)


@login_required_for_game_post
@require_POST
def game_undo_answer(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    """Agree (``answer=yes``) or not (``answer=no``) to the open request ``request`` to take moves back."""
    visible_game_light(request, game_id)
    answer = request.POST.get("answer")
    try:
        request_id = int(request.POST.get("request", ""))
    except ValueError:
        request_id = -1
    if answer not in ("yes", "no") or request_id < 0:
        return _answer(request, game_id, _("Answer yes or no."), HTTPStatus.BAD_REQUEST)
    try:
        services.game_undo_answer(game_id=game_id, user=request.user, request_id=request_id, agree=answer == "yes")
    except services.NotYourMove as exc:
        return _answer(request, game_id, str(exc), HTTPStatus.FORBIDDEN)
    except (services.GameNotActive, services.LockTimeout) as exc:
        return _answer(request, game_id, busy_or(exc), HTTPStatus.CONFLICT)
    except services.IllegalMove as exc:
        return _answer(request, game_id, refusal_text(exc.reason, exc.code), HTTPStatus.UNPROCESSABLE_ENTITY)
    return _answer(request, game_id, "", HTTPStatus.OK)


def _answer(request: AuthenticatedHttpRequest, game_id: int, error: str, status: int) -> HttpResponse:
    """HTMX: the live region (with ``error``); a plain post: redirect, or the page with the error."""
    if request.htmx:
        return render_live(request, game_id, error=error, status=status)
    if not error:
        return redirect("games:detail", game_id=game_id)
    if status == HTTPStatus.CONFLICT:
        messages.warning(request, error)
        return redirect("games:detail", game_id=game_id)
    return render_page(request, game_id, error=error, status=status)
