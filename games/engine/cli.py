"""Command-line plumbing shared by the engines' scenario and simulate tools.

``run_scenario_main`` implements the contract of ``shared/rules/*-moves.md``:
print the resulting position as one JSON object and exit 0; print
``{"error": {"move": K, "message": ...}}`` and exit 3 when move K is
refused; exit 2 with a message on standard error for a malformed file.

Herald's scenario files may carry one key the official format lacks:
``"engine_version": N`` (top level) runs the scenario under rules version
N (the vectors that pin an older version's behaviour); without it, the
engine's current version. The official checker passes files through
untouched, so the key is harmless to it.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from games.engine.core import EngineError, IllegalMove

EXIT_OK = 0
EXIT_MALFORMED = 2
EXIT_REFUSED = 3


class ScenarioBuild(Protocol):
    """An engine's ``scenario.build``: setup dict (and rules version, ``None`` for the current) -> state."""

    def __call__(self, setup: dict[str, Any], version: int | None = None) -> Any: ...


class MalformedScenario(Exception):
    """The scenario file cannot be read as a position and moves."""


def run_scenario(
    scenario: dict[str, Any],
    build: ScenarioBuild,
    apply: Callable[[Any, int, dict[str, Any]], Any],
    report: Callable[[Any], dict[str, Any]],
) -> tuple[int, dict[str, Any]]:
    """Play a scenario; return ``(exit_code, output_object)``.

    Args:
        scenario: the parsed file (``setup``, ``moves``, ``expect``, and
            optionally ``engine_version``).
        build: setup dict -> state; raises ``MalformedScenario`` or
            ``EngineError`` for a setup it cannot build. Called as
            ``build(setup, version=N)`` when the file names an
            ``engine_version``.
        apply: ``(state, player, move)`` -> anything; raises ``IllegalMove``.
        report: state -> the output keys of the notation file.

    Raises:
        MalformedScenario: the setup or a move is not of the right shape.
    """
    if not isinstance(scenario, dict) or not isinstance(scenario.get("setup", {}), dict):
        raise MalformedScenario("a scenario is a JSON object with a 'setup' object")
    moves = scenario.get("moves", [])
    if not isinstance(moves, list):
        raise MalformedScenario("'moves' must be a list")
    version = scenario.get("engine_version")
    if version is not None and (not isinstance(version, int) or isinstance(version, bool)):
        raise MalformedScenario("'engine_version' must be an integer")
    try:
        setup = scenario.get("setup", {})
        state = build(setup) if version is None else build(setup, version=version)
    except EngineError as e:
        raise MalformedScenario(f"setup refused: {e}") from e
    for k, move in enumerate(moves):
        if not isinstance(move, dict) or "player" not in move:
            raise MalformedScenario(f"move {k} must be an object with a 'player'")
        body = {key: v for key, v in move.items() if key != "player"}
        try:
            apply(state, move["player"], body)
        except IllegalMove as e:
            return EXIT_REFUSED, {"error": {"move": k, "message": e.reason}}
    return EXIT_OK, report(state)


def scenario_main(
    argv: Sequence[str],
    build: ScenarioBuild,
    apply: Callable[[Any, int, dict[str, Any]], Any],
    report: Callable[[Any], dict[str, Any]],
) -> int:
    """Entry point for ``python -m games.engine.<game>.scenario FILE``."""
    if len(argv) != 1:
        print("usage: python -m games.engine.<game>.scenario FILE.json", file=sys.stderr)
        return EXIT_MALFORMED
    try:
        with open(argv[0], encoding="utf-8") as f:
            scenario = json.load(f)
        code, out = run_scenario(scenario, build, apply, report)
    except (OSError, ValueError, MalformedScenario) as e:
        print(f"malformed scenario {argv[0]}: {e}", file=sys.stderr)
        return EXIT_MALFORMED
    print(json.dumps(out, ensure_ascii=False, sort_keys=True))
    return code


def report_simulation(
    n_games: int,
    elapsed_s: float,
    bots: Sequence[str],
    wins: Sequence[float],
    mean_turns: Sequence[float],
    out: Any = None,
    per: str = "seat",
) -> None:
    """Print per-bot wins and mean turns, then ``N games in T s: R games/s``.

    ``wins`` counts a shared win as a fraction (1/k for a k-way tie).
    ``per`` labels the lines: "seat" when each line is a fixed seat, "bot"
    when a simulation rotates the bots through the seats.
    """
    out = out or sys.stdout
    for i, (name, w, t) in enumerate(zip(bots, wins, mean_turns, strict=True)):
        pct = 100.0 * w / n_games if n_games else 0.0
        print(f"{per} {i} {name}: {w:g} wins ({pct:.1f}%), mean turns {t:.1f}", file=out)
    rate = n_games / elapsed_s if elapsed_s > 0 else float("inf")
    print(f"{n_games} games in {elapsed_s:.2f} s: {rate:.1f} games/s", file=out)


def timer() -> float:
    """Return a monotonic time in seconds (for simulation reports only)."""
    return time.perf_counter()
