"""``manage.py golden_add GAME_ID``: add a game played on the site to the golden corpus (tests/golden)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.engine.golden import record_game, write_record
from games.models import Game


class Command(BaseCommand):
    """Record a site game (its options, seed, log, every event and every seat's final view) as a golden file.

    The corpus must replay to the same events and views forever
    (``tests/golden/test_golden.py``). A record holds the game's seed, so a
    running game is refused unless ``--running`` says its hidden
    information may be published (a test game, never a real one in progress).
    """

    help = "Add a site game to the golden corpus (tests/golden/<kind>/site-<id>.json)."

    def add_arguments(self, parser: CommandParser) -> None:
        """``GAME_ID``, ``--out DIR`` (default tests/golden), ``--running``, ``--replace``."""
        parser.add_argument("game_id", type=int)
        parser.add_argument("--out", type=Path, default=Path(settings.BASE_DIR) / "tests" / "golden")
        parser.add_argument(
            "--running", action="store_true", help="allow a game in progress (its seed and hands become public)"
        )
        parser.add_argument(
            "--replace",
            action="store_true",
            help="overwrite an existing record of the same id (another database's game)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        """Write the record.

        Raises:
            CommandError: a missing, unstarted or (without ``--running``) running game; a log that does
                not replay; a record of that id already in the corpus (without ``--replace``): ids
                restart with each database, so it is most likely another game worth keeping.
        """
        try:
            game = Game.objects.get(pk=options["game_id"])
        except Game.DoesNotExist:
            raise CommandError(f"no game {options['game_id']}") from None
        if game.started is None:
            raise CommandError(f"game {game.pk} has not started")
        if not game.is_finished and not options["running"]:
            raise CommandError(f"game {game.pk} is not finished: its record would publish its seed (use --running)")
        moves = [{"player": seat, **move} for seat, move in game.actions.order_by("seq").values_list("seat", "move")]
        try:
            record = record_game(
                game.kind,
                game.engine_version,
                game.options,
                game.seed,
                game.seats.count(),
                moves,
                source=f"site game {game.pk} ({game.status})",
            )
        except Exception as exc:  # the log does not replay: nothing to add
            raise CommandError(f"game {game.pk} does not replay: {exc!r}") from exc
        folder = options["out"] / game.kind
        path = folder / f"site-{game.pk}.json"
        if path.exists() and not options["replace"]:
            raise CommandError(f"{path} already exists (a game of another database?): use --replace to overwrite it")
        folder.mkdir(parents=True, exist_ok=True)
        write_record(record, path)
        self.stdout.write(f"wrote {path} ({len(moves)} moves, engine version {record['engine_version']})")
