"""Recorded games that must replay to the same end, forever: the golden corpus.

A game is its log replayed through the engine of its own version, so a
recorded game is the log plus everything the engine said about it:

``kind``, ``engine_version``, ``options``, ``players``, ``seed``, ``moves``
(each with its ``player``), optional provenance (``bots``, ``source``),
``events`` (per move, every event the engine returned with its visibility,
each a row ``[kind, player, data]`` or, for a private event,
``[kind, player, data, private_to, redacted]``: ``Event.to_dict()`` without
its keys, which would be most of the corpus) and ``views`` (the view of
every seat, then the spectator's, at the end; ``final``, the spectator's,
is ``views["spectator"]``). Replaying the moves from the seed through today's code, with
the engine of the record's version, must reproduce every one of them;
any difference fails the test suite instead of silently changing games
people played. A game may end finished or stopped mid-game (then the views
keep their secrets, which the check covers too).

Older records (a game's first ones, its corpus's ``FINAL_ONLY``) carry only
``final`` (stored); only what a record holds is compared.

Files are plain, uncompressed JSON with one move (and its events) per line,
so a change shows in a diff as the moves it touched; the whole corpus is a
few megabytes. A ``.json.gz`` file is read the same way, should one ever
be too big.

    python -m games.engine.golden record --kind all --out tests/golden
    python -m games.engine.golden check tests/golden

A log may hold undo entries (``games.engine.undo``): replay goes back at
each, as the site does (``tests/golden/<kind>/undo-*.json``).

Which games are recorded, and the bots that only record them, are each
engine's own: its ``corpus`` module (below, "Bot games").

``record_game`` makes a record from a game's parameters and moves (what a
``manage.py golden_add GAME_ID`` needs); ``check_record`` lists what no
longer replays.
"""

from __future__ import annotations

import argparse
import gzip
import importlib.util
import json
import pkgutil
import random
import sys
from collections.abc import Iterable
from pathlib import Path
from types import ModuleType
from typing import Any

import games.engine as engine_package
from games.engine import registry
from games.engine.core import IllegalMove
from games.engine.registry import get_engine
from games.engine.undo import Rewinder, undo_targets

MAX_MOVES = 20_000

#: The spectator's key in ``views`` (seats are "0", "1", ...; JSON keys are strings).
SPECTATOR_KEY = "spectator"


def _plain(value: dict[str, Any]) -> dict[str, Any]:
    """Return ``value`` as JSON would give it back (tuples become lists, int keys strings)."""
    plain: dict[str, Any] = json.loads(json.dumps(value, ensure_ascii=False))
    return plain


def _body(move: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in move.items() if k != "player"}


def event_row(event: Any) -> list[Any]:
    """Return an ``Event`` as a corpus row: ``[kind, player, data]``, plus
    ``[private_to, redacted]`` when the event is private to one seat."""
    row = [event.kind, event.player, event.data]
    if event.private_to is not None or event.redacted is not None:
        row += [event.private_to, event.redacted]
    return row


def record_game(
    kind: str,
    engine_version: int | None,
    options: dict[str, Any],
    seed: int,
    players: int,
    moves: Iterable[dict[str, Any]],
    *,
    bots: list[str] | None = None,
    source: str | None = None,
) -> dict[str, Any]:
    """Replay a game and return its golden record (see the module docstring).

    Args:
        kind: the game kind (``Game.kind``).
        engine_version: the rules version the game was played under
            (``Game.engine_version``); ``None``: the current version.
        options: the game's options as stored (normalised by the engine here).
        seed: the game's secret seed.
        players: the number of seats.
        moves: the log in notation, each move with its ``player`` (seat);
            undo entries (``games.engine.undo``) go back to the position they name.
        bots: the bot of each seat, for bot games (provenance only).
        source: where the game came from ("site game 1234"; provenance only).

    Returns:
        A JSON-ready dict; write it with ``write_record``.

    Raises:
        UnsupportedVersion: no engine for that version.
        InvalidOptions: options or player count outside the rules.
        IllegalMove: a move of the log is not legal (the log does not replay).
    """
    engine = get_engine(kind, engine_version)
    options = engine.normalize_options(options, players, seed)
    moves = list(moves)
    run = Rewinder(engine, engine.new_game(options, players, seed), undo_targets(moves))
    log: list[dict[str, Any]] = []
    events: list[list[list[Any]]] = []
    for k, move in enumerate(moves):
        if not isinstance(move, dict) or "player" not in move:
            raise IllegalMove(f"move {k} has no player", "malformed")
        got = run.apply(k + 1, move["player"], _body(move))
        log.append({"player": move["player"], **_body(move)})
        events.append([event_row(e) for e in got])
    state = run.state
    record: dict[str, Any] = {
        "kind": kind,
        "engine_version": engine.version,
        "options": options,
        "players": players,
        "seed": seed,
    }
    if bots is not None:
        record["bots"] = list(bots)
    if source is not None:
        record["source"] = source
    record.update({"moves": log, "events": events, "views": _views(engine, state, players)})
    return _plain(record)


def _views(engine: Any, state: Any, players: int) -> dict[str, Any]:
    out = {str(seat): engine.view(state, seat) for seat in range(players)}
    out[SPECTATOR_KEY] = engine.view(state, None)
    return out


def replay(record: dict[str, Any]) -> dict[str, Any]:
    """Replay a record's moves from its seed with its version's engine; return the final spectator view.

    Raises:
        UnsupportedVersion: this code no longer has the record's engine version.
        IllegalMove: a recorded move is no longer legal (the engine changed).
    """
    view: dict[str, Any] = replay_all(record)["views"][SPECTATOR_KEY]
    return view


def replay_all(record: dict[str, Any]) -> dict[str, Any]:
    """Replay a record; return what it would store now: ``events`` and ``views``.

    Raises:
        UnsupportedVersion, IllegalMove: as for ``replay``.
    """
    engine = get_engine(record["kind"], record.get("engine_version"))
    state = engine.new_game(record["options"], record["players"], record["seed"])
    run = Rewinder(engine, state, undo_targets(record["moves"]))
    events = []
    for k, move in enumerate(record["moves"]):
        events.append([event_row(e) for e in run.apply(k + 1, move["player"], _body(move))])
    return _plain({"events": events, "views": _views(engine, run.state, record["players"])})


def check_record(record: dict[str, Any]) -> list[str]:
    """Return what of ``record`` no longer replays exactly (empty when it all does).

    Each entry names the first difference of one part: the move whose events
    differ, the seat whose view differs, or the refusal of a move.
    """
    try:
        got = replay_all(record)
    except Exception as e:  # noqa: BLE001 - any failure to replay is a finding, reported by name
        return [f"does not replay: {type(e).__name__}: {e}"]
    out = []
    if "events" in record:
        for k, (want, have) in enumerate(zip(record["events"], got["events"], strict=True)):
            if want != have:
                out.append(f"events of move {k} ({record['moves'][k]}) differ")
                break
    if "final" in record and got["views"][SPECTATOR_KEY] != record["final"]:
        out.append("final view differs")
    for who, want in record.get("views", {}).items():
        if got["views"].get(who) != want:
            out.append(f"final view of {who} differs")
    return out


def write_record(record: dict[str, Any], path: Path) -> None:
    """Write a record as plain JSON, one move (with its events) per line, so diffs stay readable.

    A path ending in ``.gz`` is written gzip-compressed instead.
    """
    head = {k: v for k, v in record.items() if k not in ("moves", "events", "final", "views")}
    # Pretty enough to read, compact enough to keep: the parameters first, then a line per move.
    lines = ["{"]
    for k, v in head.items():
        lines.append(f"{json.dumps(k)}: {_dump(v)},")
    lines.append('"moves": [')
    moves = record["moves"]
    lines += [_dump(m) + ("," if i < len(moves) - 1 else "") for i, m in enumerate(moves)]
    lines.append("],")
    if "events" in record:
        events = record["events"]
        lines.append('"events": [')
        lines += [_dump(e) + ("," if i < len(events) - 1 else "") for i, e in enumerate(events)]
        lines.append("],")
    tail = [(k, record[k]) for k in ("final", "views") if k in record]
    for i, (k, v) in enumerate(tail):
        if k == "views":
            # One seat per line.
            seats = list(v.items())
            lines.append('"views": {')
            lines += [
                f"{json.dumps(w)}: {_dump(x)}" + ("," if j < len(seats) - 1 else "") for j, (w, x) in enumerate(seats)
            ]
            lines.append("}" + ("," if i < len(tail) - 1 else ""))
        else:
            lines.append(f"{json.dumps(k)}: {_dump(v)}" + ("," if i < len(tail) - 1 else ""))
    lines.append("}")
    text = "\n".join(lines) + "\n"
    if path.suffix == ".gz":
        path.write_bytes(gzip.compress(text.encode("utf-8"), mtime=0))
    else:
        path.write_text(text, encoding="utf-8")


def _dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def read_record(path: Path) -> dict[str, Any]:
    """Read a record written by ``write_record`` (plain or ``.gz``)."""
    data = path.read_bytes()
    if path.suffix == ".gz":
        data = gzip.decompress(data)
    record: dict[str, Any] = json.loads(data.decode("utf-8"))
    return record


def record_files(folder: Path) -> list[Path]:
    """Every record under ``folder`` (``*.json`` and ``*.json.gz``), sorted."""
    return sorted(p for p in Path(folder).rglob("*") if p.name.endswith((".json", ".json.gz")))


# --- Bot games ------------------------------------------------------------------------
#
# Each engine may have a ``corpus`` module beside it (``games.engine.<kind>.corpus``; found as
# ``registry.module_beside(kind, "corpus")``, so this module names no game). It defines:
#
# * ``BOTS``: name -> ``(view, rng) -> move``, bots used only to make recorded games (not offered
#   to players); a record's ``bots`` may name them as well as the engine's own bots;
# * ``CORPORA``: corpus name -> a function returning the :data:`Spec` of every game it records;
#   the corpus named after the kind is recorded by ``record --kind all``;
# * ``FINAL_ONLY`` (optional): corpus names whose records keep only the final spectator view
#   (the shape of the first records), written on one line.

#: A game in the corpus: (kind, version, options, bots, seed, stop after N moves or None, file name).
Spec = tuple[str, int, dict[str, Any], list[str], int, int | None, str]


def corpus_module(kind: str) -> ModuleType | None:
    """Return the ``corpus`` module beside ``kind``'s engine, or ``None`` if it has none.

    Raises:
        KeyError: ``kind`` is not a game kind.
        ImportError: the corpus module is broken.
    """
    return registry.module_beside(kind, "corpus")


def corpus_bots(kind: str) -> dict[str, Any]:
    """Return the bots ``kind``'s corpus records with beyond the engine's own (``{}`` if none)."""
    module = corpus_module(kind)
    bots: dict[str, Any] = getattr(module, "BOTS", {}) if module is not None else {}
    return bots


def corpora() -> dict[str, tuple[str, ModuleType]]:
    """Return every corpus the engines offer: corpus name -> (kind, its corpus module).

    The kinds are those registered (``games.engine.registry``, under the site) and, without
    Django, every package of ``games.engine`` that has a ``corpus`` module.
    """
    kinds = list(registry.ENGINE_MODULES)
    for found in pkgutil.iter_modules(engine_package.__path__):
        if (
            found.ispkg
            and found.name not in kinds
            and importlib.util.find_spec(f"{engine_package.__name__}.{found.name}.corpus")
        ):
            kinds.append(found.name)
    out: dict[str, tuple[str, ModuleType]] = {}
    for kind in kinds:
        module = corpus_module(kind)
        if module is not None:
            out.update((name, (kind, module)) for name in getattr(module, "CORPORA", {}))
    return out


def play_moves(
    kind: str, engine_version: int | None, options: dict[str, Any], bots: list[str], seed: int, stop: int | None = None
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Play a bot game through the public engine interface; return (normalised options, moves).

    Args:
        stop: end after this many moves (a game stopped mid-game), or ``None``
            to play to the end.

    Raises:
        RuntimeError: the game did not end within ``MAX_MOVES`` moves.
    """
    engine = get_engine(kind, engine_version)
    players = len(bots)
    options = engine.normalize_options(options, players, seed)
    state = engine.new_game(options, players, seed)
    rng = random.Random(seed)
    extra = corpus_bots(kind)
    moves: list[dict[str, Any]] = []
    while not engine.is_over(state) and (stop is None or len(moves) < stop):
        if len(moves) >= MAX_MOVES:
            raise RuntimeError(f"{kind} game with seed {seed} did not end in {MAX_MOVES} moves")
        p = engine.pending(state)[0].player
        bot = extra.get(bots[p]) or engine.bots[bots[p]]
        move = bot(engine.player_view(state, p), rng)
        engine.apply(state, p, move)
        moves.append({"player": p, **move})
    return options, moves


def play(
    kind: str,
    options: dict[str, Any],
    bots: list[str],
    seed: int,
    engine_version: int | None = None,
    stop: int | None = None,
) -> dict[str, Any]:
    """Play one bot game and return its full record (``record_game`` of its moves)."""
    options, moves = play_moves(kind, engine_version, options, bots, seed, stop)
    return record_game(kind, engine_version, options, seed, len(bots), moves, bots=bots)


def main(argv: list[str]) -> int:
    """``record`` writes a corpus (on purpose only); ``check`` replays every file and reports differences."""
    ap = argparse.ArgumentParser(prog="python -m games.engine.golden")
    sub = ap.add_subparsers(dest="cmd", required=True)
    rec = sub.add_parser("record", help="write a corpus (rewrites its files)")
    rec.add_argument(
        "--kind",
        default="all",
        help="a corpus (its name is the game's kind, or one its engine's corpus module names); "
        "all: every game's own corpus",
    )
    rec.add_argument("--out", default="tests/golden")
    chk = sub.add_parser("check", help="replay every record under a folder")
    chk.add_argument("folder")
    args = ap.parse_args(argv)
    if args.cmd == "record":
        found = corpora()
        names = [k for k, (kind, _m) in found.items() if k == kind] if args.kind == "all" else [args.kind]
        if any(name not in found for name in names):
            ap.error(f"--kind: choose all or one of {', '.join(sorted(found))}")
        for name in names:
            kind, module = found[name]
            final_only = name in getattr(module, "FINAL_ONLY", ())
            out = Path(args.out) / kind
            out.mkdir(parents=True, exist_ok=True)
            for spec_kind, version, options, bots, seed, stop, file_name in module.CORPORA[name]():
                record = play(spec_kind, options, bots, seed, version, stop)
                over = record["views"][SPECTATOR_KEY]["game_over"]
                if final_only:
                    # The first records kept only the final view, on one line; keep their shape.
                    final = record["views"][SPECTATOR_KEY]
                    record = {k: v for k, v in record.items() if k not in ("events", "views")}
                    record["final"] = final
                    text = json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n"
                    (out / file_name).write_text(text, encoding="utf-8")
                else:
                    write_record(record, out / file_name)
                print(f"{file_name}: {len(record['moves'])} moves{'' if over else ' (stopped)'}")
        return 0
    bad = 0
    files = record_files(Path(args.folder))
    for path in files:
        problems = check_record(read_record(path))
        if problems:
            print(f"DIFFERS {path}: " + "; ".join(problems))
            bad += 1
    print(
        f"all {len(files)} recorded games replay exactly" if not bad else f"{bad} of {len(files)} recorded games differ"
    )
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
