"""Dominion's demo data (the ``demo`` part, docs/games.md): what ``manage.py seed_demo`` plays."""

from __future__ import annotations

#: The demo games' options: the rules' recommended first kingdom, which a newcomer's first game uses too.
OPTIONS = {"kingdom": "First Game"}
#: The bot that makes the demo games' moves: two Big Money players finish a game in about 300 moves.
BOT = "big_money"
