"""Dominion's log texts (its ``eventtext`` part, ``games.eventtext``): engine events in words.

Card names and texts come from the engine's card data (rules section 14),
in the reader's language: Traditional Chinese uses the Taiwanese edition's
names, Simplified Chinese the same names in simplified characters. The
log's reading of Throne Rooms (:func:`read_plays`) works from the recorded
events alone, so stored and golden games replay unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games.engine.dominion.cards import CARD_TEXT, CARDS
from games.eventtext import card_list as _card_list
from games.eventtext import language_key

__all__ = [
    "CARDS",
    "KINGDOM_SET_NAMES",
    "STANDING_KINDS",
    "card_list",
    "card_name",
    "card_text",
    "describe",
    "kingdom_set_name",
    "merge",
    "read_plays",
]

#: The events a standing answer itself makes (a reveal, a discard, a topdeck, a Library set-aside, a
#: Chancellor's deck): the log marks only these lines, not what the answer let others do next.
STANDING_KINDS = frozenset({"reveal", "discard", "topdeck", "set_aside", "deck_to_discard"})

#: The recommended Dominion kingdoms' names (rules section 11), translated.
KINGDOM_SET_NAMES = {
    "First Game": gettext_lazy("First Game"),
    "Big Money": gettext_lazy("Big Money"),
    "Interaction": gettext_lazy("Interaction"),
    "Size Distortion": gettext_lazy("Size Distortion"),
    "Village Square": gettext_lazy("Village Square"),
}


def kingdom_set_name(name: str) -> str:
    """Return a recommended kingdom's name in the active language ("First Game")."""
    label = KINGDOM_SET_NAMES.get(name)
    return str(label) if label is not None else name


def card_name(name: str, language: str | None = None) -> str:
    """Return a Dominion card's name in ``language`` (default: the active one).

    Traditional Chinese uses the Taiwanese edition's names; Simplified
    Chinese the same names in simplified characters; anything else English.
    """
    card = CARDS.get(name)
    if card is None:
        return name
    key = language_key(language)
    if key == "zh-hant":
        return card.zh_hant
    if key == "zh-hans":
        return card.zh_hans
    return card.name


def card_text(name: str, language: str | None = None) -> str:
    """Return a Dominion card's text in ``language`` (default: the active one)."""
    card = CARDS.get(name)
    if card is None:
        return ""
    return CARD_TEXT.get(language_key(language), {}).get(name, card.text)


def card_list(cards: Sequence[str], label_of: Callable[[str], str] | None = None) -> str:
    """Return "2 × Copper, Silver" style text for a list of card names (each named by ``label_of``, else its name)."""
    return _card_list(cards, label_of or card_name)


def describe(event: dict[str, Any], who: str, card_name: Callable[[str], str] = card_name) -> str:
    """Return one Dominion event (as ``Event.for_viewer`` gave it) as a sentence.

    Args:
        event: ``{"kind": ..., "player": seat or None, ...data}``.
        who: the shown name of the event's seat (or "The game").
        card_name: card name -> what the sentence names it by (its name in the
            reader's language; the page's log marks the id instead, to link it).

    Returns:
        A translated sentence, or "" for events not worth a log line.
    """
    kind = event["kind"]
    cards = event.get("cards")
    card: str = event.get("card", "")  # every event that names one card carries it
    count = event.get("count", 0)
    if kind == "play":
        if event.get("idle"):  # read_plays: a Throne Room with no other Action in hand (rules section 8.17)
            return _("%(who)s plays %(card)s with no other Action card in hand: it does nothing.") % {
                "who": who,
                "card": card_name(card),
            }
        what = card_list(cards, card_name) if cards else card_name(card)
        return _("%(who)s plays %(cards)s.") % {"who": who, "cards": what}
    if kind == "draw":
        if cards is not None:
            return _("%(who)s draws %(cards)s.") % {"who": who, "cards": card_list(cards, card_name)}
        return ngettext("%(who)s draws %(n)d card.", "%(who)s draws %(n)d cards.", count) % {"who": who, "n": count}
    if kind == "buy":
        return _("%(who)s buys %(card)s.") % {"who": who, "card": card_name(card)}
    if kind == "gain":
        if event.get("from") == "trash":
            return _("%(who)s gains %(card)s from the trash.") % {"who": who, "card": card_name(card)}
        if event.get("to") == "hand":
            return _("%(who)s gains %(card)s into hand.") % {"who": who, "card": card_name(card)}
        if event.get("to") == "deck":
            return _("%(who)s gains %(card)s onto their deck.") % {"who": who, "card": card_name(card)}
        return _("%(who)s gains %(card)s.") % {"who": who, "card": card_name(card)}
    if kind == "trash":
        return _("%(who)s trashes %(cards)s.") % {"who": who, "cards": card_list(cards or [], card_name)}
    if kind == "discard":
        return _("%(who)s discards %(cards)s.") % {"who": who, "cards": card_list(cards or [], card_name)}
    if kind == "reveal":
        if event.get("reaction"):
            return _("%(who)s reveals Moat and is unaffected by %(card)s.") % {
                "who": who,
                "card": card_name(event["reaction"]),
            }
        if not cards:
            return _("%(who)s reveals an empty hand.") % {"who": who}
        return _("%(who)s reveals %(cards)s.") % {"who": who, "cards": card_list(cards, card_name)}
    if kind == "topdeck":
        return _("%(who)s puts %(card)s on top of their deck.") % {"who": who, "card": card_name(card)}
    if kind == "set_aside":
        return _("%(who)s sets aside %(cards)s.") % {"who": who, "cards": card_list(cards or [], card_name)}
    if kind == "shuffle":
        return _("%(who)s shuffles.") % {"who": who}
    if kind == "deck_to_discard":
        return ngettext(
            "%(who)s puts their deck (%(n)d card) into the discard pile.",
            "%(who)s puts their deck (%(n)d cards) into the discard pile.",
            count,
        ) % {"who": who, "n": count}
    if kind == "start_turn":
        return _("Turn %(n)d of %(who)s.") % {"who": who, "n": event.get("turn", 0)}
    if kind == "end_turn":
        return ""
    if kind == "game_over":
        return _("The game is over.")
    return f"{who}: {kind}"


#: Plays that put the next card played twice (nested Throne Rooms nest their lines).
_PLAYS_TWICE = {"Throne Room": 2}
#: Events after which nothing is inside a Throne Room any more: the Buy phase and the turn's end.
_TOP_LEVEL = {"buy", "end_turn", "start_turn", "game_over"}


def play_depths(events: Sequence[tuple[int, Any]], *, settled: bool = False) -> list[int]:
    """How deep inside Throne Rooms each Dominion event happened (0: played from the hand), in order.

    ``events`` and ``settled`` as for :func:`read_plays`, which this reads.
    """
    return read_plays(events, settled=settled)[0]


def read_plays(events: Sequence[tuple[int, Any]], *, settled: bool = False) -> tuple[list[int], set[int]]:
    """Read a Dominion log's plays: each event's depth inside Throne Rooms, and which Throne Rooms did nothing.

    Args:
        events: ``(seq, Event)`` pairs, oldest first (the snapshot's, or a
            finished game's every event).
        settled: the position after the last event has the turn's player
            free to move (``engine.pending`` holds their ``turn`` decision):
            no Throne Room's choice is open and no play waits on the stack.

    Returns:
        ``(depths, idle)``: a Throne Room's next play (its chosen card) and
        that card's second play sit one level below it, with everything they
        cause, and a Throne Room chosen by a Throne Room nests again;
        ``idle`` holds the indices of the ``play`` events of Throne Rooms
        that found no other Action card in hand (legal, and they do nothing,
        rules section 8.17), so the log can say why nothing followed.

    Worked out from the public ``play`` events alone, so every viewer reads
    the same, and nothing new is recorded (the engine's events are replayed
    and compared in the golden games). The rule that makes it decidable:
    after an idle Throne Room the hand holds no Action, so every later play
    of that turn is a Throne Room already promised a play (a second play of
    a card some Throne Room above chose, which finds the same hand and is
    idle too), and then the turn leaves its Actions. So a Throne Room is
    idle exactly when the player's plays up to the end of the Action phase
    are those promised plays, all Throne Rooms; one that chose a card is
    followed by at least two plays more. While the Action phase has not
    ended (the last events), only ``settled`` tells an idle Throne Room from
    one whose choice is still open. Where the events in hand begin inside a
    turn, or an undo comes in between, the promised plays are not all
    known: the count is then too small, and a Throne Room is called idle
    only where it surely was (else it is left plain).
    """
    frames: list[list[Any]] = []  # [chosen card or None, plays left, depth of the Throne Room]
    depth = 0
    depths: list[int] = []
    idle: set[int] = set()
    for index, (_seq, event) in enumerate(events):
        kind = event.kind
        card = event.data.get("card") if kind == "play" else None
        if kind in _TOP_LEVEL or kind == "undo" or (kind == "play" and card is None):
            frames.clear()
            depth = 0
        elif card is not None:
            while frames and (frames[-1][1] == 0 or frames[-1][0] not in (None, card)):
                frames.pop()
            if frames:
                frames[-1][0] = card
                frames[-1][1] -= 1
                depth = frames[-1][2] + 1
            else:
                depth = 0
            if card in _PLAYS_TWICE:
                promised = sum(frame[1] for frame in frames)
                if _found_nothing(events, index, promised, settled):
                    idle.add(index)
                else:
                    frames.append([None, _PLAYS_TWICE[card], depth])
        depths.append(depth)
    return depths, idle


def _found_nothing(events: Sequence[tuple[int, Any]], index: int, promised: int, settled: bool) -> bool:
    """Whether the Throne Room played at ``events[index]`` found no Action (see :func:`read_plays`).

    ``promised``: the plays still owed by the Throne Rooms around it, as far
    as the events in hand tell.
    """
    player = events[index][1].player
    plays = 0
    for _seq, event in events[index + 1 :]:
        kind = event.kind
        if kind == "undo":
            return False  # what follows replays from an earlier position: not known
        if kind in ("start_turn", "game_over"):
            return plays == promised
        if event.player != player:
            continue  # others' answers owed out of turn (version 3)
        card = event.data.get("card") if kind == "play" else None
        if card is None:
            # Anything else of the player's (Treasures, a buy, the clean-up's draw): the Actions are over.
            # A chosen card's own effects never come first: its play does.
            return plays == promised
        if card not in _PLAYS_TWICE:
            return False  # an Action other than a promised Throne Room: this one chose it
        plays += 1
        if plays > promised:
            return False
    return settled and plays == promised


def merge(earlier: dict[str, Any], later: dict[str, Any]) -> dict[str, Any] | None:
    """One "draw" for two draws of one player in a row (as a viewer sees them), or None if they differ.

    Library draws card by card: its log said "draws 1 card" once per card.
    Both named (the drawer's own eyes, or a finished game) or both counted.
    """
    if earlier.get("kind") != "draw" or later.get("kind") != "draw" or earlier.get("player") != later.get("player"):
        return None
    if earlier.get("cards") is not None and later.get("cards") is not None:
        return {**earlier, "cards": [*earlier["cards"], *later["cards"]]}
    if earlier.get("cards") is None and later.get("cards") is None:
        return {**earlier, "count": earlier.get("count", 0) + later.get("count", 0)}
    return None
