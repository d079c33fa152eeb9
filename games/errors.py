"""The errors the games services raise: each ``str(err)`` is a sentence for the player.

Views map them to status codes (``StaleMove`` 409, ``NotYourMove`` 403,
``IllegalMove`` 422, ...); every way into the games (pages, htmx, the
sweep, moderators) raises the same ones.
"""

from __future__ import annotations

from games.engine.core import IllegalMove, InvalidOptions
from games.locking import LockTimeout

__all__ = [
    "AccountRestricted",
    "CannotJoin",
    "ChatInvalid",
    "ChatRateLimited",
    "ChatRefused",
    "GameNotActive",
    "IllegalMove",
    "InvalidOptions",
    "LockTimeout",
    "NotYourMove",
    "NoteRefused",
    "ServiceError",
    "StaleMove",
]


class ServiceError(Exception):
    """A request the rules of the site refuse; ``str(err)`` is for the player."""


class StaleMove(ServiceError):
    """The move was made against an old position (``expected_seq`` != ``last_seq``).

    Attributes:
        current_seq: the game's seq now, so the page can refresh.
    """

    def __init__(self, message: str, current_seq: int) -> None:
        super().__init__(message)
        self.current_seq = current_seq


class NotYourMove(ServiceError):
    """The user has no seat in the game, or no decision of theirs is open."""


class GameNotActive(ServiceError):
    """The game is not in the state the request needs (not open, not running...)."""


class CannotJoin(ServiceError):
    """The user may not join (or leave, or cancel) this game."""


class ChatRateLimited(ServiceError):
    """Too many chat messages from this user in a short time."""


class ChatInvalid(ServiceError):
    """An empty or over-long chat message."""


class AccountRestricted(NotYourMove):
    """The user is banned (``moderation``): no moves."""


class ChatRefused(ServiceError):
    """The user is muted or banned (``moderation``): no chat."""


class NoteRefused(ServiceError):
    """A private note that cannot be kept: too long, or its writer has no seat in the game."""
