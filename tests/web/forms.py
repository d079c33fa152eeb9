"""The new-game form as a browser posts it, for the page tests."""

from __future__ import annotations


def new_game_fields(**over: str) -> dict[str, str]:
    """The fields every game's new-game form has, filled as by a player who changed nothing; ``over`` replaces some
    or adds a game's own (counter's ``target``, Dominion's ``kingdom``)."""
    data = {
        "players": "2",
        "time_per_move": str(3600 * 12),
        "rated": "casual",
        "visibility": "open",
        "invited": "",
        "seat_2": "",
        "seat_3": "",
        "seat_4": "",
    }
    data.update(over)
    return data
