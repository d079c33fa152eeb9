"""Write the site's corrections of django-allauth's catalogues to ``website/allauth_terms/``.

Usage: ``python scripts/allauth_terms.py`` (after upgrading django-allauth; commit the result).

* Chinese: allauth's zh catalogues write "Email" in Latin letters ("Email地址"),
  where the rest of the site says 电子邮件 (zh_Hans) and 電子郵件 (zh_Hant).
* English: allauth's headings, buttons and email subjects are in Title Case
  ("Please Confirm Your Email Address", "Sign Up"); the site writes sentence
  case ("Sign up"), so an ``en`` catalogue gives each such message in
  sentence case (acronyms such as ID and placeholders kept).

Django reads ``LOCALE_PATHS`` before any app's catalogue, so these entries
win; every other allauth string stays as allauth writes it. Needs polib
(``pip install polib``).
"""

from __future__ import annotations

import re
from pathlib import Path

import allauth
import polib

ROOT = Path(__file__).resolve().parent.parent
ALLAUTH_LOCALE = Path(allauth.__file__).parent / "locale"
TERMS = {"zh_Hans": "电子邮件", "zh_Hant": "電子郵件"}
#: "Email" as allauth writes it in Chinese text (never a placeholder such as %(email)s or {email}).
LATIN = re.compile(r" ?(?<![A-Za-z({])E-?mail(?![A-Za-z]) ?")
#: A word after the first that Title Case capitalised: a capital, then lowercase letters (not "ID", "TOTP").
TITLE_WORD = re.compile(r"(?<=[\s-])([A-Z])(?=[a-z'])")
#: English corrections that are not a matter of case: the sign-up page's title is the link's words.
ENGLISH = {"Signup": "Sign up"}


def sentence_case(text: str) -> str | None:
    """Return ``text`` in sentence case if it is a Title Case heading, button or subject, else None.

    "Please Confirm Your Email Address" -> "Please confirm your email address"; "Sign-In Code" ->
    "Sign-in code"; sentences (ending in "."), paragraphs (a line break or over 60 characters) and texts
    with one capitalised word are left alone.
    """
    if text.endswith(".") or "\n" in text or len(text) > 60 or len(re.findall(r"(?:^|[\s-])[A-Z][a-z]", text)) < 2:
        return None
    fixed = TITLE_WORD.sub(lambda m: m.group(1).lower(), text)
    return fixed if fixed != text else None


def _catalogue(language: str, plural_forms: str) -> polib.POFile:
    out = polib.POFile()
    out.metadata = {"Content-Type": "text/plain; charset=UTF-8", "Language": language, "Plural-Forms": plural_forms}
    return out


def _save(out: polib.POFile, language: str) -> None:
    path = ROOT / "website" / "allauth_terms" / language / "LC_MESSAGES" / "django.po"
    path.parent.mkdir(parents=True, exist_ok=True)
    out.save(str(path))
    print(f"{path.relative_to(ROOT)}: {len(out)} entries")


def chinese(language: str, term: str) -> None:
    """Rewrite ``language``'s override catalogue from the installed allauth's: its "Email" made ``term``."""
    source = polib.pofile(str(ALLAUTH_LOCALE / language / "LC_MESSAGES" / "django.po"))
    out = _catalogue(language, source.metadata.get("Plural-Forms", "nplurals=1; plural=0;"))
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
    _save(out, language)


def english() -> None:
    """Write the ``en`` catalogue: allauth's Title Case messages in sentence case."""
    source = polib.pofile(str(ALLAUTH_LOCALE / "zh_Hans" / "LC_MESSAGES" / "django.po"))  # any: for the msgids
    out = _catalogue("en", "nplurals=2; plural=(n != 1);")
    seen: set[tuple[str | None, str]] = set()
    for entry in source:
        fixed_text = None if entry.msgid_plural else ENGLISH.get(entry.msgid) or sentence_case(entry.msgid)
        if fixed_text is None or (entry.msgctxt, entry.msgid) in seen:
            continue
        seen.add((entry.msgctxt, entry.msgid))
        fixed = polib.POEntry(msgid=entry.msgid, msgctxt=entry.msgctxt, msgstr=fixed_text)
        if "python-format" in entry.flags:
            fixed.flags.append("python-format")
        out.append(fixed)
    _save(out, "en")


def main() -> None:
    """Rewrite every override catalogue from the installed allauth's."""
    for language, term in TERMS.items():
        chinese(language, term)
    english()


if __name__ == "__main__":
    main()
