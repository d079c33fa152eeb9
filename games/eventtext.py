"""Engine events in words, in the reader's language: the platform's side of the log.

Engines emit language-free events (``core.Event``); a page filters each one
for its viewer with ``Event.for_viewer`` and renders it here, so two players
reading different languages see the same game each in their own. The
sentences are each game's: its **eventtext part**, ``<package>/eventtext.py``
(docs/games.md), reached through the registry (``games.kinds``). It defines:

``describe(event, who, card_name=card_name) -> str``
    One event (as ``Event.for_viewer`` gave it: ``{"kind", "player", ...}``)
    as a translated sentence, "" for an event not worth a line. ``who`` is
    the seat's shown name; ``card_name`` names a card id (the page's log
    passes :func:`marked`, so it can link each card).
``card_name(card_id) -> str``
    The name a reader is shown for a card, in the active language.
``CARDS``
    The game's card ids (a mapping or set): a marked id that is one links to
    the game's card reference (``guide:cards``); anything else stays text.

and may define ``read_plays(events, *, settled) -> (depths, idle)`` (how
deep inside other plays each event happened, drawn indented, and the
indices of plays that did nothing, whose line then carries ``"idle": True``)
``merge(earlier, later) -> event | None`` (two lines of one move read as
one) and ``STANDING_KINDS`` (the events a standing answer itself makes, whose
lines the log marks as such). A game without the part gets plain "name: kind (data)" lines, and an
undo entry reads the same in every game.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from games import kinds

#: Around a card's id in a log sentence built for the page (private-use characters, which no card
#: name holds): ``games_tags`` turns each marked id into a link to the card's reference entry.
CARD_MARK = ("\ue000", "\ue001")
CARD_MARK_RE = re.compile("\ue000([^\ue000\ue001]{1,40})\ue001")


def marked(card_id: str) -> str:
    """Return ``card_id`` between the two ``CARD_MARK`` characters (see ``describe``'s ``mark_cards``)."""
    return f"{CARD_MARK[0]}{card_id}{CARD_MARK[1]}"


def card_anchor(kind: str, card_id: str) -> str:
    """Return the fragment id of a card's entry in its game's card reference ("card-throne-room", "card-b3")."""
    return "card-" + re.sub(r"[^a-z0-9]+", "-", str(card_id).lower()).strip("-")


def language_key(language: str | None) -> str:
    """Return the catalogue a language's card names come from: "zh-hant", "zh-hans" or "en"."""
    lang = (language or get_language() or "en").lower()
    if lang.startswith("zh-hant") or lang in ("zh-tw", "zh-hk"):
        return "zh-hant"
    if lang.startswith("zh-hans") or lang in ("zh-cn", "zh-sg", "zh"):
        return "zh-hans"
    return "en"


def card_list(cards: Sequence[str], label_of: Callable[[str], str]) -> str:
    """Return "2 × A, B" style text for a list of card ids (a card held twice counted), each named by ``label_of``."""
    counts = Counter(cards)
    parts = []
    for name, k in counts.items():
        label = label_of(name)
        parts.append(f"{k} × {label}" if k > 1 else label)
    return _(", ").join(parts)


def text_part(game_kind: str) -> Any:
    """Return the eventtext part of the game called ``game_kind`` (see above), or None."""
    found = kinds.find(game_kind)
    return found.part("eventtext") if found is not None else None


def describe(game_kind: str, event: dict[str, Any], names: Sequence[str], *, mark_cards: bool = False) -> str:
    """Return one event (as ``Event.for_viewer`` gave it) as a sentence.

    Args:
        game_kind: the game's kind, whose eventtext part words the event.
        event: ``{"kind": ..., "player": seat or None, ...data}``.
        names: the shown name of each seat, by seat index.
        mark_cards: put each card's id between the ``CARD_MARK`` characters
            instead of its name, for the page's log, which links it.

    Returns:
        A translated sentence, or "" for events not worth a log line.
    """
    player = event.get("player")
    who = names[player] if isinstance(player, int) and 0 <= player < len(names) else _("The game")
    if event.get("kind") == "undo":  # games.engine.undo: the same in every game
        return _undo(event, who, names)
    part = text_part(game_kind)
    if part is not None:
        return str(part.describe(event, who, marked) if mark_cards else part.describe(event, who))
    detail = ", ".join(f"{k}={v}" for k, v in event.items() if k not in ("kind", "player"))
    return f"{who}: {event['kind']}" + (f" ({detail})" if detail else "")


def card_label(game_kind: str, card_id: str) -> str | None:
    """Return the name a reader is shown for card ``card_id`` of a ``game_kind`` game, or None if it is no card."""
    part = text_part(game_kind)
    if part is None or card_id not in getattr(part, "CARDS", ()):
        return None
    return str(part.card_name(card_id))


def read_plays(
    game_kind: str, events: Sequence[tuple[int, Any]], *, settled: bool = False
) -> tuple[list[int], set[int]]:
    """Return each event's depth inside other plays and the plays that did nothing (the part's ``read_plays``).

    ``events``: ``(seq, Event)`` pairs, oldest first; ``settled``: the turn's
    player is free to move after them (``games.viewing.turn_free``). A game
    whose part reads no plays: every event at depth 0, none idle.
    """
    reader = getattr(text_part(game_kind), "read_plays", None)
    if reader is None:
        return [0] * len(events), set()
    depths, idle = reader(events, settled=settled)
    return list(depths), set(idle)


def standing_kinds(game_kind: str) -> frozenset[str]:
    """Return the kinds of event a standing answer itself makes in a ``game_kind`` game (the part's ``STANDING_KINDS``).

    Only these lines are marked "standing answer", not what the answer let others do next; none for a
    game without standing answers.
    """
    return frozenset(getattr(text_part(game_kind), "STANDING_KINDS", ()))


def merged(game_kind: str, earlier: dict[str, Any], later: dict[str, Any]) -> dict[str, Any] | None:
    """Return one event for two lines of one move that read as one (the part's ``merge``), or None."""
    merge = getattr(text_part(game_kind), "merge", None)
    return merge(earlier, later) if merge is not None else None


def _undo(event: dict[str, Any], who: str, names: Sequence[str]) -> str:
    """An undo entry's line: how many moves were taken back, and who agreed to it."""
    count = event.get("count", 0)
    text = ngettext(
        "%(name)s takes back their last move.", "%(name)s takes back their last %(count)d moves.", count
    ) % {"name": who, "count": count}
    agreed = [names[s] for s in event.get("agreed", []) if isinstance(s, int) and 0 <= s < len(names)]
    if agreed:
        text += " " + _("%(names)s agreed.") % {"names": ", ".join(agreed)}
    return text
