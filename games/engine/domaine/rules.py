"""Every number and every house rule of Herald's Domaine, in one place.

The rules text is ``shared/rules/domaine.md``. Values printed in the game
(counts, targets, terrain points) and every **house** decision live here so
that the published rulebook can replace them without touching the engine.
Cards and map tiles are data, in ``data/cards.json`` and ``data/tiles.json``.
"""

from __future__ import annotations

from dataclasses import dataclass

# --- Components -----------------------------------------------------------

#: The board is 12x12 squares, 9 tiles of 4x4.
SIZE = 12
TILE = 4

#: Knights per colour (rule: "15 knights").
KNIGHTS_PER_COLOUR = 15

#: Castles per colour by player count (rule: 4, or 3 with 4 players).
CASTLES_PER_PLAYER = {2: 4, 3: 4, 4: 3}

#: Border markers shared by everyone (rule: 100).
BORDER_MARKERS = 100

#: Starting gold per player (rule: 7).
START_GOLD = 7

#: Cards in a hand after each take (rule: "hands return to 3").
HAND_SIZE = 3

#: Target score by player count (rule: 50 / 40 / 30).
TARGET_SCORE = {2: 50, 3: 40, 4: 30}

# --- Setup ------------------------------------------------------------------

#: Version 1: a castle stands at least this many squares (|dx|+|dy|) from
#: every castle of its own colour (rule then: 7, "six squares between them").
#: Version 2 follows the original, 6: see ``Ruleset.castle_distance``.
CASTLE_DISTANCE = 7

#: Version 1: if a player has no legal square at CASTLE_DISTANCE the
#: distance drops to this (rule then: 6), then one at a time (house).
CASTLE_DISTANCE_FALLBACK = 6

#: House: the rules do not say what happens when even the fallback distance
#: leaves no legal square (it cannot happen on the shipped tiles, which keep
#: many free meadows). We keep lowering the distance one square at a time
#: down to this value, so that setup can never get stuck.
CASTLE_DISTANCE_FLOOR = 1

#: House: a castle square is legal only if its first knight has a free
#: meadow or forest next to it that the player can pay for; the rules place
#: both in one move, so a castle with nowhere for its knight is no placement.
CASTLE_NEEDS_KNIGHT_SQUARE = True

#: Two players: a neutral colour gets this many castles (rule: 4).
NEUTRAL_CASTLES = 4

#: House: who places the neutral castles. Seats take turns in this order,
#: repeated, after all players' own castles are down; the neutral colour has
#: no knights, no cards, no gold, no turns and no score.
NEUTRAL_PLACERS = (0, 1)

#: Internal colour number of the neutral colour (seats are 0..3); it shows
#: as "neutral" in every output.
NEUTRAL = 4

# --- Terrain and score --------------------------------------------------------

MEADOW, FOREST, VILLAGE, ROYAL = ".", "F", "V", "R"
MINES = ("g", "s", "c", "d")
MINE_NAMES = {"g": "gold", "s": "silver", "c": "copper", "d": "diamond"}
TERRAINS = frozenset((MEADOW, FOREST, VILLAGE, ROYAL) + MINES)

#: Points of a square in the owner's domain (rule: forest 1, village 3,
#: royal city 5; meadows, mines by themselves, castles and knights 0).
SQUARE_POINTS = {MEADOW: 0, FOREST: 1, VILLAGE: 3, ROYAL: 5, "g": 0, "s": 0, "c": 0, "d": 0}

#: Each kind of mine of which a player's domains hold this many or more ...
MINE_MAJORITY = 3
#: ... scores this much (rule: 3 or more of a kind: 5).
MINE_MAJORITY_POINTS = 5
#: House: the mine majority counts over all of a player's domains together,
#: not per domain.
MINE_MAJORITY_OVER_ALL_DOMAINS = True

#: Income: 1 gold per different kind of mine in the player's domains.
INCOME_PER_MINE_KIND = 1

#: Extra gold a knight on a forest costs (rule: 1). In setup too under
#: version 1; free in setup from version 2 (``Ruleset.setup_forest_costs``).
FOREST_KNIGHT_SURCHARGE = 1

#: Squares on which a knight may stand (rule: meadow, or forest at a cost).
KNIGHT_TERRAIN = frozenset((MEADOW, FOREST))
#: Squares on which a castle may stand (rule: free meadow).
CASTLE_TERRAIN = frozenset((MEADOW,))

# --- Actions ------------------------------------------------------------------

#: House: a square of another colour's domain that holds a knight of that
#: colour may not be taken by expansion.
EXPAND_BLOCKED_BY_DEFENDING_KNIGHT = True

#: House: the bank of gold never runs out (the box holds 47 ducats; the
#: original does not say what happens when they run out). The engine keeps
#: each seat's gold as a plain number and has no bank, in every version.
GOLD_BANK_UNLIMITED = True

#: House: alliances do not stop desertion.
ALLIANCE_BLOCKS_DESERTION = False

#: House (the rules are silent): the neutral colour cannot be allied with.
#: It can be expanded into (it has no knights, so any domain with at least
#: one knight has more) and cannot be the target of desertion (rule).
NEUTRAL_CAN_ALLY = False

# --- End ------------------------------------------------------------------------

#: Gold bonuses once the cards run out (rule: most gold +5; if exactly one
#: player had the most, second most +3; no gold scores neither).
GOLD_BONUS_FIRST = 5
GOLD_BONUS_SECOND = 3

#: House (the rules are silent): when, at the end of the same turn, a target
#: score is reached and the last card has been played, the target ends the
#: game first, so no gold bonus is paid (the target rule is listed first).
#: (From version 2 the target ends the game at the placement itself, so the
#: question only arises in version 1.)
TARGET_END_BEFORE_GOLD_BONUS = True

#: House: once the deck is empty a player whose hand is empty is skipped,
#: income included.
SKIP_EMPTY_HANDS = True


# --- Versions -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Ruleset:
    """The rules that differ between engine versions (see ``games.engine.core``).

    A stored game keeps the version it started with, so each difference
    lives here as data and the engine reads ``state.rules``; a rule change
    is a new entry in ``RULESETS``, never an edit of an old one.

    Attributes:
        version: the engine version these rules are.
        castle_distance: a castle's least distance (|dx|+|dy|) from every
            castle of its own colour.
        castle_fallback: the distance tried next when no square is legal at
            ``castle_distance``; after it, one square less at a time (house)
            down to ``CASTLE_DISTANCE_FLOOR``.
        setup_forest_costs: the first knight of a setup placement pays the
            forest surcharge (version 1) or is free on a forest too (2).
        desertion_needs_own_knight: the receiving domain of a desertion must
            already hold one of the player's knights (version 1), or may be
            any of the player's domains sharing an edge with the other (2).
        target_wins_at_once: the target score is checked after every single
            placement and ends the game there, the rest of the play not made
            and no card taken (2); or checked at the end of the turn, after
            the take (1).
    """

    version: int
    castle_distance: int
    castle_fallback: int
    setup_forest_costs: bool
    desertion_needs_own_knight: bool
    target_wins_at_once: bool


#: Engine version -> its rules. Version 1: Herald's first reading of the
#: rules. Version 2 (issue 17): the original Chinese rules on the four points
#: above ("距离 6 格以上"; "add a knight in your own domain"; "第一个到达…的玩家立刻得到胜利").
RULESETS: dict[int, Ruleset] = {
    1: Ruleset(
        version=1,
        castle_distance=CASTLE_DISTANCE,
        castle_fallback=CASTLE_DISTANCE_FALLBACK,
        setup_forest_costs=True,
        desertion_needs_own_knight=True,
        target_wins_at_once=False,
    ),
    2: Ruleset(
        version=2,
        castle_distance=6,
        castle_fallback=5,
        setup_forest_costs=False,
        desertion_needs_own_knight=False,
        target_wins_at_once=True,
    ),
}

#: The version new games are made with.
CURRENT_VERSION = 2

#: House (version 2, the rules are silent): once a placement of a play
#: brings a player to the target, the play's later parts are neither made
#: nor checked (the game is over), and their forest surcharges are not paid;
#: the card's cost is. The event of the play lists only the parts made.
TARGET_STOPS_THE_PLAY_UNCHECKED = True
