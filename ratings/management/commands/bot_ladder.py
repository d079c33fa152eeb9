"""``manage.py bot_ladder``: measure each bot level's strength by a round robin among the levels."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games import kinds
from ratings.botladder import run_ladder, store_ladder
from ratings.services import display_rating


class Command(BaseCommand):
    """Play every pair of a game's bot levels against each other and store each level's rating.

    The games run in this process (no worker, no database rows but the results), each pair
    ``--games`` times with the seats swapped every other game; the stored ladder of a game is
    replaced at the end, in one transaction. The bots' page (``/bots/``) shows the result.
    """

    help = "Rate each bot level by a round robin among the levels (seats swapped), and store the ladder."

    def add_arguments(self, parser: CommandParser) -> None:
        """``--kind`` (repeatable; default every game with levels), ``--games`` per pair, ``--seed``."""
        parser.add_argument("--kind", action="append", dest="kinds", help="only this game (repeatable)")
        parser.add_argument("--games", type=int, default=20, help="games per pair of levels (default 20)")
        parser.add_argument("--seed", type=int, default=1, help="the run's seed (default 1)")

    def handle(self, *args: Any, **options: Any) -> None:
        """Run the ladder of each game and print each level's rating, points and CPU time per move."""
        names = options.get("kinds") or [k.name for k in kinds.all_kinds() if len(k.bot_levels) >= 2]
        if options["games"] < 1:
            raise CommandError("--games must be at least 1")
        for name in names:
            kind = kinds.find(name)
            if kind is None:
                raise CommandError(f"No game is called {name!r}; installed: {', '.join(kinds.names())}")
            if len(kind.bot_levels) < 2:
                raise CommandError(f"{name} has no bot levels to rate")
            records = run_ladder(
                kind, games_per_pair=options["games"], seed=options["seed"], progress=self.stdout.write
            )
            store_ladder(kind, records, options["games"])
            for r in records:
                per_move = 1000 * r.cpu_seconds / r.moves if r.moves else 0.0
                self.stdout.write(
                    f"{name} {r.level}: rating {display_rating(r.mu, r.sigma)}, "
                    f"{r.points:g}/{r.games} points, {per_move:.1f} ms CPU per move"
                )
