"""Accounts, ratings and ladder tests get the site's set-up (fake engine, clean cache)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from accounts.models import User
from games.models import Game, Seat

#: A fixed moment for rating histories (UTC).
T0 = datetime(2025, 1, 1, 12, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def _site_test(site_test: None) -> None:
    """The fake engine and a clean cache for every test here."""


def finished_game(
    users: list[User],
    ranks: list[int],
    *,
    finished: datetime,
    kind: str = "counter",
    rated: bool = True,
    forfeited: tuple[int, ...] = (),
    bots: tuple[str, ...] = (),
    status: str = Game.Status.FINISHED,
) -> Game:
    """Write a finished game directly: seat i is ``users[i]`` with ``ranks[i]``.

    For rating tests, which need exact ranks, ties and forfeits the fake
    engine cannot produce; the move path is covered by its own tests.
    """
    game = Game.objects.create(
        kind=kind,
        rated=rated,
        status=status,
        started=finished - timedelta(days=1),
        finished=finished,
        max_players=len(users) + len(bots),
        creator=users[0],
    )
    for i, (user, rank) in enumerate(zip(users, ranks, strict=True)):
        Seat.objects.create(game=game, position=i, user=user, rank=rank, forfeited=i in forfeited)
    for j, bot in enumerate(bots, start=len(users)):
        Seat.objects.create(game=game, position=j, bot=bot, rank=len(users) + 1)
    return game
