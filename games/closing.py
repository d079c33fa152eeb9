"""What games does when an account is deleted, and whether an account has played (``accounts.policy``).

``accounts`` sits below ``games``, so it asks through ``accounts.policy``;
``GamesConfig.ready`` registers these two answers.
"""

from __future__ import annotations

import contextlib

from accounts.models import User
from games.errors import GameNotActive
from games.lifecycle import game_cancel, game_leave
from games.models import Game, Invitation, Seat
from games.notes import notes_forget


def account_deleting(user: User) -> None:
    """Tidy what a deleted ``user`` leaves in games; running and finished games go on with their seat.

    Open games they created are cancelled and open games they sat down at are
    left, through the games' own cancel and leave, as the player's buttons
    would (each game locked, the cancel announced: ``GameCancelled``); their
    invitations and private notes go (notes were only ever theirs: nobody else
    may read them, so nothing keeps them). Called inside the deletion's transaction.
    """
    for game_id in Game.objects.filter(creator=user, status=Game.Status.OPEN).values_list("pk", flat=True):
        with contextlib.suppress(GameNotActive):  # it started meanwhile: it goes on like the others
            game_cancel(game_id=game_id, user=user)
    open_seats = Seat.objects.filter(user=user, game__status=Game.Status.OPEN).exclude(game__creator=user)
    for game_id in open_seats.values_list("game_id", flat=True):
        with contextlib.suppress(GameNotActive):
            game_leave(game_id=game_id, user=user)
    Invitation.objects.filter(user=user).delete()
    notes_forget(user=user)


def has_played(user: User) -> bool:
    """True if ``user`` ever took a seat in a game (so their account may not become a bot account)."""
    return Seat.objects.filter(user=user).exists()
