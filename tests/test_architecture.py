"""The shape of the code stays as docs/architecture.md draws it.

* The import contracts in ``pyproject.toml`` (``[tool.importlinter]``) hold:
  the engines import nothing of Django or the site, ``games`` imports none
  of the apps that listen to it, no two siblings import each other, every
  app has its place in the apps' layers (apps-layered), so no two apps import each other.
* No import cycle at all among the project's modules (grimp's graph, which
  counts imports inside functions too, so a cycle cannot hide in one).
* Fewer than 10 function-local imports of project modules, each commented.
* No module outside the engines longer than 500 lines.
* Outside the game packages no module or template names a game (issue 29),
  but for a shrinking list of known debts.
"""

from __future__ import annotations

import ast
import importlib
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import grimp

from games import kinds
from website import settings as site_settings

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = (
    "games",
    "accounts",
    "correspondence",
    "moderation",
    "ratings",
    "ops",
    "website",
    "tournaments",
    "guide",
    "stats",
    "api",
    "matchmaking",
)
MAX_LOCAL_IMPORTS = 9
MAX_LINES = 500


def project_files() -> list[Path]:
    """Every Python file of the project's packages, migrations left out."""
    return sorted(p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py") if "migrations" not in p.parts)


def test_the_import_contracts_hold():
    run = subprocess.run(
        [str(Path(sys.executable).with_name("lint-imports")), "--no-cache"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]


def test_every_app_has_its_place_in_the_layers():
    """A new app must be placed in ``apps-layered`` (else nothing stops it leaning both ways)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    [layered] = [c for c in config["contracts"] if c["id"] == "apps-layered"]
    placed = [app.strip() for layer in layered["layers"] for app in layer.split("|")]
    assert sorted(placed) == sorted(PACKAGES) == sorted(config["root_packages"])


def test_no_module_imports_itself_through_others():
    graph = grimp.build_graph(*PACKAGES, cache_dir=None)
    cycles = []
    for importer in sorted(graph.modules):
        for imported in sorted(graph.find_modules_directly_imported_by(importer)):
            back = graph.find_shortest_chain(importer=imported, imported=importer)
            if back:
                cycles.append(" -> ".join((importer, *back)))
    assert cycles == []


def test_function_local_imports_of_project_modules_are_few_and_say_why():
    local = []
    for path in project_files():
        source = path.read_text(encoding="utf-8")
        lines = source.splitlines()
        for func in ast.walk(ast.parse(source)):
            if not isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for node in ast.walk(func):
                if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    names = [node.module]
                elif isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                else:
                    continue
                if any(n.split(".")[0] in PACKAGES for n in names):
                    line = lines[node.lineno - 1]
                    local.append((f"{path.relative_to(ROOT)}:{node.lineno}", "#" in line))
    assert len(local) <= MAX_LOCAL_IMPORTS, local
    assert [where for where, commented in local if not commented] == []


def test_no_module_outside_the_engines_is_over_500_lines():
    long = [
        (str(p.relative_to(ROOT)), n)
        for p in project_files()
        if "engine" not in p.relative_to(ROOT).parts[:2]
        and (n := p.read_text(encoding="utf-8").count("\n")) > MAX_LINES
    ]
    assert long == []


# --- The platform names no game (issue 29): see the docstring of the test below. ---

SCAN_DIRS = (*PACKAGES, "templates")
SCAN_SUFFIXES = {".py", ".html", ".txt", ".js", ".css", ".svg", ".json"}
SCAN_SKIP_PARTS = {"migrations", "locale", "__pycache__"}
CARD_WORDS = re.compile(r"[A-Z][a-z]+(?: [A-Z][a-z]+)*")

#: Known debts: platform files that still name a game (empty since issue 29's move; it held 103 at the start).
#: It only shrinks: a test fails on a path here that no longer names a game.
NAMES_A_GAME_ALLOWLIST: set[str] = set()


def site_kinds() -> list[kinds.GameKind]:
    """The games the site installs (website/settings.py's HERALD_GAMES), as the registry knows them."""
    return [kind for kind in kinds.all_kinds() if kind.package in site_settings.HERALD_GAMES]


def card_names(kind: kinds.GameKind) -> set[str]:
    """The names of ``kind``'s cards that are words, from ``CARDS`` in the ``cards`` module beside its engine."""
    cards = importlib.import_module(kind.engine_module.rpartition(".")[0] + ".cards")
    return {name for name in cards.CARDS if CARD_WORDS.fullmatch(name)}


def game_patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """The site's games' names (any case, anywhere) and their card names (whole words, in their case)."""
    the_kinds = site_kinds()
    assert the_kinds, "no game installed from website/settings.py"
    names = re.compile("|".join(re.escape(kind.name) for kind in the_kinds), re.IGNORECASE)
    cards = sorted(set().union(*(card_names(kind) for kind in the_kinds)), key=len, reverse=True)
    assert cards, "no card names found"
    words = re.compile(r"(?<![\w.-])(?:" + "|".join(map(re.escape, cards)) + r")(?![\w-])")
    return names, words


def game_dirs() -> list[Path]:
    """The game packages' folders and their engines' folders, relative to the project."""
    dirs = []
    for kind in site_kinds():
        dirs.append(Path(*kind.package.split(".")))
        dirs.append(Path(*kind.engine_module.split(".")).parent)
    return dirs


def the_one_place() -> range:
    """The lines of website/settings.py's ``HERALD_GAMES = [...]``: the only platform lines that may name a game."""
    tree = ast.parse((ROOT / "website" / "settings.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "HERALD_GAMES" for t in node.targets):
            return range(node.lineno, (node.end_lineno or node.lineno) + 1)
    raise AssertionError("website/settings.py has no HERALD_GAMES")


def naming_a_game(path: Path, names: re.Pattern[str], words: re.Pattern[str], allowed: range) -> list[str]:
    """Where ``path`` (relative to the project) names a game: "path", or "line N: word"."""
    found = ["path"] if names.search(str(path)) else []
    for number, line in enumerate((ROOT / path).read_text(encoding="utf-8").splitlines(), 1):
        match = names.search(line) or words.search(line)
        if match and not (path == Path("website", "settings.py") and number in allowed):
            found.append(f"line {number}: {match.group(0)}")
    return found


def platform_files() -> list[Path]:
    """The platform's modules, templates and static files (relative paths), game packages left out."""
    skip = game_dirs()
    return sorted(
        path.relative_to(ROOT)
        for top in SCAN_DIRS
        for path in (ROOT / top).rglob("*")
        if path.is_file()
        and path.suffix in SCAN_SUFFIXES
        and not SCAN_SKIP_PARTS.intersection(path.relative_to(ROOT).parts)
        and not any(path.relative_to(ROOT).is_relative_to(d) for d in skip)
    )


def offenders() -> dict[str, list[str]]:
    """Platform file -> where it names a game, for every file that does."""
    names, words = game_patterns()
    allowed = the_one_place()
    found = {}
    for path in platform_files():
        if where := naming_a_game(path, names, words, allowed):
            found[path.as_posix()] = where
    return found


def test_the_patterns_find_games_and_cards_not_english():
    names, words = game_patterns()
    assert names.search("templates/games/DOMINION/board.html") and names.search("eventtext_domaine")
    assert words.search('"Throne Room"') and words.search("a Village, then a Moat")
    assert not words.search("register = template.Library()")
    assert not words.search("mine, gold and the market") and not words.search("moat_prompt")


def test_outside_the_game_packages_nothing_names_a_game_but_known_debts():
    """Outside the game packages nothing names a game, but the known debts of ``NAMES_A_GAME_ALLOWLIST``.

    Outside the game packages no module or template names a game, apart from the one place that lists the installed
    games (``HERALD_GAMES`` in website/settings.py). What is looked at: the platform's Python modules, templates (the
    top-level templates/ and every app's), static files (js, css, svg, json) and email texts. What is not, and why:
      tests/       may name games (they play them);
      docs/, examples/, README: prose and a client's example for people, not the platform's code;
      locale/      translations of msgids that live in the code (a msgid that names a game is caught there);
      migrations   history: a migration is never edited once it has run, so an old default or choice stays;
      bench/, scripts/: tools run by hand against a named game, not the site.
    The game packages are the kinds' packages and their engines' folders (games/dominion, games/engine/dominion, ...).

    What counts as naming a game:
      * a kind's name ("dominion"), in any case, anywhere in a line or in the file's path (``eventtext_domaine.py``,
        ``templates/games/domaine/``): the names are rare words, so a substring is never an accident;
      * a card's name as a card is written: the whole word(s) in the card's own case ("Village", "Throne Room"), not
        after a dot (so Django's ``template.Library`` is not Dominion's Library) and not inside an identifier or a CSS
        name. Lower case is left out on purpose: "mine", "gold", "market", "library", "village" are English words and
        CSS colours. Card names are read from each installed game's engine (the ``cards`` module beside the engine
        module the registry names: its ``CARDS``), keeping those that are words ("Council Room"); Domaine's cards are
        ids ("A1" ... "D6"), which would match grid cells and hex colours, not a game: its name alone is looked for.
    The tests' own counter game is not looked for: "counter" is an English word (CSS counters, counting), and it is
    a test fixture the site never names.
    """
    new = {path: where[:3] for path, where in offenders().items() if path not in NAMES_A_GAME_ALLOWLIST}
    assert new == {}, "these name a game outside its package: reach it through games.kinds (docs/games.md)"


def test_the_list_of_known_debts_only_shrinks():
    paid = sorted(NAMES_A_GAME_ALLOWLIST - offenders().keys())
    assert paid == [], "these no longer name a game: take them off NAMES_A_GAME_ALLOWLIST"
