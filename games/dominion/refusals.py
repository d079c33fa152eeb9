"""Dominion's refusals in the reader's language (its ``refusals`` part, ``games.i18n.refusal_text``).

Each entry: (code, the engine's English sentence as a pattern with named
groups, the message). Messages are marked with ``gettext_noop`` so
makemessages finds them; a group named "card" is a card name, shown in the
reader's language.
"""

from __future__ import annotations

from django.utils.translation import gettext_noop

from games.dominion.eventtext import CARDS, card_name

__all__ = ["CARDS", "REFUSALS", "card_name"]

REFUSALS: list[tuple[str, str, str]] = [
    # Dominion
    ("malformed", r"Say which card to play\.", gettext_noop("Say which card to play.")),
    ("malformed", r"Say which card to buy\.", gettext_noop("Say which card to buy.")),
    ("malformed", r"Say which card to gain\.", gettext_noop("Say which card to gain.")),
    ("malformed", r"Unknown move .*|'cards' must be a list of card names\.", gettext_noop("That move cannot be read.")),
    ("answered", r"You have answered already; .*", gettext_noop("You have answered already; waiting for the others.")),
    ("waiting", r".*", gettext_noop("Your turn goes on once the other players have answered.")),
    (
        "curse_waits",
        r".*",
        gettext_noop("Whether a Curse is left depends on answers still owed: buy one once they are in."),
    ),
    ("not_in_hand", r"You have no (?P<card>.+) in (?:your )?hand\.", gettext_noop("You have no %(card)s in hand.")),
    (
        "wrong_phase",
        r"Action cards can only be played in the Action phase\.",
        gettext_noop("Action cards can only be played in the Action phase."),
    ),
    ("wrong_phase", r"You are already in the Buy phase\.", gettext_noop("You are already in the Buy phase.")),
    (
        "no_actions",
        r"You have no Action left to play (?P<card>.+)\.",
        gettext_noop("You have no Action left to play %(card)s."),
    ),
    ("bought", r".*", gettext_noop("No more Treasures may be played once a card is bought.")),
    ("not_playable", r"(?P<card>.+) cannot be played\.", gettext_noop("%(card)s cannot be played.")),
    ("not_in_supply", r".*", gettext_noop("That card is not a pile in the Supply.")),
    ("no_buys", r".*", gettext_noop("You have no Buy left.")),
    ("empty_pile", r"The (?P<card>.+) pile is empty\.", gettext_noop("The %(card)s pile is empty.")),
    (
        "too_expensive",
        r"(?P<card>.+) costs \$(?P<cost>\d+); you have \$(?P<coins>\d+)\.",
        gettext_noop("%(card)s costs $%(cost)s; you have $%(coins)s."),
    ),
    ("no_decision", r".*", gettext_noop("Nothing is being asked: play a card, buy, or end your turn.")),
    ("wrong_answer", r".*", gettext_noop("That is not an answer to the question asked.")),
    ("not_gainable", r".*", gettext_noop("You cannot gain that card here.")),
    ("wrong_count", r".*", gettext_noop("Choose the number of cards asked for.")),
    ("not_an_option", r"You have no Moat to reveal\.", gettext_noop("You have no Moat to reveal.")),
    ("not_an_option", r".*", gettext_noop("That card is not among the cards you can choose.")),
]
