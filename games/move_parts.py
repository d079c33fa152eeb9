"""Which keys a move of each game may carry, checked where a client's move enters the site.

An engine reads only the keys it knows, and Dominion's ignores the rest: a
posted ``{"act": "play_treasures", "note": "..."}`` was applied and its
``note`` stored for good in the append-only move log (and in every
``record.json`` download). Refusing such a move in the engine would also
refuse the stored moves of old games when they are replayed, so the check
belongs at the boundary, before the move service: ``games.views.moves.game_move``
should call ``unknown_part`` after ``parse_move`` and answer 400 with
``unknown_part_text``.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

#: Per game kind, every key its moves may carry ("player" is dropped before this).
#: A kind not listed is not checked here (Domaine's engine refuses unknown parts itself).
MOVE_KEYS: dict[str, frozenset[str]] = {
    "dominion": frozenset({"act", "card", "cards"}),
}


def unknown_part(kind: str, move: dict[str, Any]) -> str | None:
    """Return the first key of ``move`` that moves of ``kind`` never have, or None.

    Args:
        kind: the game's kind (``Game.kind``).
        move: the move as parsed from the request (a dict).

    Returns:
        The offending key (sorted order, so the answer is stable), or None
        when every key is known or the kind is not checked here.
    """
    allowed = MOVE_KEYS.get(kind)
    if allowed is None:
        return None
    extra = sorted(str(k) for k in move if k not in allowed)
    return extra[0] if extra else None


def unknown_part_text(part: str) -> str:
    """Return the reason shown for a move with an unknown ``part`` (cut short: it is the client's text)."""
    return _("A move has no part “%(part)s”.") % {"part": part[:12]}
