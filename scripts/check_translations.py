"""Fail when a translation catalogue (locale/ or an app's own APP/locale/) is incomplete.

Usage: ``python scripts/check_translations.py [--makemessages]``

With ``--makemessages`` it first runs Django's ``makemessages`` for every
catalogue (the same command the lead runs by hand), so a string added to a
template or to Python without its translation fails here. Then it reads
every catalogue (``locale/*/LC_MESSAGES/*.po`` and ``APP/locale/...``) and reports each entry that is
untranslated (an empty ``msgstr``, or an empty plural form) or fuzzy
(``#, fuzzy``: a guess by msgmerge that nobody checked). Obsolete entries
(``#~``) are ignored: no code uses them. Exit status 1 when anything is
reported, 0 otherwise.

Pure Python, so it also runs where GNU gettext is missing (``makemessages``
itself needs xgettext).
"""

from __future__ import annotations

import argparse
import ast
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "locale"
#: What makemessages must not scan: the virtualenv, tests, collected static
#: files and benchmarks (their strings are never shown to players).
IGNORE = [".venv", "tests", "staticfiles", "bench", "var", "scripts"]


@dataclass
class Entry:
    """One catalogue entry: msgid (with plural), its msgstr forms, flags and where it is used."""

    msgid: str = ""
    msgid_plural: str | None = None
    msgstr: dict[int, str] = field(default_factory=dict)
    flags: set[str] = field(default_factory=set)
    references: list[str] = field(default_factory=list)
    line: int = 0


def _unquote(text: str) -> str:
    return ast.literal_eval(text)


def parse_po(path: Path) -> list[Entry]:
    """Return the live (non-obsolete) entries of the ``.po`` file at ``path``, header included."""
    entries: list[Entry] = []
    current: Entry | None = None
    target: tuple[str, int] | None = None

    def flush() -> None:
        nonlocal current
        if current is not None:
            entries.append(current)
        current = None

    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#~"):
            if not line:
                flush()
                target = None
            continue
        if current is None:
            current = Entry(line=number)
        if line.startswith("#,"):
            current.flags.update(f.strip() for f in line[2:].split(","))
        elif line.startswith("#:"):
            current.references.extend(line[2:].split())
        elif line.startswith("#"):
            continue
        elif line.startswith("msgid_plural "):
            current.msgid_plural = _unquote(line[len("msgid_plural ") :])
            target = ("msgid_plural", 0)
        elif line.startswith("msgid "):
            current.msgid = _unquote(line[len("msgid ") :])
            target = ("msgid", 0)
        elif line.startswith("msgstr["):
            index = int(line[len("msgstr[") : line.index("]")])
            current.msgstr[index] = _unquote(line[line.index("]") + 1 :].strip())
            target = ("msgstr", index)
        elif line.startswith("msgstr "):
            current.msgstr[0] = _unquote(line[len("msgstr ") :])
            target = ("msgstr", 0)
        elif line.startswith('"') and target is not None:
            kind, index = target
            text = _unquote(line)
            if kind == "msgid":
                current.msgid += text
            elif kind == "msgid_plural":
                current.msgid_plural = (current.msgid_plural or "") + text
            else:
                current.msgstr[index] = current.msgstr.get(index, "") + text
    flush()
    return entries


def problems(path: Path) -> list[str]:
    """Return one line per missing, empty or fuzzy entry of the catalogue at ``path``."""
    found = []
    for entry in parse_po(path):
        if entry.msgid == "":  # the header
            if "fuzzy" in entry.flags:
                found.append(f"{path}:{entry.line}: the header is marked fuzzy")
            continue
        where = entry.references[0] if entry.references else "?"
        what = entry.msgid if len(entry.msgid) <= 60 else entry.msgid[:57] + "..."
        if "fuzzy" in entry.flags:
            found.append(f"{path}:{entry.line}: fuzzy: {what!r} ({where})")
        elif not entry.msgstr or any(not s for s in entry.msgstr.values()):
            found.append(f"{path}:{entry.line}: untranslated: {what!r} ({where})")
    return found


def catalogues() -> list[Path]:
    """Return every ``.po`` file: the project's under locale/ and each app's own ``APP/locale/``.

    An app that keeps its catalogue beside its code (makemessages writes a
    file's strings to the nearest ``locale/`` above it) is checked like the
    project's, so a new app's strings cannot slip through untranslated.
    """
    skip = set(IGNORE)
    return sorted(
        path
        for path in ROOT.glob("**/locale/*/LC_MESSAGES/*.po")
        if not skip.intersection(path.relative_to(ROOT).parts[:-4])
    )


def makemessages() -> None:
    """Run ``manage.py makemessages`` for every language that has a catalogue."""
    languages = sorted({p.parts[-3] for p in catalogues()})
    command = [sys.executable, str(ROOT / "manage.py"), "makemessages", "-v0"]
    for language in languages:
        command += ["-l", language]
    for pattern in IGNORE:
        command += [f"--ignore={pattern}"]
    subprocess.run(command, check=True, cwd=ROOT)


def main(argv: list[str] | None = None) -> int:
    """Check the catalogues; print what is missing; return the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--makemessages", action="store_true", help="update the catalogues from the code first")
    args = parser.parse_args(argv)
    paths = catalogues()
    if not paths:
        print("No catalogues under locale/.", file=sys.stderr)
        return 1
    if args.makemessages:
        makemessages()
    found = [line for path in paths for line in problems(path)]
    for line in found:
        print(line)
    if found:
        print(f"{len(found)} entries need a translation (edit the .po files above, then run this again).")
        return 1
    print(f"Translations complete: {', '.join(str(p.relative_to(ROOT)) for p in paths)}.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
