"""``manage.py seed_demo``: demo users, a game in progress and a finished one, for development.

The games are of the first installed game (``games.kinds``, in list order)
that has a ``demo`` part (docs/games.md), which defines:

* ``OPTIONS``: the demo games' options (``Game.options``);
* ``BOT``: the name of the bot that makes their moves (``None``: the first
  legal move each time).
"""

from __future__ import annotations

import logging
import random
from datetime import timedelta
from typing import Any

from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.test.utils import override_settings

from games import kinds, services
from games.kinds import GameKind
from games.models import Game

DEMO_USERS = ["alice", "bob", "carol"]
DEMO_PASSWORD = "herald-demo-password"
DEMO_MOVES = 12
#: At most this many moves to finish the finished demo game (a demo's bots take a few hundred).
FINISH_MOVES = 3000


class Command(BaseCommand):
    """Create alice, bob and carol (verified emails), a game between alice and bob in progress,
    and a finished rated one between carol and bob (for the result page, its charts and /stats/).

    Safe to run again: users get their password reset, the running game is
    made only if alice has no running game yet, the finished one only if
    carol has none. The games are skipped when no installed game has a
    ``demo`` part, or its engine is missing.
    """

    help = "Create demo users (alice, bob, carol), a game in progress and a finished one."

    def handle(self, *args: Any, **options: Any) -> None:
        """Create or refresh the demo data and print how to sign in.

        The demo's own emails (games started, moves owed, a game over: about
        40) go nowhere, and their tasks' log lines are not printed: shown
        before the server started, they buried the sign-up confirmation link
        a new user looks for.
        """
        # The same for the ~50 "task ... state=SUCCESS" lines of those emails, run inline without a broker.
        task_log = logging.getLogger("herald.task")
        level = task_log.level
        task_log.setLevel(logging.WARNING)
        try:
            with override_settings(EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend"):
                self._seed()
        finally:
            task_log.setLevel(level)

    def _seed(self) -> None:
        User = get_user_model()
        users = {}
        for name in DEMO_USERS:
            user, _created = User.objects.get_or_create(
                username=name, defaults={"email": f"{name}@example.com", "display_name": name.capitalize()}
            )
            user.set_password(DEMO_PASSWORD)
            user.save()
            EmailAddress.objects.update_or_create(
                user=user, email=user.email, defaults={"verified": True, "primary": True}
            )
            users[name] = user
        self.stdout.write(f"Demo users: {', '.join(DEMO_USERS)}; password: {DEMO_PASSWORD}")

        found = next(kinds.parts("demo"), None)
        if found is None:
            self.stdout.write("No installed game has demo data: no demo game.")
            return
        kind, demo = found
        try:
            engine = kind.engine()
        except ImportError:
            self.stdout.write(f"The {kind.label} engine is not available: no demo game.")
            return
        alice, bob, carol = users["alice"], users["bob"], users["carol"]
        self._finished_game(kind, demo, engine, carol, bob)
        existing = Game.objects.filter(status=Game.Status.ACTIVE, seats__user=alice).first()
        if existing:
            self.stdout.write(f"Demo game already running: /games/{existing.pk}/")
            return
        game = services.game_create(
            creator=alice,
            kind=kind.name,
            options=dict(demo.OPTIONS),
            players=2,
            rated=False,
            private=False,
            time_per_move=timedelta(days=1),
        )
        services.game_join(game_id=game.pk, user=bob)
        self._play_some_moves(engine, demo.BOT, game.pk)
        self.stdout.write(self.style.SUCCESS(f"Demo game: /games/{game.pk}/ (alice vs bob)"))

    def _finished_game(self, kind: GameKind, demo: Any, engine: Any, carol: Any, bob: Any) -> None:
        """A rated game between carol and bob played to its end, so a newcomer sees a result, its charts
        and the statistics pages with something in them (made once)."""
        done = Game.objects.filter(status=Game.Status.FINISHED, seats__user=carol).first()
        if done is None:
            game = services.game_create(
                creator=carol,
                kind=kind.name,
                options=dict(demo.OPTIONS),
                players=2,
                rated=True,
                private=False,
                time_per_move=timedelta(days=1),
            )
            services.game_join(game_id=game.pk, user=bob)
            self._play_some_moves(engine, demo.BOT, game.pk, FINISH_MOVES)
            done = Game.objects.get(pk=game.pk)
        self.stdout.write(f"Finished demo game (its charts, and /stats/): /games/{done.pk}/ (carol vs bob)")

    def _play_some_moves(self, engine: Any, bot_name: str | None, game_id: int, moves: int = DEMO_MOVES) -> None:
        """Play up to ``moves`` sensible moves so the game has a log (bot ``bot_name`` if the engine has it)."""
        try:
            bot = engine.bots.get(bot_name) if bot_name else None
        except ImportError:  # bots not written yet: the first legal move will do
            bot = None
        rng = random.Random(1)
        for _ in range(moves):
            game = Game.objects.get(pk=game_id)
            if not game.is_active:
                return
            seat = game.seats.select_related("user").get(position=game.to_act[0])
            state = services.state_at(game)
            move = (
                bot(engine.player_view(state, seat.position), rng)
                if bot
                else engine.legal_moves(state, seat.position)[0]
            )
            assert seat.user is not None  # the demo games are full
            services.game_submit_move(game_id=game_id, user=seat.user, move=move, expected_seq=game.last_seq)
