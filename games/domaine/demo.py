"""Domaine's demo data (the ``demo`` part, docs/games.md): what ``manage.py seed_demo`` plays
when Domaine is the first installed game that has demo data."""

from __future__ import annotations

#: The demo games' options: the engine has none.
OPTIONS: dict[str, object] = {}
#: The bot that makes the demo games' moves.
BOT = "greedy"
