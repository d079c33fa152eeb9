"""The shape of the code stays as docs/architecture.md draws it.

* The import contracts in ``pyproject.toml`` (``[tool.importlinter]``) hold:
  the engines import nothing of Django or the site, ``games`` imports none
  of the apps that listen to it, no two siblings import each other.
* No import cycle at all among the project's modules (grimp's graph, which
  counts imports inside functions too, so a cycle cannot hide in one).
* Fewer than 10 function-local imports of project modules, each commented.
* No module outside the engines longer than 500 lines.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import grimp

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
