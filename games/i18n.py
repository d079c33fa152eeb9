"""Site-layer translations of what the engines and models say in English.

The engines are pure Python and speak English (``IllegalMove.reason``);
game kinds are stored as engine names ("dominion"). This module turns both
into the reader's language without importing Django into the engines:

- :func:`game_name` and :func:`game_title` name a game ("皇輿爭霸 #12");
- :func:`refusal_text` translates an engine refusal by its ``code``, using
  the exact sentence when it is one we know (with its squares, cards and
  numbers) and a plainer sentence for the code otherwise.
"""

from __future__ import annotations

import re
from typing import Any

from django.utils.translation import get_language, gettext_lazy, gettext_noop
from django.utils.translation import gettext as _

from games.engine.domaine.cards import CARDS as DOMAINE_CARDS
from games.eventtext import card_name
from games.eventtext_domaine import card_name as domaine_card_name

#: Engine name -> the game's name (lazy: read in the request's language).
GAME_NAMES = {
    "dominion": gettext_lazy("Dominion"),
    "domaine": gettext_lazy("Domaine"),
}


def game_name(kind: str) -> str:
    """Return the name of the game of kind ``kind`` in the active language ("Dominion")."""
    name = GAME_NAMES.get(kind)
    return str(name) if name is not None else kind.capitalize()


def game_title(game: Any) -> str:
    """Return a game's title in the active language: "Dominion #12"."""
    return _("%(game)s #%(id)s") % {"game": game_name(game.kind), "id": game.pk}


#: Bot name (as engines register it) -> what players read.
BOT_NAMES = {
    "smart": gettext_lazy("smart bot"),
    "big_money": gettext_lazy("Big Money bot"),
    "greedy": gettext_lazy("greedy bot"),
    "random": gettext_lazy("random bot"),
}

#: The recommended Dominion kingdoms' names (rules section 11), translated.
KINGDOM_SET_NAMES = {
    "First Game": gettext_lazy("First Game"),
    "Big Money": gettext_lazy("Big Money"),
    "Interaction": gettext_lazy("Interaction"),
    "Size Distortion": gettext_lazy("Size Distortion"),
    "Village Square": gettext_lazy("Village Square"),
}


def bot_name(name: str) -> str:
    """Return a bot's name in the active language ("smart bot")."""
    label = BOT_NAMES.get(name)
    return str(label) if label is not None else name


def kingdom_set_name(name: str) -> str:
    """Return a recommended kingdom's name in the active language ("First Game")."""
    label = KINGDOM_SET_NAMES.get(name)
    return str(label) if label is not None else name


def name_list(names: Any) -> str:
    """Join names with the active language's list separator ("Ann, Bo" / "Ann、Bo")."""
    return _(", ").join(str(n) for n in names)


# Engine refusals. Each entry: (code, English pattern with named groups, message).
# The messages are marked with gettext_noop so makemessages finds them, and
# translated when shown; groups named "card" are card names, translated too.
_SQ = r"[A-L](?:[1-9]|1[0-2])"
_EDGE = rf"{_SQ}-{_SQ}"
_REFUSALS: list[tuple[str, str, str]] = [
    # Dominion
    ("malformed", r"A move is an object with an 'act'\.", gettext_noop("That move cannot be read.")),
    ("malformed", r"Say which card to play\.", gettext_noop("Say which card to play.")),
    ("malformed", r"Say which card to buy\.", gettext_noop("Say which card to buy.")),
    ("malformed", r"Say which card to gain\.", gettext_noop("Say which card to gain.")),
    ("malformed", r"Unknown move .*|'cards' must be a list of card names\.", gettext_noop("That move cannot be read.")),
    ("game_over", r"The game is over\.", gettext_noop("The game is over.")),
    ("answered", r"You have answered already; .*", gettext_noop("You have answered already; waiting for the others.")),
    ("not_your_decision", r".*", gettext_noop("It is not your decision: waiting for another player.")),
    ("waiting", r".*", gettext_noop("Your turn goes on once the other players have answered.")),
    (
        "curse_waits",
        r".*",
        gettext_noop("Whether a Curse is left depends on answers still owed: buy one once they are in."),
    ),
    ("not_your_turn", r".*", gettext_noop("It is not your turn.")),
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
    # Domaine
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
_COMPILED = [(code, re.compile(pattern), message) for code, pattern, message in _REFUSALS]
_CJK = re.compile(r"[\u4e00-\u9fff]")


def refusal_text(reason: str, code: str) -> str:
    """Return an engine refusal (``IllegalMove.reason`` and ``.code``) in the active language.

    English readers get the engine's own sentence, which is the most
    precise. Others get the translation of the first known sentence of
    that code that matches (its squares, cards and numbers carried over),
    else a general sentence for the code, else a general refusal. A reason
    the site already translated (the services raise some) is kept.
    """

    english = (get_language() or "en").split("-")[0] == "en"
    if _CJK.search(reason):
        return reason
    for entry_code, pattern, message in _COMPILED:
        if entry_code != code:
            continue
        match = pattern.fullmatch(reason)
        if match is None:
            continue
        params = match.groupdict()
        # A Domaine card id ("B3") reads like a square: English readers get the sentence with its name too.
        domaine_card = params.get("card") in DOMAINE_CARDS
        if english and not domaine_card:
            return reason
        if not params:
            return _(message)
        if "card" in params:
            params["card"] = domaine_card_name(params["card"]) if domaine_card else card_name(params["card"])
        return _(message) % params
    if english:
        return reason
    return _("The rules do not allow this move.")
