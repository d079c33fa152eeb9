"""``manage.py rebuild_stats``: throw the statistics away and measure every finished game again from its log."""

from __future__ import annotations

import multiprocessing
import sys
import time
from collections import Counter
from collections.abc import Iterator
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.db import connections

from stats import services

#: Games one worker measures and writes per task (a progress step).
CHUNK = 500


def _rebuild_chunk(ids: list[int]) -> tuple[int, Counter, Counter]:
    """In a worker: measure ``ids``, write their rows, return ``(games, card deltas, tally deltas)``."""
    rows = list(services.rows_for_games(ids))
    cards, tally = services.stats_write_rows(rows)
    return len(rows), cards, tally


class Command(BaseCommand):
    """Delete every statistics row, replay every finished game's log, and write the rows and totals again.

    Use it after a change to what is measured, or to repair the totals. The
    site keeps serving meanwhile; its statistics pages are incomplete until
    the rebuild ends (games that finish during it are measured by their own
    task or by the sweep). Prints progress on stderr and the time taken.
    """

    help = "Rebuild the game statistics from the move logs of every finished game."

    def add_arguments(self, parser: CommandParser) -> None:
        """``--workers N`` (default: the number of CPUs)."""
        parser.add_argument("--workers", type=int, default=max(1, multiprocessing.cpu_count()))

    def handle(self, *args: Any, **options: Any) -> None:
        """Clear, measure in chunks (in ``--workers`` processes), then write the totals."""
        started = time.perf_counter()
        services.stats_clear()
        ids = services.finished_game_ids()
        chunks = [ids[i : i + CHUNK] for i in range(0, len(ids), CHUNK)]
        workers = max(1, min(options["workers"], len(chunks)))
        if workers == 1:
            results: Iterator[tuple[int, Counter[Any], Counter[Any]]] = map(_rebuild_chunk, chunks)
            pool = None
        else:
            # Each worker opens its own connection: none may be shared across the fork.
            connections.close_all()
            pool = multiprocessing.get_context("fork").Pool(workers)
            results = pool.imap_unordered(_rebuild_chunk, chunks)
        done = 0
        cards: Counter = Counter()
        tally: Counter = Counter()
        try:
            for n, c, t in results:
                done += n
                cards.update(c)
                tally.update(t)
                sys.stderr.write(f"\r{done:,}/{len(ids):,} games")
        finally:
            if pool is not None:
                pool.close()
                pool.join()
        services.stats_write_totals(cards, tally)
        elapsed = time.perf_counter() - started
        sys.stderr.write("\n")
        self.stdout.write(f"measured {done:,} finished games in {elapsed:.1f} s with {workers} worker(s)")
