"""A new game's row: the engine that will play it, its time control, its seed and options.

Shared by ``games.lifecycle.game_create`` (a player opens a game) and
``games.arranged.game_create_arranged`` (a tournament seats its players), so
both check a new game the same way and write the same row.
"""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _

from games.engine.core import Engine, InvalidOptions
from games.engine.registry import get_engine
from games.models import Game

if TYPE_CHECKING:
    from accounts.models import User


def engine_for_new_game(kind: str, players: int) -> Engine:
    """The engine of ``kind``, for a new game of ``players`` seats.

    Raises:
        InvalidOptions: unknown kind, or a player count outside the engine's bounds.
    """
    try:
        engine = get_engine(kind)
    except (KeyError, ImportError):
        raise InvalidOptions(_("Unknown game: %(kind)s.") % {"kind": kind}) from None
    if not isinstance(players, int) or not engine.min_players <= players <= engine.max_players:
        raise InvalidOptions(
            _("This game is for %(min)d to %(max)d players.") % {"min": engine.min_players, "max": engine.max_players}
        )
    return engine


def check_time_control(time_per_move: timedelta, clock: str, increment: timedelta) -> None:
    """Refuse a time control the clocks cannot run.

    Raises:
        InvalidOptions: a time per move that is not positive, an unknown clock, a negative increment.
    """
    if time_per_move <= timedelta(0):
        raise InvalidOptions(_("The time per move must be positive."))
    if clock not in Game.Clock.values or increment < timedelta(0):
        raise InvalidOptions(_("Unknown time control."))


def game_row_create(
    engine: Engine,
    *,
    kind: str,
    options: dict[str, Any],
    players: int,
    creator: User | None,
    rated: bool,
    private: bool,
    time_per_move: timedelta,
    clock: str,
    increment: timedelta,
) -> Game:
    """Write a new Game row with a fresh secret seed, its options checked by ``engine`` (no seats yet).

    Shared by ``game_create`` and tournaments' ``game_create_arranged``. Call it
    inside the transaction that adds the seats.

    Raises:
        InvalidOptions: the engine refuses the options (refused on the form, not at the start).
    """
    seed = secrets.randbits(63)
    engine.normalize_options(options, players, seed)
    return Game.objects.create(
        kind=kind,
        options=options,
        seed=seed,
        engine_version=engine.version,
        creator=creator,
        rated=rated,
        private=private,
        time_per_move=time_per_move,
        clock=clock,
        increment=increment if clock == Game.Clock.FISCHER else timedelta(0),
        max_players=players,
    )
