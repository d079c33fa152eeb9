"""Domaine (Klaus Teuber, 2003) rules engine for Herald: pure Python, no I/O.

Modules: ``rules`` (all numbers and house rules), ``board`` (squares, edges,
areas and domains derived from the board), ``cards`` (card data),
``state`` (plain game state), ``actions`` (the rule of each action),
``engine`` (turns, views, the ``ENGINE`` object), ``greedy`` (the greedy
bot's weighted judgement), ``search`` (the search levels), ``bots``,
``scenario`` and ``simulate`` (command-line tools).
"""

from __future__ import annotations
