"""The API's request and response shapes (pydantic, through django-ninja); the OpenAPI schema is made from these."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from datetime import datetime
from typing import TYPE_CHECKING, Annotated, Any, Literal

from ninja import Field, Schema
from pydantic import AfterValidator, ConfigDict, WithJsonSchema

from games import kinds
from games.plainjson import check_plain
from website.text import KEPT, UNSAFE_CATEGORIES


def _plain(value: str) -> str:
    """Refuse text the database cannot store (NUL, lone surrogates): a 400, never PostgreSQL's error."""
    check_plain(value)
    return value


def _excluding(chars: Iterable[int]) -> str:
    """A JSON-schema pattern for text without any of the code points ``chars`` (as ranges, escaped)."""
    ranges: list[tuple[int, int]] = []
    for c in sorted(chars):
        if ranges and ranges[-1][1] == c - 1:
            ranges[-1] = (ranges[-1][0], c)
        else:
            ranges.append((c, c))

    def esc(c: int) -> str:
        # \uXXXX reads the same in Python's and ECMAScript's regular expressions; beyond the BMP, the character.
        return f"\\u{c:04x}" if c <= 0xFFFF else chr(c)

    body = "".join(esc(a) if a == b else f"{esc(a)}-{esc(b)}" for a, b in ranges)
    return f"^[^{body}]*$"


#: What the site stores as text: no NUL, no lone surrogates (``games.plainjson.check_plain``).
PLAIN_PATTERN = _excluding([0, *range(0xD800, 0xE000)])
#: One line of users' text (``website.text.validate_one_line``): none of its unsafe characters either.
ONE_LINE_PATTERN = _excluding(
    c for c in range(0x110000) if chr(c) not in KEPT and (unicodedata.category(chr(c)) in UNSAFE_CATEGORIES or c == 0)
)

#: A string a client sent, that the database can store (the schema's pattern says which).
PlainStr = Annotated[str, AfterValidator(_plain), WithJsonSchema({"type": "string", "pattern": PLAIN_PATTERN})]


class ProblemOut(Schema):
    """RFC 9457 problem details, with Herald's extension members."""

    type: str
    title: str
    status: int
    detail: str
    code: str = Field(description="A stable word for programs: stale_move, illegal_move, missing_scope, ...")
    current_seq: int | None = Field(None, description="stale_move: the game's seq now.")
    reason: str | None = Field(None, description="illegal_move: the engine's code for the refusal.")
    retry_after: int | None = Field(None, description="rate_limited: seconds to wait (also the Retry-After header).")
    errors: list[dict[str, Any]] | None = Field(None, description="invalid_request: what was wrong where.")
    until: datetime | None = Field(
        None, description="account_suspended: when the suspension ends (UTC), or null for one without an end."
    )


class AccountOut(Schema):
    """The token's user."""

    username: str
    name: str = Field(description="The name shown on the site (a bot account's ends in “(bot)”).")
    bot_account: bool
    scopes: list[str] = Field(description="The scopes of the token used.")
    profile_url: str


class SeatOut(Schema):
    """A seat at a game."""

    seat: int = Field(
        description="The engine's seat index. Until the start it is the join order; the start deals the seats "
        "in a random order (so the creator may play second): read my_seat once the game is active."
    )
    name: str
    username: str | None = Field(description="The player's username; null for a bot seat or a deleted account.")
    bot: str | None = Field(description="The site's bot playing the seat (from the start, or since a forfeit).")
    bot_account: bool
    rank: int | None
    score: int | None
    forfeited: bool
    deadline: datetime | None = Field(description="When this seat's open decision times out (UTC).")


#: A game's status: open (waiting for players), active, finished, aborted (cancelled) or frozen (stopped for
#: a moderator: its log no longer replays).
GameStatus = Literal["open", "active", "finished", "aborted", "frozen"]

#: The games the site offers (``games.kinds``). Described as an enumeration in the schema; read as a string so
#: that a game stored but no longer installed is still sent rather than refused.
GameKind = Annotated[str, WithJsonSchema({"type": "string", "enum": kinds.names()})]
#: A game a request may name: one of the installed games (``games.kinds``). Built from the registry at run
#: time, which mypy cannot read: to it, a kind is a str.
if TYPE_CHECKING:
    KindIn = str
else:
    KindIn = Literal[tuple(kinds.names())]

#: What an event of the stream says happened (docs/api.md, "The event stream").
StreamKind = Literal["started", "move", "your_move", "forfeit", "game_over", "cancelled", "chat", "undo_asked"]


class GameOut(Schema):
    """A game as a list shows it."""

    id: int
    kind: GameKind
    status: GameStatus = Field(description="open, active, finished, aborted (cancelled) or frozen (stopped).")
    rated: bool
    private: bool
    max_players: int
    seats: list[SeatOut]
    to_act: list[int] = Field(description="The seats that owe a decision now.")
    last_seq: int = Field(description="The seq of the last move: send it back as expected_seq.")
    my_seat: int | None = Field(description="The caller's seat, or null.")
    my_move: bool = Field(description="Whether the caller owes a decision now.")
    time_per_move: int = Field(description="Seconds per decision (a Fischer clock's starting bank).")
    clock: Literal["move", "fischer"] = Field(
        description="move: a fixed time per decision; fischer: a bank of time_per_move, plus an increment per move."
    )
    created: datetime
    started: datetime | None
    finished: datetime | None
    url: str


class UndoRequestOut(Schema):
    """An open request of a player to take back moves, which every other person still playing must allow."""

    id: int = Field(description="Answer it at POST /games/{game_id}/undo/{id}.")
    seat: int = Field(description="The seat asking.")
    count: int = Field(description="How many moves it would take back.")
    agreed: list[int] = Field(description="The seats that allowed it so far.")


class StrictIn(Schema):
    """A request body, read strictly: each field of its own JSON type, and no field the schema does not name.

    ``true``/``false`` only for a boolean (never ``"yes"``, ``1``, ``"on"`` or
    ``1.0``), a JSON integer for an integer (never ``"2"``, ``2.5`` or
    ``true``), text for a string, and an unknown field is refused rather
    than ignored, so a misspelt field never passes silently (``"privat":
    true`` would make a public game). The schema says so
    (``additionalProperties: false``); the answer is a 400
    ``invalid_request`` naming each field. Pydantic's strict mode:
    https://docs.pydantic.dev/latest/concepts/strict_mode/.
    """

    model_config = ConfigDict(strict=True, extra="forbid")


#: The time controls the site offers, in seconds (``games.services.TIME_CONTROLS``).
TimeControl = Literal[3600, 14400, 43200, 86400, 172800, 259200, 432000, 604800, 1209600]


# The fields every game reads; ``api.gameshapes.CreateGameIn`` adds each game's own (its API part's).
class CreateGameBase(StrictIn):
    """A new game; the caller takes a seat (which one is dealt at the start: see ``my_seat``)."""

    kind: KindIn
    players: int = Field(2, ge=2, le=4)
    time_per_move: TimeControl = Field(
        86400,
        description="Seconds per decision: one of the site's time controls (any other value is 400 invalid_request).",
    )
    rated: bool = False
    private: bool = False
    invited: list[PlainStr] = Field(
        default_factory=list, max_length=10, description="Usernames invited (private games)."
    )
    bots: list[PlainStr] = Field(
        default_factory=list,
        max_length=3,
        description="The site's bots for the other seats, by name: a level, level1 (beginner) to level5 (expert), "
        "as GET /bots lists them with their measured strength, or one of a game's other bots ("
        + "; ".join(
            f"{kind.name}: {', '.join(sorted(b for b in kind.bots if b not in kind.bot_levels))}"
            for kind in kinds.all_kinds()
        )
        + "). A game with bots is never rated.",
    )


class MoveIn(StrictIn):
    """A move in the notation of the game's rules (``act`` and its parts), for the position ``expected_seq``."""

    move: Annotated[dict[str, Any], WithJsonSchema({"x-herald-shape": "Move"})] = Field(
        description='The move, in the notation of its game (the guide): an object with an "act" and its parts.'
    )
    expected_seq: int = Field(ge=0, le=2**31 - 1, description="The game's last_seq the move was chosen for.")


class UndoIn(StrictIn):
    """Take back your last move, for the position ``expected_seq``."""

    expected_seq: int = Field(ge=0, le=2**31 - 1, description="The game's last_seq the request was made for.")
    ask: bool = Field(
        False,
        description="When the others must allow it (something hidden was shown since): ask them instead of "
        "answering 422 undo_needs_consent.",
    )


class UndoAnswerIn(StrictIn):
    """Allow or refuse another player's request to take back moves."""

    agree: bool


class ChatIn(StrictIn):
    """A chat line."""

    text: PlainStr = Field(
        min_length=1,
        max_length=500,
        # Something besides spaces (the site strips them), then the one-line rule.
        json_schema_extra={"pattern": "^(?=.*\\S)" + ONE_LINE_PATTERN[1:]},
        description="One line, not only spaces: no line breaks, control or invisible format characters.",
    )


class ChatOut(Schema):
    """A chat line."""

    id: int
    username: str
    name: str
    text: str
    created: datetime


class StreamEventOut(Schema):
    """Something happened in one of the caller's games; read the game for what."""

    id: int = Field(description="The cursor: send the last one seen as ?after=.")
    kind: StreamKind = Field(description="What happened (docs/api.md, “The event stream”).")
    game: int
    seq: int
    data: dict[str, Any]
    created: datetime


class EventsOut(Schema):
    """A page of the caller's event stream."""

    events: list[StreamEventOut]
    cursor: int = Field(description="The id to send as ?after= next time.")
    poll_after: float = Field(
        description="With no events: seconds to wait before asking again (0 when the server itself waited)."
    )


class StandingOut(Schema):
    """A player's standing on one ladder."""

    kind: GameKind
    rating: int | None
    provisional: bool
    games: int
    played: int
    won: int
    lost: int
    forfeited: int


class ProfileOut(Schema):
    """A player's public profile."""

    username: str
    name: str
    bot_account: bool
    standings: list[StandingOut]


class LadderRowOut(Schema):
    """A line of a leaderboard."""

    position: int
    username: str
    name: str
    rating: int
    games: int


class LadderOut(Schema):
    """A page of a leaderboard."""

    kind: GameKind
    page: int
    pages: int
    rows: list[LadderRowOut]
