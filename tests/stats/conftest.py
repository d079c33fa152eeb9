"""Statistics tests: finished games played through the site's services by the engines' bots."""

from __future__ import annotations

import random
from datetime import timedelta
from types import ModuleType

import pytest

from accounts.models import User
from games import autoplay, services
from games.engine.registry import get_engine
from games.kinds import GameKind
from games.models import Game


@pytest.fixture(autouse=True)
def _site_test(site_test: None) -> None:
    """The fake engine and a clean cache for every test here."""


def play_game(
    users: list[User],
    *,
    kind: str = "dominion",
    options: dict | None = None,
    rated: bool = True,
    bots: tuple[str, ...] = (),
    policy: str | None = None,
    seed: int = 1,
) -> Game:
    """Create a game through the services, seat ``users`` (and ``bots``), and play it to the end.

    Every person's move is chosen by the engine's ``policy`` bot (Dominion:
    ``smart``; Domaine: ``greedy``) and submitted through ``game_submit_move``,
    as a player's browser would; bot seats move through the site's bot loop.
    """
    engine = get_engine(kind)
    policy = policy or ("smart" if kind == "dominion" else "greedy")
    if options is None:
        options = {"kingdom": "random"} if kind == "dominion" else {}
    game = services.game_create(
        creator=users[0],
        kind=kind,
        options=options,
        players=len(users) + len(bots),
        rated=rated,
        private=False,
        time_per_move=timedelta(days=1),
        bots=bots,
    )
    for user in users[1:]:
        services.game_join(game_id=game.pk, user=user)
    rng = random.Random(seed)
    seated_users = {s.position: s.user for s in Game.objects.get(pk=game.pk).seats.all()}
    for _ in range(5000):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        state = services.state_at(game)
        seat = game.to_act[0]
        mover = seated_users[seat]
        if mover is None:  # a bot's seat: the site's own bot loop (its task never runs in a test transaction)
            autoplay.game_bot_moves(game_id=game.pk)
            continue
        move = engine.bots[policy](engine.player_view(state, seat), rng)
        services.game_submit_move(game_id=game.pk, user=mover, move=move, expected_seq=game.last_seq)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


@pytest.fixture
def counter_without_stats(monkeypatch: pytest.MonkeyPatch) -> None:
    """The counter game as a game with no statistics part (``kind.part("stats")`` answers None)."""
    real = GameKind.part

    def part(self: GameKind, name: str) -> ModuleType | None:
        return None if (self.name, name) == ("counter", "stats") else real(self, name)

    monkeypatch.setattr(GameKind, "part", part)
