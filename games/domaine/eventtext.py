"""Domaine's log texts (its ``eventtext`` part, ``games.eventtext``): engine events in words.

``games.eventtext.describe`` calls :func:`describe` for Domaine games; the
events are those of ``games.engine.domaine.engine`` after
``Event.for_viewer`` (so a deck draw seen by another player carries no
card). :func:`action_text` is shared with the board, which labels the
cards in a hand the same way the log does, and :func:`card_name`, the
name a card is shown by everywhere (the notation keeps its id).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games.engine.domaine.cards import CARDS

__all__ = ["CARDS", "action_text", "card_action_text", "card_name", "describe"]

#: Mine kinds as the engine names them -> their label (lazy: read per request language).
MINE_LABELS = {
    "gold": gettext_lazy("gold"),
    "silver": gettext_lazy("silver"),
    "copper": gettext_lazy("copper"),
    "diamond": gettext_lazy("diamond"),
}


def action_text(kind: str, n: int) -> str:
    """Return a card action as a short phrase: "2 knights", "3 borders", "expand 2 squares"."""
    if kind == "borders":
        return ngettext("%(n)d border", "%(n)d borders", n) % {"n": n}
    if kind == "knights":
        return ngettext("%(n)d knight", "%(n)d knights", n) % {"n": n}
    if kind == "expand":
        return ngettext("expand %(n)d square", "expand %(n)d squares", n) % {"n": n}
    if kind == "desertion":
        return _("desertion")
    if kind == "alliance":
        return _("alliance")
    return kind


def card_action_text(card_id: str, option: int = 0) -> str:
    """Return the phrase for option ``option`` of card ``card_id`` ("" for an unknown card)."""
    card = CARDS.get(card_id)
    if card is None or not 0 <= option < len(card.actions):
        return ""
    action = card.actions[option]
    return action_text(action.kind, action.n)


def action_title(kind: str, n: int) -> str:
    """Return a card action as the title part of a card's name: "2 Knights", "Expansion"."""
    if kind == "borders":
        return ngettext("%(n)d Border", "%(n)d Borders", n) % {"n": n}
    if kind == "knights":
        return ngettext("%(n)d Knight", "%(n)d Knights", n) % {"n": n}
    if kind == "expand":
        return _("Expansion")
    if kind == "desertion":
        return _("Desertion")
    if kind == "alliance":
        return _("Alliance")
    return kind


def card_name(card_id: str) -> str:
    """Return the name a player reads for card ``card_id``: what it does, and its letter.

    The data has no printed names, so the name is made from the card's
    actions ("2 Knights", "Expansion or Desertion") and the letter of its
    stack, which tells cards with the same action apart: "2 Knights (B)".
    Two cards with the same action never share a letter. The notation
    keeps the id ("B3"); this is only what a player is shown. An unknown
    id is returned as it is.
    """
    card = CARDS.get(card_id)
    if card is None:
        return str(card_id)
    titles = [action_title(a.kind, a.n) for a in card.actions]
    title = titles[0] if len(titles) == 1 else _("%(first)s or %(second)s") % {"first": titles[0], "second": titles[1]}
    return _("%(title)s (%(letter)s)") % {"title": title, "letter": card.letter}


def _squares(items: Sequence[str]) -> str:
    return _(", ").join(items)


def _play(event: dict[str, Any], who: str, label_of: Callable[[str], str] = card_name) -> str:
    card_id = str(event.get("card", "?"))
    what = card_action_text(card_id, int(event.get("option", 0) or 0)) or str(event.get("action", ""))
    params = {"who": who, "card": label_of(card_id), "what": what}
    # A card with one action says what it does in its name; for a choice, say which was used.
    choice = len(getattr(CARDS.get(card_id), "actions", ())) > 1
    kind = event.get("action")
    parts = ""
    if kind == "borders":
        parts = _squares(event.get("borders") or [])
    elif kind == "knights":
        parts = _squares(event.get("knights") or [])
    elif kind == "expand" and event.get("domain"):
        parts = _("%(domain)s takes %(squares)s") % {
            "domain": event["domain"],
            "squares": _squares(event.get("squares") or []) or _("nothing"),
        }
    elif kind == "desertion" and event.get("remove"):
        parts = _("the knight on %(remove)s deserts to %(knight)s") % {
            "remove": event["remove"],
            "knight": event.get("knight", "?"),
        }
    elif kind == "alliance" and event.get("domain"):
        parts = _("%(domain)s allies with %(with)s") % {"domain": event["domain"], "with": event.get("with", "?")}
    if parts and choice:
        text = _("%(who)s played %(card)s as %(what)s: %(parts)s") % {**params, "parts": parts}
    elif parts:
        text = _("%(who)s played %(card)s: %(parts)s") % {**params, "parts": parts}
    elif choice:
        text = _("%(who)s played %(card)s as %(what)s without effect") % params
    else:
        text = _("%(who)s played %(card)s without effect") % params
    if event.get("extra"):
        text = _with_note(
            text,
            ngettext("(+%(n)d gold for forests)", "(+%(n)d gold for forests)", event["extra"]) % {"n": event["extra"]},
        )
    return _sentence(text)


def _sentence(text: str) -> str:
    """End a log sentence built from parts, with the language's full stop (Chinese: 。)."""
    # Translators: the end of a log sentence; %(sentence)s is the sentence without its full stop.
    return _("%(sentence)s.") % {"sentence": text}


def _with_note(text: str, note: str) -> str:
    """Append a parenthesised note to a sentence, spaced as the language spaces it (Chinese: none)."""
    # Translators: a log sentence followed by a note in brackets, "(2 gold)".
    return _("%(text)s %(note)s") % {"text": text, "note": note}


def describe(event: dict[str, Any], who: str, label_of: Callable[[str], str] = card_name) -> str:
    """Return one Domaine event (as ``Event.for_viewer`` gave it) as a sentence.

    Args:
        event: ``{"kind": ..., "player": seat or None, ...data}``.
        who: the shown name of the event's seat (or "The game").
        label_of: card id -> what the sentence names it by (its name; the
            page's log marks the id instead, to link it).

    Returns:
        A translated sentence, or "" for events not worth a log line
        (score updates: the board shows scores).
    """
    kind = event.get("kind")
    if kind == "place_castle":
        text = _("%(who)s placed a castle on %(at)s and a knight on %(knight)s") % {
            "who": who,
            "at": event.get("at", "?"),
            "knight": event.get("knight", "?"),
        }
        if event.get("paid"):
            text = _with_note(text, ngettext("(%(n)d gold)", "(%(n)d gold)", event["paid"]) % {"n": event["paid"]})
        return _sentence(text)
    if kind == "place_neutral":
        return _("%(who)s placed a neutral castle on %(at)s.") % {"who": who, "at": event.get("at", "?")}
    if kind == "turn":
        return _("Turn %(n)d: %(who)s.") % {"who": who, "n": event.get("turn", 0)}
    if kind == "income":
        mines = _(", ").join(str(MINE_LABELS.get(m, m)) for m in event.get("mines") or [])
        gold = event.get("gold", 0)
        return ngettext(
            "%(who)s receives %(n)d gold (mines: %(mines)s).",
            "%(who)s receives %(n)d gold (mines: %(mines)s).",
            gold,
        ) % {"who": who, "n": gold, "mines": mines}
    if kind == "sell":
        gold = event.get("gold", 0)
        return ngettext("%(who)s sold %(card)s for %(n)d gold.", "%(who)s sold %(card)s for %(n)d gold.", gold) % {
            "who": who,
            "card": label_of(str(event.get("card", "?"))),
            "n": gold,
        }
    if kind == "play":
        return _play(event, who, label_of)
    if kind == "take":
        if event.get("from") == "deck":
            if event.get("card"):
                return _("%(who)s drew %(card)s from the deck.") % {"who": who, "card": label_of(str(event["card"]))}
            return _("%(who)s drew a card from the deck.") % {"who": who}
        return _("%(who)s took %(card)s from the display.") % {
            "who": who,
            "card": label_of(str(event.get("card", "?"))),
        }
    if kind == "scores":
        return ""
    if kind == "game_over":
        if event.get("end") == "cards":
            return _("The cards have run out: the game is over.")
        return _("A target score was reached: the game is over.")
    return f"{who}: {kind}"
