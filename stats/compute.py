"""A finished game's numbers, computed by replaying its log through the engine.

No Django models here: the input is what a game row holds (kind, engine,
options, seed, seat count and the moves in order), the output a
:class:`stats.plugin.GameNumbers` of plain lists and dicts, which
``stats.services`` stores as rows (so a page never replays a game to show
its charts). What a game measures is its own: the ``measure`` of its
``stats`` part (``stats.plugin``); this module deals and drops the moves an
undo took back, the same for every game.
"""

from __future__ import annotations

from typing import Any

from games.engine.core import Engine
from games.engine.undo import is_undo, retracted_seqs
from stats.plugin import GameNumbers, part_of


def measured(kind: str) -> bool:
    """True if games of ``kind`` are measured (the game is installed and has a ``stats`` part)."""
    return part_of(kind) is not None


def game_numbers(
    kind: str, engine: Engine, options: dict[str, Any], players: int, seed: int, moves: list[tuple[int, dict]]
) -> GameNumbers:
    """Replay ``moves`` (``(seat, move)`` in log order) from the deal and measure the game with its part.

    Raises:
        games.engine.core.EngineError: a move does not replay (the caller skips such a game).
        ValueError: a kind that is not measured (no such game installed, or no ``stats`` part).
    """
    part = part_of(kind)
    if part is None:
        raise ValueError(f"no statistics for {kind!r}")
    state = engine.new_game(options, players, seed)
    numbers: GameNumbers = part.measure(state, engine, live_moves(moves))
    numbers.kind = kind
    numbers.players = players
    return numbers


def live_moves(moves: list[tuple[int, dict]]) -> list[tuple[int, dict]]:
    """The moves that stand (``(seat, move)`` in log order): undo entries and the moves they took back dropped.

    A log's seqs are 1, 2, ... in order (append-only), so the n-th entry is move ``n``
    (the numbering an undo entry's ``to`` uses, ``games.engine.undo``).
    """
    gone = retracted_seqs((seq, move) for seq, (_seat, move) in enumerate(moves, 1))
    return [(seat, move) for seq, (seat, move) in enumerate(moves, 1) if seq not in gone and not is_undo(move)]
