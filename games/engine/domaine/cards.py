"""The 60 action cards, read from ``data/cards.json`` (a reconstruction; see
the provenance note in that file)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

#: Action kinds a card may carry.
BORDERS, KNIGHTS, EXPAND, DESERTION, ALLIANCE = "borders", "knights", "expand", "desertion", "alliance"
ACTION_KINDS = (BORDERS, KNIGHTS, EXPAND, DESERTION, ALLIANCE)

#: The move keys each action kind uses (besides act, card, option).
ACTION_KEYS: dict[str, tuple[str, ...]] = {
    BORDERS: ("borders",),
    KNIGHTS: ("knights",),
    EXPAND: ("domain", "squares"),
    DESERTION: ("remove", "knight"),
    ALLIANCE: ("domain", "with"),
}


@dataclass(frozen=True, slots=True)
class Action:
    """One action printed on a card: its kind and its number (borders,
    knights, or squares for expand; 1 for desertion and alliance)."""

    kind: str
    n: int


@dataclass(frozen=True, slots=True)
class Card:
    """A card type: id ("B3"), letter, copies in the game, cost to play, sale
    price, and its actions (two when the player picks one)."""

    id: str
    letter: str
    copies: int
    cost: int
    sale: int
    actions: tuple[Action, ...]


def _load() -> dict[str, Card]:
    data = json.loads(Path(__file__).with_name("data").joinpath("cards.json").read_text(encoding="utf-8"))
    out = {}
    for c in data["cards"]:
        acts = tuple(Action(a["kind"], int(a["n"])) for a in c["actions"])
        assert all(a.kind in ACTION_KINDS for a in acts), c
        out[c["id"]] = Card(c["id"], c["letter"], int(c["copies"]), int(c["cost"]), int(c["sale"]), acts)
    return out


#: Card id -> Card.
CARDS: dict[str, Card] = _load()
LETTERS = ("A", "B", "C", "D")


def full_deck_by_letter() -> dict[str, list[str]]:
    """Return every copy of every card, grouped by letter (unshuffled)."""
    out: dict[str, list[str]] = {letter: [] for letter in LETTERS}
    for card in CARDS.values():
        out[card.letter].extend([card.id] * card.copies)
    return out
