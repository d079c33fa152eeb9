"""Write the site's corrections of django-allauth's Chinese catalogues to ``website/allauth_terms/``.

Usage: ``python scripts/allauth_terms.py`` (after upgrading django-allauth; commit the result).

allauth's zh catalogues write "Email" in Latin letters ("Email地址"), where the
rest of the site says 电子邮件 (zh_Hans) and 電子郵件 (zh_Hant). Django reads
``LOCALE_PATHS`` before any app's catalogue, so these entries win; every other
allauth string stays as allauth translates it. Needs polib (``pip install polib``).
"""

from __future__ import annotations

import re
from pathlib import Path

import allauth
import polib

ROOT = Path(__file__).resolve().parent.parent
TERMS = {"zh_Hans": "电子邮件", "zh_Hant": "電子郵件"}
#: "Email" as allauth writes it in Chinese text (never a placeholder such as %(email)s or {email}).
LATIN = re.compile(r" ?(?<![A-Za-z({])E-?mail(?![A-Za-z]) ?")


def main() -> None:
    """Rewrite both override catalogues from the installed allauth's."""
    for language, term in TERMS.items():
        source = polib.pofile(str(Path(allauth.__file__).parent / "locale" / language / "LC_MESSAGES" / "django.po"))
        out = polib.POFile()
        out.metadata = {
            "Content-Type": "text/plain; charset=UTF-8",
            "Language": language,
            "Plural-Forms": source.metadata.get("Plural-Forms", "nplurals=1; plural=0;"),
        }
        for entry in source.translated_entries():
            forms = [entry.msgstr] if not entry.msgid_plural else list(entry.msgstr_plural.values())
            if not any(LATIN.search(f) for f in forms):
                continue
            fixed = polib.POEntry(msgid=entry.msgid, msgctxt=entry.msgctxt, msgid_plural=entry.msgid_plural)
            if entry.msgid_plural:
                fixed.msgstr_plural = {k: LATIN.sub(term, v) for k, v in entry.msgstr_plural.items()}
            else:
                fixed.msgstr = LATIN.sub(term, entry.msgstr)
            if "python-format" in entry.flags:
                fixed.flags.append("python-format")
            out.append(fixed)
        path = ROOT / "website" / "allauth_terms" / language / "LC_MESSAGES" / "django.po"
        path.parent.mkdir(parents=True, exist_ok=True)
        out.save(str(path))
        print(f"{path.relative_to(ROOT)}: {len(out)} entries")


if __name__ == "__main__":
    main()
