"""Private notes: each player's own text about one game, which nobody else ever sees.

Like lichess's and snellman's Terra Mystica's: a plan, a count of what is
left in a deck, a reminder about an opponent. Only the author reads or
writes their note; it is never part of the game's record, replay, log,
poll, API or admin, and a moderator's views of a game do not show it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils import timezone
from django.utils.translation import gettext as _

from games.errors import NoteRefused
from games.models import GameNote, Seat

if TYPE_CHECKING:
    from accounts.models import User
    from games.models import Game


def may_keep_note(game: Game, user: User) -> bool:
    """Whether ``user`` may keep a note on ``game``: a signed-in user with a seat in it (any status)."""
    if not user.is_authenticated:
        return False
    return Seat.objects.filter(game=game, user=user).exists()


def note_read(*, game: Game, user: User) -> GameNote | None:
    """``user``'s own note on ``game``, or None; only ever call this with the reader as ``user``."""
    if not user.is_authenticated:
        return None
    return GameNote.objects.filter(game=game, user=user).first()


def note_save(*, game: Game, user: User, text: str) -> GameNote:
    """Keep ``text`` as ``user``'s note on ``game``, replacing the last one (an empty text is kept too).

    Line ends are normalised to ``\\n`` (a browser's form sends ``\\r\\n``), so
    the length counted is the one the player sees.

    Returns:
        The saved note (``updated`` is now).

    Raises:
        NoteRefused: the user has no seat in the game, or the text is longer
            than ``GameNote.MAX_LENGTH`` characters (nothing is saved).
    """
    if not may_keep_note(game, user):
        raise NoteRefused(_("Only the players of a game can keep notes on it."))
    text = (text or "").replace("\r\n", "\n").replace("\r", "\n")
    if len(text) > GameNote.MAX_LENGTH:
        raise NoteRefused(
            _("Notes can be at most %(n)d characters; these have %(m)d.") % {"n": GameNote.MAX_LENGTH, "m": len(text)}
        )
    note, _created = GameNote.objects.update_or_create(
        game=game, user=user, defaults={"text": text, "updated": timezone.now()}
    )
    return note


def notes_forget(*, user: User) -> int:
    """Delete every note ``user`` wrote (their account is being deleted); return how many."""
    deleted, _detail = GameNote.objects.filter(user=user).delete()
    return deleted
