"""Standing answers: a player's answer, given in advance, to a question that has one usual answer.

A player (on the settings page, or for one game on the game page) tells
the site how to answer some questions; when the question is asked, the
site makes that answer for them at once and logs it as their own move,
marked as a standing answer, so the log replays exactly as if they had
clicked. ``"ask"`` means: ask me as usual. Everything here is pure: the
answer depends only on the question and the state the player may see.

The questions, their settings (the first is the default) and the rule:

``moat`` -- "Reveal Moat?" when attacked.
    ``reveal``: reveal it whenever the hand holds one (revealing costs
    nothing, and Moat only protects); a hand without Moat answers "no".
    ``ask``: always asked, Moat or not (see ``docs/rules-notes.md``: nobody
    can tell from the waiting whether the hand holds one).
``militia`` -- which cards to discard down to 3.
    ``order``: the discard order :func:`discard_order`: Curses, then
    Victory cards (cheapest first), then Treasures and Actions, cheapest
    first; at equal cost an Action before a Treasure (three cards seldom
    play two Actions), then by English name. ``ask``.
``bureaucrat`` -- which Victory card to put on the deck.
    ``cheapest``: the cheapest (equal cost: by English name); with no
    Victory card, reveal the hand. ``ask``.
``library`` -- set aside a drawn Action card?
    ``aside_if_no_action``: set it aside when no Action is left to play it,
    else keep it. ``keep``: always keep. ``ask``.
``chancellor`` -- put the deck into the discard pile?
    ``ask`` (the default: it depends on what is in the deck).
    ``yes``: always. ``no``: never.

Why no others: every other question of the base set is asked during the
player's own turn (Cellar, Chapel, Remodel, Mine, Throne Room, Spy, Thief,
the gains), where it costs no wait, and most have no usual answer. The
three asked outside one's turn (Moat, Militia, Bureaucrat) are all here.
"""

from __future__ import annotations

from typing import Any

from games.engine.core import Decision
from games.engine.dominion.cards import ACTIONS, COST, VICTORIES

#: Question -> its settings, the default first.
CHOICES: dict[str, tuple[str, ...]] = {
    "moat": ("reveal", "ask"),
    "militia": ("order", "ask"),
    "bureaucrat": ("cheapest", "ask"),
    "library": ("aside_if_no_action", "keep", "ask"),
    "chancellor": ("ask", "yes", "no"),
}
DEFAULTS: dict[str, str] = {q: c[0] for q, c in CHOICES.items()}
#: Every setting "ask me": the player answers every question.
ASK_ALL: dict[str, str] = dict.fromkeys(CHOICES, "ask")


def clean(settings: Any) -> dict[str, str]:
    """Return complete, valid settings: known questions with a known setting, defaults elsewhere.

    Accepts anything (stored JSON may be old or hand-edited); never raises.
    """
    out = dict(DEFAULTS)
    if isinstance(settings, dict):
        for q, value in settings.items():
            if q in CHOICES and value in CHOICES[q]:
                out[q] = value
    return out


def discard_order(card: str) -> tuple[int, int, int, str]:
    """Sort key of the ``order`` discard (first = discarded first); see the module docstring."""
    if card == "Curse":
        return (0, 0, 0, card)
    if card in VICTORIES:
        return (1, COST[card], 0, card)
    return (2, COST[card], 0 if card in ACTIONS else 1, card)


def standing_answer(player: int, d: Decision, settings: Any, actions: int = 0) -> dict[str, Any] | None:
    """The move ``settings`` make for ``player``'s open decision ``d``, or None to ask the player.

    Args:
        player: the seat that must answer ``d``.
        d: the open decision (``engine.open_decision``); only what the
            player may see is read (its own hand, through ``d.options``).
        settings: the seat's standing answers (cleaned with :func:`clean`).
        actions: Actions left in the current turn (Library's question).
    Returns:
        A legal move of the notation, or None.
    """
    s = clean(settings)
    if d.player != player:
        return None
    if d.kind == "reveal_moat":
        if s["moat"] != "reveal":
            return None
        return {"act": "yes" if "yes" in d.options else "no"}
    if d.kind == "discard" and d.source == "Militia":
        if s["militia"] != "order":
            return None
        return {"act": "choose", "cards": sorted(d.options, key=discard_order)[: d.min]}
    if d.kind == "topdeck" and d.source == "Bureaucrat":
        if s["bureaucrat"] != "cheapest":
            return None
        cheapest = sorted(d.options, key=lambda c: (COST[c], c))[:1]
        return {"act": "choose", "cards": cheapest}
    if d.kind == "library":
        if s["library"] == "ask":
            return None
        aside = s["library"] == "aside_if_no_action" and actions == 0
        return {"act": "yes" if aside else "no"}
    if d.kind == "chancellor":
        if s["chancellor"] == "ask":
            return None
        return {"act": s["chancellor"]}
    return None
