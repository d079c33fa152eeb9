"""Site-layer translations of what the engines and models say in English.

The engines are pure Python and speak English (``IllegalMove.reason``);
game kinds are stored as engine names. This module turns both into the
reader's language without importing Django into the engines:

- :func:`game_name` and :func:`game_title` name a game by its kind's label
  (``games.kinds``: "皇輿爭霸 #12");
- :func:`refusal_text` translates an engine refusal by its ``code``, using
  the exact sentence when it is one we know (with its squares, cards and
  numbers) and a plainer sentence for the code otherwise. The sentences of
  the shared engine core are here; each game's own are its **refusals
  part**, ``<package>/refusals.py`` (docs/games.md), which defines
  ``REFUSALS`` (``(code, English pattern with named groups, message marked
  with gettext_noop)`` entries, tried in order), ``CARDS`` and
  ``card_name(card_id)`` (a group named "card" is shown by its name), and
  may set ``NAMES_CARDS_IN_ENGLISH`` (English readers then get the message
  too when it names one of the game's cards, whose id alone says little).
"""

from __future__ import annotations

import re
from typing import Any

from django.utils.translation import get_language, gettext_lazy, gettext_noop
from django.utils.translation import gettext as _

from games import kinds
from games.botbudget import level_number


def game_name(kind: str) -> str:
    """Return the name of the game of kind ``kind`` in the active language (its ``GameKind.label``)."""
    found = kinds.find(kind)
    return str(found.label) if found is not None else kind.capitalize()


def game_title(game: Any) -> str:
    """Return a game's title in the active language: its name and number ("<name> #12")."""
    return _("%(game)s #%(id)s") % {"game": game_name(game.kind), "id": game.pk}


#: Bot name (as engines register it) -> what players read.
BOT_NAMES = {
    "smart": gettext_lazy("smart bot"),
    "big_money": gettext_lazy("Big Money bot"),
    "greedy": gettext_lazy("greedy bot"),
    "random": gettext_lazy("random bot"),
}


def bot_name(name: str) -> str:
    """Return a bot's name in the active language: a level's ("Level 3 (Club player)"), else "smart bot"."""
    if level_number(name) is not None:
        return kinds.level_label(name)
    label = BOT_NAMES.get(name)
    return str(label) if label is not None else name


def name_list(names: Any) -> str:
    """Join names with the active language's list separator ("Ann, Bo" / "Ann、Bo")."""
    return _(", ").join(str(n) for n in names)


# Refusals of the shared engine core (games.engine.core), whatever the game. Each entry: (code,
# English pattern with named groups, message). The messages are marked with gettext_noop so
# makemessages finds them, and translated when shown.
_REFUSALS: list[tuple[str, str, str]] = [
    ("malformed", r"A move is an object with an 'act'\.", gettext_noop("That move cannot be read.")),
    ("game_over", r"The game is over\.", gettext_noop("The game is over.")),
    ("not_your_decision", r".*", gettext_noop("It is not your decision: waiting for another player.")),
    ("not_your_turn", r".*", gettext_noop("It is not your turn.")),
]
_CJK = re.compile(r"[\u4e00-\u9fff]")


#: Entry of the refusals in force: (code, compiled pattern, message, the game's refusals part or None).
_Refusal = tuple[str, "re.Pattern[str]", str, Any]
_compiled: list[_Refusal] | None = None


def all_refusals() -> list[tuple[str, str, str]]:
    """Return every refusal entry in force: the engine core's, then each installed game's, in the games' order."""
    out = list(_REFUSALS)
    for _kind, part in kinds.parts("refusals"):
        out.extend(part.REFUSALS)
    return out


def _refusals() -> list[_Refusal]:
    """The entries of :func:`all_refusals`, compiled once (the installed games do not change while serving)."""
    global _compiled
    if _compiled is None:
        entries: list[_Refusal] = [(code, re.compile(p), m, None) for code, p, m in _REFUSALS]
        for _kind, part in kinds.parts("refusals"):
            entries += [(code, re.compile(p), m, part) for code, p, m in part.REFUSALS]
        _compiled = entries
    return _compiled


def refusal_text(reason: str, code: str) -> str:
    """Return an engine refusal (``IllegalMove.reason`` and ``.code``) in the active language.

    English readers get the engine's own sentence, which is the most
    precise (unless it names a card of a game that says its ids need their
    name: ``NAMES_CARDS_IN_ENGLISH``). Others get the translation of the
    first known sentence of that code that matches (its squares, cards and
    numbers carried over), else a general sentence for the code, else a
    general refusal. A reason the site already translated (the services
    raise some) is kept.
    """

    english = (get_language() or "en").split("-")[0] == "en"
    if _CJK.search(reason):
        return reason
    for entry_code, pattern, message, part in _refusals():
        if entry_code != code:
            continue
        match = pattern.fullmatch(reason)
        if match is None:
            continue
        params = match.groupdict()
        card = params.get("card")
        named = part is not None and getattr(part, "NAMES_CARDS_IN_ENGLISH", False) and card in part.CARDS
        if english and not named:
            return reason
        if not params:
            return _(message)
        if card is not None and part is not None:
            params["card"] = part.card_name(card)
        return _(message) % params
    if english:
        return reason
    return _("The rules do not allow this move.")
