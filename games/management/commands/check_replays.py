"""``manage.py check_replays``: replay stored games against the current code; meant for before every deploy."""

from __future__ import annotations

import multiprocessing
import statistics
import sys
import time
from collections.abc import Iterator
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connections

from games import kinds
from games.replay_check import ReplayReport, check_games, games_to_check

#: Game ids one worker replays per task (a progress step).
CHUNK = 1000


def _check_chunk(ids: list[int]) -> list[ReplayReport]:
    """In a worker process: replay ``ids`` on its own database connection."""
    return list(check_games(ids))


class Command(BaseCommand):
    """Replay every started game (or some) and report those that no longer reach what their rows record.

    Exit status 1 when any game does not replay. Prints one line per game
    that fails (every game with ``-v 2``), a progress line on stderr, and a
    summary with the time taken (total, and per game: median and slowest).
    """

    help = "Replay stored games through the current engines and report any that no longer replay."

    def add_arguments(self, parser: CommandParser) -> None:
        """``--game ID`` (repeatable), ``--kind``, ``--sample N``, ``--seed``, ``--workers N``."""
        parser.add_argument("--game", type=int, action="append", default=[], help="only this game (repeatable)")
        parser.add_argument("--kind", choices=kinds.names(), help="only games of this kind")
        parser.add_argument("--sample", type=int, help="a random sample of this many games")
        parser.add_argument("--seed", type=int, default=0, help="the sample's random seed")
        parser.add_argument("--workers", type=int, default=max(1, multiprocessing.cpu_count()))

    def handle(self, *args: Any, **options: Any) -> None:
        """Run the check; raise ``CommandError`` (exit 1) if any game does not replay."""
        if options["sample"] is not None and options["sample"] < 1:
            raise CommandError("--sample must be at least 1")
        ids = games_to_check(ids=options["game"], kind=options["kind"], sample=options["sample"], seed=options["seed"])
        verbose = options["verbosity"] >= 2
        started = time.perf_counter()
        reports: list[ReplayReport] = []
        chunks = [ids[i : i + CHUNK] for i in range(0, len(ids), CHUNK)]
        workers = max(1, min(options["workers"], len(chunks)))
        if workers == 1:
            results: Iterator[list[ReplayReport]] = map(_check_chunk, chunks)
            pool = None
        else:
            # Each worker opens its own connection: none may be shared across the fork.
            connections.close_all()
            pool = multiprocessing.get_context("fork").Pool(workers)
            results = pool.imap_unordered(_check_chunk, chunks)
        try:
            for batch in results:
                reports.extend(batch)
                for r in batch:
                    if verbose or not r.ok or r.settled:
                        self.stdout.write(_line(r))
                elapsed = time.perf_counter() - started
                rate = len(reports) / elapsed if elapsed else 0
                sys.stderr.write(f"\r{len(reports):,}/{len(ids):,} games, {rate:,.0f}/s")
                sys.stderr.flush()
        finally:
            if pool is not None:
                pool.close()
                pool.join()
        if ids:
            sys.stderr.write("\n")
        elapsed = time.perf_counter() - started
        bad = [r for r in reports if not r.ok]
        settled = sum(r.settled for r in reports)
        times = [r.seconds for r in reports] or [0.0]
        self.stdout.write(
            f"{len(reports) - len(bad):,} of {len(reports):,} games replay "
            + (f"or were settled by a moderator ({settled:,} settled) " if settled else "")
            + f"({sum(r.moves for r in reports):,} moves) in {elapsed:.1f} s with {workers} worker(s); "
            f"per game: median {statistics.median(times) * 1000:.1f} ms, slowest {max(times) * 1000:.1f} ms"
        )
        if bad:
            raise CommandError(f"{len(bad)} game(s) no longer replay: {', '.join(str(r.game_id) for r in bad[:20])}")


def _line(r: ReplayReport) -> str:
    """One game's line of the report."""
    line = f"game {r.game_id} {r.kind} v{r.engine_version}: "
    if r.settled:
        return line + f"settled by a moderator after it stopped replaying ({r.problem})"
    return line + (f"ok, {r.moves} moves in {r.seconds * 1000:.1f} ms" if r.ok else r.problem)
