"""Scenario runner: ``python -m games.engine.domaine.scenario FILE.json``.

Builds the position a scenario's ``setup`` describes, plays its moves and
prints the resulting position in the keys of ``shared/rules/domaine-moves.md``
(see ``games.engine.cli.scenario_main`` for the exit codes).
"""

from __future__ import annotations

import sys
from typing import Any

from games.engine.cli import MalformedScenario, scenario_main
from games.engine.core import EngineError, IllegalMove, Rng
from games.engine.domaine import engine as E
from games.engine.domaine import rules
from games.engine.domaine.board import SQ_NAME, Board, parse_edge, parse_square, terrain_from_rows
from games.engine.domaine.cards import CARDS
from games.engine.domaine.state import OVER, PLAY, SETUP, TAKE, PlayerState, State


def _colour(value: Any, n: int) -> int:
    if value == "neutral":
        if n != 2:
            raise MalformedScenario("only a two-player game has a neutral colour")
        return rules.NEUTRAL
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < n:
        return value
    raise MalformedScenario(f"{value!r} is not a seat or 'neutral'")


def _setup_edge(text: Any) -> int:
    """Read an edge of a setup's ``borders``: a move must name an edge smaller
    square first, but a position is only described, so either order is read."""
    if isinstance(text, str) and text.count("-") == 1:
        a, b = (parse_square(p) for p in text.split("-"))
        text = "-".join(SQ_NAME[s] for s in sorted((a, b)))
    return parse_edge(text)


def build(setup: dict[str, Any], version: int | None = None) -> State:
    """Return the position described by a scenario's ``setup``.

    Accepts any position the keys can describe, as long as each piece stands
    on a square it may stand on; does not re-check setup-only rules (castle
    spacing, card copies, deck letter order).

    Args:
        setup: the scenario's ``setup`` object.
        version: the rules version to play it under (a file's
            ``engine_version``); ``None``: the current version.

    Raises:
        MalformedScenario: a key of the wrong shape or a piece on a square
            it may not stand on.
        UnsupportedVersion: no such engine version (an ``EngineError``).
    """
    try:
        n = setup.get("players", 2)
        seed = setup.get("seed", 0)
        state = E.new_state(n, seed, E.VERSION if version is None else version)
        if "board" in setup:
            try:
                state.board = Board(terrain_from_rows(setup["board"]))
            except ValueError as e:
                raise MalformedScenario(str(e)) from e
        board = state.board
        for sq, who in setup.get("castles", {}).items():
            s = parse_square(sq)
            if board.terrain[s] not in rules.CASTLE_TERRAIN or board.occupied(s):
                raise MalformedScenario(f"a castle may not stand on {sq}")
            board.set_castle(s, _colour(who, n))
        for sq, who in setup.get("knights", {}).items():
            s = parse_square(sq)
            c = _colour(who, n)
            if c == rules.NEUTRAL:
                raise MalformedScenario("the neutral colour has no knights")
            if board.terrain[s] not in rules.KNIGHT_TERRAIN or board.occupied(s):
                raise MalformedScenario(f"a knight may not stand on {sq}")
            board.set_knight(s, c)
        for c in range(n):
            if board.knights_on_board(c) > rules.KNIGHTS_PER_COLOUR:
                raise MalformedScenario(f"seat {c} has more than {rules.KNIGHTS_PER_COLOUR} knights")
        for text in setup.get("borders", []):
            edge = _setup_edge(text)
            if board.border[edge]:
                raise MalformedScenario(f"border {text} listed twice")
            board.add_border(edge)
        if board.borders_on_board > rules.BORDER_MARKERS:
            raise MalformedScenario("more than 100 borders")
        pairs = [(parse_square(a), parse_square(b)) for a, b in setup.get("alliances", [])]
        state.alliances = sorted((min(pair), max(pair)) for pair in pairs)
        if "players_state" in setup:
            ps = setup["players_state"]
            if not isinstance(ps, list) or len(ps) != n:
                raise MalformedScenario("players_state needs one entry per seat")
            state.players = [PlayerState(int(p.get("gold", rules.START_GOLD)), list(p.get("hand", []))) for p in ps]
        if "deck" in setup:
            state.deck = list(setup["deck"])
        state.display = list(setup.get("display", []))
        for cid in [c for p in state.players for c in p.hand] + state.deck + state.display:
            if cid not in CARDS:
                raise MalformedScenario(f"unknown card {cid!r}")
        turn = setup.get("turn", {"player": 0, "step": SETUP})
        state.turn_player = _colour(turn.get("player", 0), n)
        if state.turn_player == rules.NEUTRAL:
            raise MalformedScenario("turn.player is the seat that moves (it places neutral castles too)")
        step = turn.get("step", SETUP)
        if step not in (SETUP, PLAY, TAKE):
            raise MalformedScenario(f"unknown step {step!r}")
        state.step = step
        if step == PLAY:
            state.turns = 1
        state.rng = Rng(seed, state.rng.counter)
        return state
    except IllegalMove as e:
        raise MalformedScenario(e.reason) from e
    except (TypeError, AttributeError, KeyError) as e:
        raise MalformedScenario(f"bad setup: {e}") from e


def apply(state: State, player: Any, move: dict[str, Any]) -> None:
    """Apply one scenario move (``player`` is a seat index)."""
    if not isinstance(player, int) or isinstance(player, bool):
        raise IllegalMove(f"{player!r} is not a seat.", "bad_player")
    E.apply(state, player, move)


def report(state: State) -> dict[str, Any]:
    """Return the output keys of the scenario format for ``state``."""
    pos = E.public_position(state)
    scores = state.scores()
    res = E.result(state)
    return {
        "players": [
            {
                "gold": p.gold,
                "hand": list(p.hand),
                "score": scores[i],
                "knights_left": rules.KNIGHTS_PER_COLOUR - state.board.knights_on_board(i),
                "castles_left": E.castles_left(state, i),
            }
            for i, p in enumerate(state.players)
        ],
        "domains": pos["domains"],
        "neutral_zones": pos["neutral_zones"],
        "borders": pos["borders"],
        "borders_left": pos["borders_left"],
        "alliances": pos["alliances"],
        "deck_size": len(state.deck),
        "display": list(state.display),
        "turn": {"player": state.turn_player, "step": state.step},
        "pending": [{"player": d.player, "kind": d.kind, "prompt": d.prompt} for d in E.pending(state)],
        "game_over": state.step == OVER,
        "winners": res.winners if res else [],
    }


def main(argv: list[str] | None = None) -> int:
    """Run the scenario file named in ``argv`` (default: sys.argv[1:])."""
    return scenario_main(sys.argv[1:] if argv is None else argv, build, apply, report)


if __name__ == "__main__":
    try:
        sys.exit(main())
    except EngineError as e:  # pragma: no cover - defensive: never a traceback for a bad file
        print(f"malformed scenario: {e}", file=sys.stderr)
        sys.exit(2)
