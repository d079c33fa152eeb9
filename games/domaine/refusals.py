"""Domaine's refusals in the reader's language (its ``refusals`` part, ``games.i18n.refusal_text``).

Each entry: (code, the engine's English sentence as a pattern with named
groups, the message). Messages are marked with ``gettext_noop`` so
makemessages finds them; a group named "card" is a card id, shown by its name.
"""

from __future__ import annotations

from django.utils.translation import gettext_noop

from games.domaine.eventtext import CARDS, card_name

__all__ = ["CARDS", "NAMES_CARDS_IN_ENGLISH", "REFUSALS", "card_name"]

#: A card id ("B3") reads like a square: English readers get the sentence again with the card's name.
NAMES_CARDS_IN_ENGLISH = True

_SQ = r"[A-L](?:[1-9]|1[0-2])"
_EDGE = rf"{_SQ}-{_SQ}"

REFUSALS: list[tuple[str, str, str]] = [
    ("bad_square", r".*", gettext_noop("That is not a square of the board (A1 to L12).")),
    ("bad_edge", r".*", gettext_noop("That is not an edge: name two adjacent squares, as C7-C8.")),
    ("deck_empty", r".*", gettext_noop("The deck is empty: no card may be taken, from the deck or the display.")),
    ("bad_card", r".*", gettext_noop("That is not a card.")),
    ("bad_option", r".*", gettext_noop("That card has no such action.")),
    ("too_many", r".*", gettext_noop("This card does not give that many.")),
    (
        "no_gold",
        r"(?P<card>\S+) costs (?P<cost>\d+) gold; you have (?P<gold>\d+)\.",
        gettext_noop("%(card)s costs %(cost)s gold; you have %(gold)s."),
    ),
    (
        "no_gold",
        r"This play costs (?P<total>\d+) gold .*; you have (?P<gold>\d+)\.",
        gettext_noop("This play costs %(total)s gold, knights on forests included; you have %(gold)s."),
    ),
    (
        "no_gold",
        rf"A knight on the forest (?P<square>{_SQ}) costs 1 (?:more )?gold, which you do not have\.",
        gettext_noop("A knight on the forest %(square)s costs 1 more gold, which you do not have."),
    ),
    (
        "not_your_domain",
        rf"(?P<square>{_SQ}) is not (?:the castle of )?(?:in )?one of your domains\.",
        gettext_noop("%(square)s is not one of your domains."),
    ),
    ("wrong_act", r"Place a neutral castle now.*", gettext_noop("Place a neutral castle now.")),
    ("wrong_act", r"Place one of your castles.*", gettext_noop("Place one of your castles and its knight now.")),
    ("wrong_act", r"Play or sell a card now.*", gettext_noop("Play or sell a card now.")),
    ("wrong_act", r"Take a card now.*", gettext_noop("Take a card now, from the deck or the display.")),
    ("wrong_act", r".*", gettext_noop("That move does not fit this step of the turn.")),
    ("bad_move", r".*", gettext_noop("That move cannot be read.")),
    ("bad_part", r".*", gettext_noop("That move names a part this action does not have, or lacks one it needs.")),
    ("bad_player", r".*", gettext_noop("No such player in this game.")),
    ("no_such_player", r".*", gettext_noop("No such player in this game.")),
    (
        "just_sold",
        r"(?P<card>\S+) was sold this turn.*",
        gettext_noop("%(card)s was sold this turn and may not be taken back now."),
    ),
    (
        "not_in_display",
        r"There is no (?P<card>\S+) in the display\.",
        gettext_noop("There is no %(card)s in the display."),
    ),
    ("border_taken", rf"(?P<edge>{_EDGE}) already has a border\.", gettext_noop("%(edge)s already has a border.")),
    (
        "no_markers",
        r"All \d+ border markers are on the board\.",
        gettext_noop("All the border markers are on the board."),
    ),
    (
        "no_markers",
        rf"Taking (?P<square>{_SQ}) needs (?P<n>\d+) border markers; the supply holds (?P<free>\d+)\.",
        gettext_noop("Taking %(square)s needs %(n)s border markers; the supply holds %(free)s."),
    ),
    (
        "border_in_domain",
        rf"(?P<edge>{_EDGE}) lies inside the domain of the castle on (?P<castle>{_SQ})\.",
        gettext_noop("%(edge)s lies inside the domain of the castle on %(castle)s."),
    ),
    (
        "border_same_colour",
        rf"(?P<edge>{_EDGE}) lies between two pieces of the same colour.*",
        gettext_noop("%(edge)s lies between two pieces of the same colour."),
    ),
    (
        "square_taken",
        rf"(?P<square>{_SQ}) is not free: a castle stands on it\.",
        gettext_noop("%(square)s is not free: a castle stands on it."),
    ),
    (
        "square_taken",
        rf"(?P<square>{_SQ}) is not free: a knight stands on it\.",
        gettext_noop("%(square)s is not free: a knight stands on it."),
    ),
    ("square_taken", rf"(?P<square>{_SQ}) is not free\.", gettext_noop("%(square)s is not free.")),
    (
        "knight_terrain",
        rf".*\b(?P<square>{_SQ})\b.*",
        gettext_noop("A knight must stand on a meadow or a forest; %(square)s is neither."),
    ),
    (
        "knight_not_linked",
        rf"(?P<square>{_SQ}) is not next to .*",
        gettext_noop("%(square)s is not next to a castle or knight of yours without a border between them."),
    ),
    (
        "no_knights",
        r"All (?P<n>\d+) of your knights are on the board\.",
        gettext_noop("All %(n)s of your knights are on the board."),
    ),
    (
        "already_in_domain",
        rf"(?P<square>{_SQ}) already belongs to the domain of the castle on (?P<castle>{_SQ})\.",
        gettext_noop("%(square)s already belongs to the domain of the castle on %(castle)s."),
    ),
    (
        "not_adjacent",
        rf"(?P<square>{_SQ}) is not next to the domain of the castle on (?P<castle>{_SQ})\.",
        gettext_noop("%(square)s is not next to the domain of the castle on %(castle)s."),
    ),
    (
        "square_has_castle",
        rf"(?P<square>{_SQ}) holds a castle.*",
        gettext_noop("%(square)s holds a castle and cannot be taken."),
    ),
    (
        "own_domain",
        rf"(?P<square>{_SQ}) belongs to your other domain \(castle on (?P<castle>{_SQ})\)\.",
        gettext_noop("%(square)s belongs to your other domain (castle on %(castle)s)."),
    ),
    (
        "own_domain",
        rf"The domain of the castle on (?P<castle>{_SQ}) is yours\.",
        gettext_noop("The domain of the castle on %(castle)s is yours."),
    ),
    (
        "allied",
        rf"The domains of the castles on (?P<a>{_SQ}) and (?P<b>{_SQ}) are allied.*",
        gettext_noop("The domains of the castles on %(a)s and %(b)s are allied: neither may expand into the other."),
    ),
    (
        "defended_square",
        rf"(?P<square>{_SQ}) holds a knight of the domain's owner.*",
        gettext_noop("%(square)s holds a knight of the domain's owner."),
    ),
    (
        "not_enough_knights",
        rf"(?P<square>{_SQ}) lies in the domain of the castle on (?P<other>{_SQ}), which has (?P<theirs>\d+) "
        rf"knight\(s\); the domain of the castle on (?P<castle>{_SQ}) has (?P<ours>\d+) and needs more\.",
        gettext_noop(
            "%(square)s lies in the domain of the castle on %(other)s, which has %(theirs)s knight(s); "
            "the domain of the castle on %(castle)s has %(ours)s and needs more."
        ),
    ),
    ("no_knight", rf"No knight stands on (?P<square>{_SQ})\.", gettext_noop("No knight stands on %(square)s.")),
    ("own_knight", rf"The knight on (?P<square>{_SQ}) is yours\.", gettext_noop("The knight on %(square)s is yours.")),
    (
        "knight_not_in_domain",
        rf"The knight on (?P<square>{_SQ}) .*",
        gettext_noop("The knight on %(square)s does not stand in a domain of its owner."),
    ),
    (
        # Domaine version 2 (the original rules): any adjacent domain of the player's may receive the knight.
        "no_receiving_domain",
        rf"No domain of yours shares an edge with the domain of the castle on (?P<castle>{_SQ})\.",
        gettext_noop("No domain of yours shares an edge with the domain of the castle on %(castle)s."),
    ),
    (
        "no_receiving_domain",
        rf"The domain of the castle on (?P<castle>{_SQ}) .*",
        gettext_noop(
            "The domain of the castle on %(castle)s shares no edge with a domain of yours "
            "that holds one of your knights."
        ),
    ),
    (
        "no_knight_in_domain",
        rf"The domain of the castle on (?P<castle>{_SQ}) holds none.*",
        gettext_noop("The domain of the castle on %(castle)s holds none of your knights yet."),
    ),
    (
        "no_shared_edge",
        rf"The domains? of the castles? on (?P<a>{_SQ}) (?:and|shares no edge with the domain of the castle on) "
        rf"(?P<b>{_SQ}).*",
        gettext_noop("The domains of the castles on %(a)s and %(b)s share no border."),
    ),
    ("not_a_domain", rf"(?P<square>{_SQ}) is not.*", gettext_noop("%(square)s is not the castle of a domain.")),
    ("neutral", r".*", gettext_noop("The neutral colour makes no alliances.")),
    (
        "already_allied",
        rf"The castles on (?P<a>{_SQ}) and (?P<b>{_SQ}) are already allied\.",
        gettext_noop("The castles on %(a)s and %(b)s are already allied."),
    ),
    (
        "castle_terrain",
        rf".*\b(?P<square>{_SQ}) is not one\.",
        gettext_noop("A castle must stand on a meadow; %(square)s is not one."),
    ),
    (
        "no_knight_square",
        rf".*next to (?P<square>{_SQ}).*",
        gettext_noop("No free meadow or forest next to %(square)s for the castle's first knight."),
    ),
    (
        "castle_too_close",
        rf"(?P<square>{_SQ}) is closer than (?P<n>\d+) squares to the castle of the same colour on (?P<castle>{_SQ})\.",
        gettext_noop("%(square)s is closer than %(n)s squares to the castle of the same colour on %(castle)s."),
    ),
    (
        "knight_not_adjacent",
        rf".*; (?P<square>{_SQ}) is not\.",
        gettext_noop("The castle's knight must stand next to it; %(square)s is not."),
    ),
]
