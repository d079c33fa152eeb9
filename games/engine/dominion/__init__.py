"""Dominion, base set, first edition: see ``shared/rules/dominion.md``.

``engine.ENGINE`` implements ``games.engine.core.Engine``; ``cards`` holds
the card data; ``bots`` the computer players.
"""
