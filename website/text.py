"""Free text from users (names, chat, reports, reasons): which characters it may hold.

Players' text reaches other players on pages and in the plain-text part of
emails, where a line break in a display name starts a new line of the
email ("... / Subject: injected ...") and a bidi override (U+202E) turns
what follows around. So the site refuses, at input, and removes, on output
(for rows saved before the rule), these Unicode general categories:

- ``Cc`` controls: C0 (NUL, TAB, CR, LF, ESC ...), DEL and C1 (U+0085 NEL ...);
- ``Cf`` format characters: bidi embeddings, overrides and isolates
  (U+202A-U+202E, U+2066-U+2069), marks (U+200E, U+200F, U+061C), zero
  width space U+200B, soft hyphen, byte order mark, tag characters
  - except U+200C ZERO WIDTH NON-JOINER and U+200D ZERO WIDTH JOINER, which
  emoji sequences (👨‍👩‍👧) and Persian and Indic scripts need and which
  cannot move or break text;
- ``Zl`` and ``Zp``: U+2028 LINE SEPARATOR, U+2029 PARAGRAPH SEPARATOR;
- ``Cs``: lone surrogates (not text; UTF-8 cannot even encode them).

Everything else stays: letters of every script (CJK included), emoji and
their variation selectors (``Mn``), ordinary and ideographic spaces.
Multi-line fields (a report's comment, a moderator's reason) also keep LF
and TAB, with CR LF (what browsers send from a textarea) read as LF.
"""

from __future__ import annotations

import unicodedata

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

#: General categories refused in users' text (see the module docstring).
UNSAFE_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs"})
#: Format characters kept anyway: joiners that emoji and some scripts need.
KEPT = frozenset({"\u200c", "\u200d"})
#: What a multi-line field keeps besides (line feed and tab).
MULTILINE_KEPT = frozenset({"\n", "\t"})


def _unsafe(char: str, *, multiline: bool) -> bool:
    if char in KEPT or (multiline and char in MULTILINE_KEPT):
        return False
    return unicodedata.category(char) in UNSAFE_CATEGORIES


def unsafe_characters(value: str, *, multiline: bool = False) -> list[str]:
    """Return the characters of ``value`` that users' text may not hold, in order, each once.

    ``multiline`` keeps LF and TAB (and reads CR LF as LF).
    """
    if multiline:
        value = value.replace("\r\n", "\n")
    return list(dict.fromkeys(c for c in value if _unsafe(c, multiline=multiline)))


def _describe(chars: list[str]) -> str:
    return ", ".join(f"U+{ord(c):04X}" for c in chars[:3])


def validate_one_line(value: str) -> None:
    """Refuse a name or a chat line holding a line break or an invisible control character.

    Raises:
        ValidationError: code ``control_characters``, naming up to three
            offending code points (they cannot be shown themselves).
    """
    chars = unsafe_characters(value)
    if chars:
        raise ValidationError(
            _("Line breaks and invisible control characters are not allowed here (found %(chars)s)."),
            code="control_characters",
            params={"chars": _describe(chars)},
        )


def validate_multiline(value: str) -> None:
    """Refuse multi-line text holding a control character other than a line break or a tab.

    Raises:
        ValidationError: code ``control_characters``, as ``validate_one_line``.
    """
    chars = unsafe_characters(value, multiline=True)
    if chars:
        raise ValidationError(
            _("Invisible control characters are not allowed here (found %(chars)s)."),
            code="control_characters",
            params={"chars": _describe(chars)},
        )


def one_line(value: object) -> str:
    """Return ``value`` as text fit to show on one line: unsafe characters removed, ends stripped.

    For rows saved before ``validate_one_line`` existed. A line break
    becomes a space (so "a\\nb" does not read "ab"); the rest are dropped.
    """
    text = str(value)
    out = []
    for char in text:
        if not _unsafe(char, multiline=False):
            out.append(char)
        elif char in "\r\n\v\f\x85\u2028\u2029" and out and out[-1] != " ":
            out.append(" ")
    return "".join(out).strip()


def multiline(value: object) -> str:
    """Return ``value`` with the characters ``validate_multiline`` refuses removed (CR LF read as LF)."""
    text = str(value).replace("\r\n", "\n")
    return "".join(c for c in text if not _unsafe(c, multiline=True))
