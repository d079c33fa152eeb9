"""``{% game_notes %}``: the reader's own private notes on the game page (``games.notes``)."""

from __future__ import annotations

from typing import Any

from django import template

from games import services
from games.models import GameNote

register = template.Library()


@register.inclusion_tag("games/_notes.html", takes_context=True)
def game_notes(context: template.Context) -> dict[str, Any]:
    """The notes box for the reader, drawn only for a player of the game (nothing for anyone else).

    Reads ``game``, ``seat`` and ``request`` from the page's context, and
    ``notes_error`` / ``notes_text`` when a plain post was refused (the text
    typed stays in the box). The note is read for ``request.user`` only, so
    another reader's page can never hold it.
    """
    request = context.get("request")
    game = context.get("game")
    if request is None or game is None or context.get("seat") is None:
        return {"show": False}
    note = services.note_read(game=game, user=request.user)
    error = context.get("notes_error", "")
    return {
        "show": True,
        "game": game,
        "note": note,
        "text": context.get("notes_text", "") if error else (note.text if note else ""),
        "notes_error": error,
        "max_length": GameNote.MAX_LENGTH,
    }
