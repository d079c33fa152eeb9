"""``manage.py recompute_ratings``: replay every rated game and check (or rewrite) the ratings."""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from ratings.services import ratings_recompute


class Command(BaseCommand):
    """Replay all rated games in the order they finished and compare with the stored ratings.

    Without ``--write`` it only reports, exiting with status 1 if anything
    differs. With ``--write`` it replaces the stored Rating and RatingChange
    rows by the replay (one transaction), for instance after changing the
    model's parameters.
    """

    help = "Recompute every rating from the finished rated games, in order; check or --write."

    def add_arguments(self, parser: CommandParser) -> None:
        """``--kind`` (repeatable) limits the ladders; ``--write`` replaces the stored rows."""
        parser.add_argument("--kind", action="append", dest="kinds", help="only this game kind (repeatable)")
        parser.add_argument("--write", action="store_true", help="replace the stored ratings with the replay")

    def handle(self, *args: Any, kinds: list[str] | None = None, write: bool = False, **options: Any) -> None:
        """Run the replay and print a summary; exit 1 on differences unless writing."""
        report = ratings_recompute(kinds=kinds, write=write)
        self.stdout.write(f"{report.games} rated games, {report.changes} rating changes replayed.")
        for line in report.mismatches[:50]:
            self.stdout.write(f"  differs: {line}")
        if len(report.mismatches) > 50:
            self.stdout.write(f"  ... and {len(report.mismatches) - 50} more")
        if report.written:
            self.stdout.write(self.style.SUCCESS("Stored ratings written from the replay."))
        elif report.mismatches:
            self.stdout.write(self.style.ERROR(f"{len(report.mismatches)} differences; run with --write to repair."))
            sys.exit(1)
        else:
            self.stdout.write(self.style.SUCCESS("Stored ratings match the replay exactly."))
