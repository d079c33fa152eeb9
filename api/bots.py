"""The API's bots: each game's bot levels and how strong each was measured (``GET /bots``, docs/bots.md)."""

from __future__ import annotations

from typing import Any

from ninja import Field, Router, Schema

from api.auth import READ
from api.schemas import ProblemOut
from games import kinds
from ratings.botladder import bot_ladders

router = Router()


class BotLevelOut(Schema):
    """One bot level of one game: give its ``bot`` name in ``bots`` when creating a game."""

    kind: str = Field(description="The game.")
    bot: str = Field(description="The bot's name, for a game's ``bots``: level1 (weakest) to level5 (strongest).")
    level: int = Field(description="The level's number, 1 (beginner) to 5 (expert).")
    label: str = Field(description="The level as the site names it, in the request's language.")
    rating: int | None = Field(description="Its rating, measured by the bots' ladder; null until measured.")
    games: int = Field(description="Games it played in the last ladder run (0 until measured).")
    win_rate: float | None = Field(description="Its share of wins (a draw counts half) in those games, 0 to 1.")
    ms_per_move: float | None = Field(description="Its mean CPU time per move in those games, milliseconds.")


@router.get(
    "/bots",
    response={200: list[BotLevelOut], 401: ProblemOut, 403: ProblemOut, 429: ProblemOut},
    auth=READ,
    tags=["games"],
)
def bot_levels(request: Any) -> list[dict[str, Any]]:
    """Every installed game's bot levels, weakest first, with their strength as last measured (``/bots/`` page)."""
    out = []
    for ladder in bot_ladders():
        rows = {row.level: row for row in ladder.rows}
        for number, bot in enumerate(ladder.kind.bot_levels, start=1):
            row = rows.get(bot)
            out.append(
                {
                    "kind": ladder.kind.name,
                    "bot": bot,
                    "level": number,
                    "label": kinds.level_label(bot),
                    "rating": row.rating if row else None,
                    "games": row.games if row else 0,
                    "win_rate": round(row.win_rate, 4) if row else None,
                    "ms_per_move": round(row.ms_per_move, 1) if row else None,
                }
            )
    return out
