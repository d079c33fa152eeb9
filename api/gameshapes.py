"""The games' own shapes in the API: moves, views, decisions and states of Dominion and Domaine, typed.

These pydantic models say, field by field, what ``docs/dominion-moves.md``
and ``docs/domaine-moves.md`` say in prose, so that the served OpenAPI
schema types a game's ``view``, ``decision`` and ``legal`` (a union per game,
discriminated on ``kind``) and a move (a union on ``act``), and a client
generator gives usable types.

How they are used:

* Moves: the schema's ``Move`` is :data:`MOVE`, a move of either game's
  notation; the engine judges a move sent (its ``canonical_move`` its
  shape, its rules whether it is legal now: 422 either way), and the
  tests check every move the engines list and the bots make against it.
  A Domaine move being built (``POST /games/{id}/choices``) is checked
  against :class:`DomaineDraft` (400).
* Answers: the views are the engines' own data, sent as they are (no copy
  through these models, so an answer is never refused for its shape); the
  tests check every view, decision and legal move of many played games
  against these models, which forbid unknown keys, so an engine that
  changes its data fails the tests until the schema and the docs follow.
* The schema: :func:`components` gives the JSON schemas that
  ``api.v1.HeraldAPI`` adds to the document's components; the operations
  refer to them by name (:func:`ref`).

The engines are the source: card names and ids come from their card lists,
bots from the registry.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, WithJsonSchema

from api.schemas import GameOut, UndoRequestOut
from games.engine.domaine.cards import ACTION_KINDS as DOMAINE_ACTION_KINDS
from games.engine.domaine.cards import CARDS as DOMAINE_CARDS
from games.engine.dominion.cards import CARDS as DOMINION_CARDS

#: Where the API's schema keeps its named shapes.
REF = "#/components/schemas/{model}"


#: The key of a placeholder for a reference to one of these components, in a field's schema. pydantic checks
#: every ``$ref`` it writes against the models it knows, so the operations' fields carry this instead, and
#: :func:`link` makes it a ``$ref`` in the finished document.
PLACEHOLDER = "x-herald-shape"


def ref(name: str) -> dict[str, Any]:
    """A placeholder for a reference to the component ``name`` (see :func:`link`)."""
    return {PLACEHOLDER: name}


def link(node: Any) -> Any:
    """Replace every :func:`ref` placeholder in the schema document ``node`` by its ``$ref`` (in place)."""
    if isinstance(node, dict):
        if PLACEHOLDER in node:
            name = node.pop(PLACEHOLDER)
            node["allOf"] = [{"$ref": REF.format(model=name)}]
        for value in node.values():
            link(value)
    elif isinstance(node, list):
        for value in node:
            link(value)
    return node


def absent(**field: Any) -> Any:
    """``Field(None, **field)``: a key the engine leaves out where it does not apply.

    Its schema keeps the key's type (not "or null": the key is absent, never null). Typed ``Any`` so
    that ``limit: int = absent(...)`` type-checks: mypy would read ``Field(None)`` as None given to an int.
    """
    return Field(None, **field)


class Shape(BaseModel):
    """A shape of the games' data: unknown keys are an error (the tests find an engine that adds one)."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class Move(Shape):
    """A move: checked strictly (``"1"`` is no number, ``1`` no ``true``)."""

    model_config = ConfigDict(extra="forbid", strict=True, populate_by_name=True)


# --- Dominion ------------------------------------------------------------------------------------

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


# --- Domaine -------------------------------------------------------------------------------------

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


# --- States ---------------------------------------------------------------------------------------


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


GameState = Annotated[DominionState | DomaineState, Field(discriminator="kind")]

#: Checks a move of either game's notation (the schema's ``move``).
MOVE: TypeAdapter[Any] = TypeAdapter(DominionMove | DomaineMove)
#: Checks one game's moves, views, decisions, states (the tests, and the docs' examples).
MOVES: dict[str, TypeAdapter[Any]] = {"dominion": TypeAdapter(DominionMove), "domaine": TypeAdapter(DomaineMove)}
STATE: TypeAdapter[Any] = TypeAdapter(GameState)
#: Checks a Domaine move being built.
DRAFT: TypeAdapter[Any] = TypeAdapter(DomaineDraft)
#: The game kinds these shapes describe; the API sends others (the tests' fake game) untyped.
KINDS = ("dominion", "domaine")


def components() -> dict[str, Any]:
    """The named JSON schemas of the shapes: ``GameState``, ``Move``, ``Choices`` and every part of them."""
    out: dict[str, Any] = {}
    named = (("GameState", STATE), ("Move", MOVE), ("Choices", TypeAdapter(Choices)), ("DomaineDraft", DRAFT))
    for name, adapter in named:
        schema = adapter.json_schema(ref_template=REF, by_alias=True)
        out.update(schema.pop("$defs", {}))
        out[name] = schema
    return out


#: Types for the operations' annotations: plain data in and out, described by the components above.
GameStateData = Annotated[dict[str, Any], WithJsonSchema(ref("GameState"))]
ChoicesData = Annotated[dict[str, Any], WithJsonSchema(ref("Choices"))]
