"""The counter game's new-game options (the ``options`` part, docs/games.md): the target to reach."""

from __future__ import annotations

from typing import Any

from django import forms

from games.forms import GameOptionsForm


class Form(GameOptionsForm):
    """Options for a new counter game: the target total (3 to 100; the engine's default is 10)."""

    fields_template = "counter/new_options.html"

    target = forms.IntegerField(label="Target", min_value=3, max_value=100, initial=10)

    def game_options(self) -> dict[str, Any]:
        """Return ``{"target": n}``, as the counter engine's ``normalize_options`` takes it."""
        return {"target": self.cleaned_data["target"]}
