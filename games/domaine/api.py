"""Domaine's part of the API (``api.gameshapes``): its moves, decisions, view, state and moves being built,
typed, and the plays it lists apart in a state.

The engine is the source: card ids come from its card list. The shapes say,
field by field, what ``docs/domaine-moves.md`` says in prose; the tests check
every view, decision and legal move of many played games against them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import Field

from api.gameshapes_base import Move, Shape, absent
from api.schemas import GameOut, UndoRequestOut
from games.engine.domaine.cards import ACTION_KINDS as DOMAINE_ACTION_KINDS
from games.engine.domaine.cards import CARDS as DOMAINE_CARDS

#: A Domaine card, by its id (letter and number), as the engine names it.
if TYPE_CHECKING:  # as DominionCard
    DomaineCard = str
else:
    DomaineCard = Literal[tuple(sorted(DOMAINE_CARDS))]
#: A square of the 12 x 12 board: column A to L, row 1 to 12.
Square = Annotated[str, Field(pattern=r"^[A-L](?:[1-9]|1[0-2])$", examples=["C7"])]
#: An edge between two neighbouring squares, the smaller square first.
Edge = Annotated[str, Field(pattern=r"^[A-L](?:[1-9]|1[0-2])-[A-L](?:[1-9]|1[0-2])$", examples=["C7-C8"])]
#: A piece's colour: a seat, or the neutral colour of a two-player game.
Colour = int | Literal["neutral"]


class DomainePlaceCastle(Move):
    """Setup: a castle on ``at`` and its first knight on ``knight``, a neighbouring square."""

    act: Literal["place_castle"]
    at: Square
    knight: Square


class DomainePlaceNeutral(Move):
    """Setup, two players: a neutral castle on ``at``."""

    act: Literal["place_neutral"]
    at: Square


class DomaineSell(Move):
    """Sell a card from your hand to the display, for its sale price in gold."""

    act: Literal["sell"]
    card: DomaineCard


class DomainePlay(Move):
    """Play a card from your hand (pay its cost): ``option`` chooses its action, and the parts that action takes
    follow (any of them may be shorter than the card allows, even left out)."""

    act: Literal["play"]
    card: DomaineCard
    option: int = Field(0, ge=0, le=1, description="0 = the action written first; 1 = the second, if it has one.")
    borders: list[Edge] = absent(description="borders: the edges, placed in order.")
    knights: list[Square] = absent(description="knights: the squares, placed in order.")
    domain: Square = absent(description="expand and alliance: your domain's castle square.")
    squares: list[Square] = absent(description="expand: the squares added, in order.")
    remove: Square = absent(description="desertion: the knight removed.")
    knight: Square = absent(description="desertion: where your new knight goes.")
    with_: Square = absent(alias="with", description="alliance: the other castle's square.")


class DomaineTake(Move):
    """End the turn by taking a card: the deck's top card (``"from": "deck"``), or ``card`` from the display."""

    act: Literal["take"]
    from_: Literal["deck", "display"] = absent(alias="from")
    card: DomaineCard = absent()


class DomaineDraft(Move):
    """A Domaine move being built: any of its keys may be missing yet (``POST /games/{id}/choices``)."""

    act: Literal["place_castle", "place_neutral", "sell", "play", "take"]
    at: Square = absent()
    card: DomaineCard = absent()
    option: int = absent(ge=0, le=1)
    borders: list[Edge] = absent()
    knights: list[Square] = absent()
    domain: Square = absent()
    squares: list[Square] = absent()
    remove: Square = absent()
    knight: Square = absent()
    with_: Square = absent(alias="with")
    from_: Literal["deck", "display"] = absent(alias="from")


DomaineMove = Annotated[
    DomainePlaceCastle | DomainePlaceNeutral | DomaineSell | DomainePlay | DomaineTake,
    Field(discriminator="act"),
]


class DomaineDecisionParams(Shape):
    """What a decision's prompt names (each key only where the decision has it)."""

    neutral: bool = absent(description="setup: a neutral castle is placed.")
    distance: int = absent(description="setup: the least distance to the other castles.")
    gold: int = absent(description="play: the mover's gold.")
    playable: list[DomaineCard] = absent(description="play: the cards the mover can pay for (theirs only).")
    deck_size: int = absent(description="take: cards left in the deck.")
    sold: DomaineCard | None = absent(description="take: the card sold this turn (it cannot be taken back).")


class DomaineDecision(Shape):
    """A decision the game waits on: Domaine has one at a time, the mover's."""

    player: int
    kind: Literal["setup", "play", "take"]
    prompt: str
    options: list[str] = Field(
        description="setup: the castle squares; play: the mover's hand (empty for the others); take: 'deck' and "
        "the display's cards."
    )
    min: int
    max: int
    source: Literal[""]
    params: DomaineDecisionParams
    out_of_turn: bool
    answer: Literal["move"]


class DomaineDomain(Shape):
    """A domain: a castle and the squares its borders enclose."""

    castle: Square
    owner: Colour
    squares: list[Square]
    knights: int = Field(description="Knights inside it.")


class DomainePlayer(Shape):
    """A seat as the viewer may see it: its hand only for the viewer (everyone's once the game is over)."""

    seat: int
    gold: int
    score: int
    hand_size: int
    hand: list[DomaineCard] = absent(description="Present only for the viewer (and once it is over).")
    knights_left: int
    castles_left: int
    income: int = Field(description="Gold at the start of each turn.")


class DomaineNeutral(Shape):
    """The neutral colour of a two-player game."""

    castles_left: int


class DomaineTurn(Shape):
    """Whose move it is and what step."""

    player: int
    step: Literal["setup", "play", "take", "over"]
    number: int


class DomaineResult(Shape):
    """Only for a game that ended off the board (a forfeit): who won."""

    winners: list[int]


class DomaineView(Shape):
    """A Domaine game as one seat (or a spectator, ``viewer`` null) may see it."""

    kind: Literal["domaine"]
    version: int = Field(description="The rules version the game is played with.")
    viewer: int | None
    board: list[str] = Field(description="12 rows of 12 terrain letters, row 1 first, column A first.")
    castles: dict[str, Colour] = Field(description="Square -> owner.")
    knights: dict[str, Colour] = Field(description="Square -> owner.")
    borders: list[Edge]
    borders_left: int
    domains: list[DomaineDomain]
    neutral_zones: list[list[Square]]
    alliances: list[list[Square]] = Field(description="Pairs of castle squares.")
    players: list[DomainePlayer]
    neutral: DomaineNeutral | None
    display: list[DomaineCard]
    deck_size: int
    sold_this_turn: DomaineCard | None
    target: int = Field(description="The score that ends the game.")
    turn: DomaineTurn
    pending: list[DomaineDecision]
    game_over: bool
    winners: list[int]
    bonuses: list[int] = Field(description="Once over: each seat's gold bonus.")
    deck: list[DomaineCard] = absent(description="Once the game is over: the deck, top first.")
    legal: list[DomaineMove] = absent(description="Present, empty, once the game is no longer running.")
    decision: None = absent(description="Present, null, once the game is no longer running.")
    result: DomaineResult = absent(description="Present only for a game that ended off the board.")


class DomainePlayOption(Shape):
    """One way to play a card in hand: the card, its option, the action and the first part to fill.

    A play is built part by part: start from ``{"act": "play", "card", "option"}``, add a value of
    ``next.choices`` under ``next.part`` (a list part takes a list: append to it), then ask
    ``POST /games/{id}/choices`` with the play so far for the next part, until ``part`` is null or
    you stop (every part may be left shorter). Send it as a move.
    """

    card: DomaineCard
    option: int
    action: Literal[DOMAINE_ACTION_KINDS]  # type: ignore[valid-type]
    count: int = Field(description="The most placements this action makes (borders, knights, squares).")
    cost: int = Field(description="The card's cost in gold (knights on forests cost more).")
    next: Choices = Field(description="The first part of the play and its legal values.")


class Choices(Shape):
    """What may come next in a move being built (``POST /games/{id}/choices``)."""

    part: Literal["at", "knight", "card", "borders", "knights", "domain", "squares", "remove", "with"] | None = Field(
        description="The move key to fill next, or null when nothing more can be added."
    )
    remaining: int = absent(description="How many more values this part takes.")
    choices: list[str] = absent(description="Its legal values (squares, edges, castles or cards).")


DomainePlayOption.model_rebuild()


class DomaineState(Shape):
    """A Domaine game as the caller may see it."""

    kind: Literal["domaine"]
    game: GameOut
    view: DomaineView | None = Field(description="Null before the start.")
    decision: DomaineDecision | None = Field(description="The decision you owe now, or null.")
    legal: list[DomaineMove] = Field(
        description="Your legal moves now, except plays with parts: sells, takes, setup placements, and each "
        "play with no part (legal too). [] unless you owe a decision."
    )
    plays: list[DomainePlayOption] = Field(
        description="Your plays, by card and option, with their first part: build a full play from these."
    )
    undo_request: UndoRequestOut | None


#: The names ``api.gameshapes`` reads (docs/games.md, "The API's part").
MOVE = DomaineMove
VIEW = DomaineView
DECISION = DomaineDecision
STATE = DomaineState
#: A move being built (``POST /games/{id}/choices``), and the answer: what may come next in it.
DRAFT = DomaineDraft
CHOICES = Choices


def present(
    out: dict[str, Any], engine: Any, state: Any, seat: int | None, legal: list[dict[str, Any]]
) -> dict[str, Any]:
    """The state answer ``out`` with Domaine's legal moves in a form a client can use: ``legal`` and ``plays``.

    The engine lists each play of a card by its first part (one border, one
    knight, ...): hundreds of near-identical moves. Here ``legal`` keeps the
    whole moves (sells, takes, setup placements) and each play with no part
    (legal too: an action may be left unused), and ``plays`` has one entry
    per card and option: its action, how many placements it makes, its cost,
    and its first part with the legal values (``engine.targets``), from which
    a client builds a full play (``POST /games/{id}/choices`` for the next parts).
    ``state`` is None (and ``legal`` empty) when the caller owes no move.
    """
    plays: list[dict[str, Any]] = []
    if legal and state is not None and seat is not None:
        bare = [m for m in legal if m.get("act") != "play" or set(m) == {"act", "card", "option"}]
        for move in bare:
            if move.get("act") != "play":
                continue
            card = DOMAINE_CARDS[move["card"]]
            action = card.actions[move["option"]]
            plays.append(
                {
                    "card": move["card"],
                    "option": move["option"],
                    "action": action.kind,
                    "count": action.n,
                    "cost": card.cost,
                    "next": engine.targets(state, seat, move),
                }
            )
        out["legal"] = bare
    out["plays"] = plays
    return out
