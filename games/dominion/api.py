"""Dominion's part of the API (``api.gameshapes``): its moves, decisions, view and state, typed, and its
options of ``POST /games``.

The engine is the source: card names come from its card list. The shapes say,
field by field, what ``docs/dominion-moves.md`` says in prose; the tests check
every view, decision and legal move of many played games against them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

from django.utils.translation import gettext as _
from pydantic import Field

from api.gameshapes_base import Move, Shape, absent
from api.schemas import GameOut, PlainStr, UndoRequestOut
from games.engine.dominion.cards import CARDS as DOMINION_CARDS
from games.engine.dominion.cards import RECOMMENDED_SETS

#: A Dominion card, by its English name (first edition), as the engine spells it.
# Built from the card list at run time, which mypy cannot read: to it, a card name is a str.
if TYPE_CHECKING:
    DominionCard = str
else:
    DominionCard = Literal[tuple(sorted(DOMINION_CARDS))]


class DominionPlay(Move):
    """Play a card from your hand: an Action in the Action phase (needs an Action left), or a Treasure
    (which ends the Action phase)."""

    act: Literal["play"]
    card: DominionCard


class DominionPlayTreasures(Move):
    """Play every Treasure in your hand (ends the Action phase)."""

    act: Literal["play_treasures"]


class DominionBuy(Move):
    """Buy a card from the Supply (needs a Buy and its cost in coins; ends the Action phase)."""

    act: Literal["buy"]
    card: DominionCard


class DominionEndActions(Move):
    """Go to the Buy phase."""

    act: Literal["end_actions"]


class DominionEndTurn(Move):
    """Clean up and pass the turn (the game may end)."""

    act: Literal["end_turn"]


class DominionChoose(Move):
    """Answer a card choice (``answer`` "choose"): the cards, a multiset of the decision's ``options``,
    between its ``min`` and ``max`` of them."""

    act: Literal["choose"]
    cards: list[DominionCard]


class DominionGain(Move):
    """Answer a gain (``answer`` "gain"): one of the decision's ``options``."""

    act: Literal["gain"]
    card: DominionCard


class DominionYes(Move):
    """Answer a yes/no question (``answer`` "yes_no") with yes."""

    act: Literal["yes"]


class DominionNo(Move):
    """Answer a yes/no question (``answer`` "yes_no") with no."""

    act: Literal["no"]


DominionMove = Annotated[
    DominionPlay
    | DominionPlayTreasures
    | DominionBuy
    | DominionEndActions
    | DominionEndTurn
    | DominionChoose
    | DominionGain
    | DominionYes
    | DominionNo,
    Field(discriminator="act"),
]

#: What a Dominion decision asks (``decision.kind``).
DominionDecisionKind = Literal[
    "turn",
    "discard",
    "trash",
    "gain",
    "topdeck",
    "throne",
    "chancellor",
    "library",
    "reveal_moat",
    "spy",
    "thief_trash",
    "thief_gain",
]


class DominionDecisionParams(Shape):
    """What a decision's prompt names (each key only where the decision has it)."""

    phase: Literal["action", "buy"] = absent(description="turn: the phase.")
    limit: int = absent(description="gain: the most the card may cost ($).")
    attack: DominionCard = absent(description="reveal_moat: the attack played.")
    by: int = absent(description="An attack's answer: the attacker's seat.")
    card: DominionCard = absent(description="library, spy: the card in question.")
    target: int = absent(description="spy: whose deck the card is from.")
    victim: int = absent(description="thief_trash: whose Treasures they are.")


class DominionDecision(Shape):
    """A decision the game waits on (the engine's ``Decision``)."""

    player: int = Field(description="The seat that must answer.")
    kind: DominionDecisionKind
    prompt: str = Field(description="An English sentence for logs; pages translate from kind, source and params.")
    options: list[DominionCard | Literal["yes", "no"]] = Field(
        description="The material of the answer: cards to choose from (a multiset), piles to gain, or yes and no."
    )
    min: int = Field(description="choose: the fewest cards to name.")
    max: int = Field(description="choose: the most cards to name.")
    source: DominionCard | Literal[""] = Field(description="The card that asks, or empty for the turn.")
    params: DominionDecisionParams
    out_of_turn: bool = Field(description="Answered outside the seat's own turn (Moat, Militia, Bureaucrat).")
    answer: Literal["move", "choose", "gain", "yes_no"] = Field(
        description="The move that answers: move (any turn move), choose, gain, yes_no (yes or no)."
    )


class DominionPile(Shape):
    """A Supply pile."""

    card: DominionCard
    count: int = Field(description="Cards left in it.")
    cost: int = Field(description="Its cost in coins ($).")
    types: list[Literal["Action", "Treasure", "Victory", "Curse", "Attack", "Reaction"]]


class DominionTurn(Shape):
    """The turn in progress."""

    player: int = Field(description="Whose turn it is.")
    phase: Literal["action", "buy"]
    actions: int
    buys: int
    coins: int
    number: int = Field(description="The current player's turn number, from 1.")
    bought: bool = Field(description="A card was bought this turn (no Treasure may be played now).")


class DominionSeat(Shape):
    """A seat as the viewer may see it: another seat's hand is null (its size is public)."""

    seat: int
    hand: list[DominionCard] | None = Field(description="The viewer's own hand (all hands once the game is over).")
    hand_count: int
    deck_count: int
    discard_count: int
    discard_top: DominionCard | None
    play: list[DominionCard] = Field(description="Cards in play this turn.")
    set_aside: list[DominionCard]
    score: int = Field(description="Victory points now.")
    turns: int = Field(description="Turns taken.")
    card_count: int = Field(description="Cards owned.")
    deck: list[DominionCard] = absent(description="Once the game is over: the deck, top first.")
    discard: list[DominionCard] = absent(description="Once the game is over: the discard pile.")
    owned: dict[str, int] = absent(description="Once the game is over: card -> copies owned.")


class DominionResult(Shape):
    """A finished game's outcome (a game ended by forfeit may have only ``winners``)."""

    winners: list[int]
    scores: list[int] = absent()
    ranks: list[int] = absent()
    turns: list[int] = absent()


class DominionView(Shape):
    """A Dominion game as one seat (or a spectator, ``viewer`` null) may see it."""

    game: Literal["dominion"]
    viewer: int | None
    players: int
    kingdom: list[DominionCard]
    supply: list[DominionPile]
    trash: list[DominionCard]
    turn: DominionTurn
    seats: list[DominionSeat]
    waiting_on: list[int] = Field(description="The seats the game waits for.")
    decision: DominionDecision | None = Field(
        description="The viewer's open answer (a discard, a gain, ...), never its turn: see the state's decision."
    )
    legal: list[DominionMove] = Field(
        description="The viewer's legal moves, except choose answers (the state's legal lists those too)."
    )
    game_over: bool
    result: DominionResult | None
    paused: bool = absent(description="Rules version 3: the turn waits for answers owed by others.")


class DominionState(Shape):
    """A Dominion game as the caller may see it."""

    kind: Literal["dominion"]
    game: GameOut
    view: DominionView | None = Field(description="Null before the start.")
    decision: DominionDecision | None = Field(
        description="The decision you owe now (kind turn: any turn move), or null."
    )
    legal: list[DominionMove] = Field(description="Your legal moves now, [] unless you owe a decision.")
    undo_request: UndoRequestOut | None


#: The names ``api.gameshapes`` reads (docs/games.md, "The API's part").
MOVE = DominionMove
VIEW = DominionView
DECISION = DominionDecision
STATE = DominionState

#: The fields of ``POST /games`` that only Dominion reads: the kingdom.
CREATE_FIELDS: dict[str, Any] = {
    "kingdom": (
        PlainStr | list[PlainStr],
        Field(
            "random",
            description="Dominion: random, a recommended set's name, or 10 card names. Ignored for the other games.",
        ),
    ),
}


def create_options(fields: dict[str, Any]) -> dict[str, Any]:
    """The engine options of a new game from its ``CREATE_FIELDS`` values (``{"kingdom": ...}``).

    A list of card names is left to the engine to judge (it refuses a wrong
    one with ``InvalidOptions``, a 422).

    Raises:
        ValueError: a kingdom named by a string that is neither ``random`` nor a recommended set's name
            (the message is shown: a 422 ``invalid_options``).
    """
    kingdom = fields.get("kingdom", "random")
    if isinstance(kingdom, str) and kingdom != "random" and kingdom not in RECOMMENDED_SETS:
        raise ValueError(_("Unknown kingdom."))
    return {"kingdom": kingdom}
