"""A player's private notes on a game (``games.notes``): saving them, with or without JavaScript."""

from __future__ import annotations

from http import HTTPStatus

from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import services
from games.views.access import AuthenticatedHttpRequest, get_game_for_user, login_required_for_game_post
from games.views.page import game_context


@login_required_for_game_post
@require_POST
def game_notes(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    """Save the user's own notes on the game from the form's ``text``.

    HTMX (the page saves as the player types) gets only the line that says
    "Saved" or why not; a plain post is redirected back to the notes, or,
    refused, gets the whole page with the reason and the text kept in the box.

    Status codes: 200 or 302 saved; 400 too long; 403 not a player of the
    game; 404 a game the user may not see.
    """
    game, seat = get_game_for_user(request, game_id)
    text = request.POST.get("text", "")
    status = HTTPStatus.OK
    error = ""
    note = None
    if not services.may_keep_note(game, request.user):
        status = HTTPStatus.FORBIDDEN
        error = _("Only the players of a game can keep notes on it.")
    else:
        try:
            note = services.note_save(game=game, user=request.user, text=text)
        except services.NoteRefused as exc:
            error, status = str(exc), HTTPStatus.BAD_REQUEST
    if request.htmx:
        return render(request, "games/_notes.html#notes_saved", {"note": note, "notes_error": error}, status=status)
    if not error:
        return redirect(f"{game.get_absolute_url()}#notes")
    # A player sees the reason under their notes, with the text kept; anyone else has no notes box.
    context = game_context(request, game, seat, error="" if seat is not None else error)
    context.update(notes_error=error, notes_text=text)
    return render(request, "games/game.html", context, status=status)
