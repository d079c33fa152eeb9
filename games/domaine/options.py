"""Domaine's new-game options (the ``options`` part, docs/games.md): only the shared ones, and its bots."""

from __future__ import annotations

from games.forms import GameOptionsForm


class Form(GameOptionsForm):
    """Options for a new Domaine game: the common ones (the engine has no options yet); its bots are its levels."""
