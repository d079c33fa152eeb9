"""Dominion's part of tournaments (``tournaments.forms``): the kingdom every table of a tournament plays.

A moderator chooses a random kingdom (drawn once per round, so a round is
fair across tables) or a recommended set.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games.dominion.eventtext import kingdom_set_name
from games.engine.dominion.cards import RECOMMENDED_SETS


def _kingdom_choices() -> list[tuple[str, str]]:
    """Random, then each recommended set in the reader's language (a callable: drawn when the form is shown)."""
    return [("random", str(_("Random"))), *((n, kingdom_set_name(n)) for n in RECOMMENDED_SETS)]


def fields() -> dict[str, forms.Field]:
    """The new-tournament form's fields for Dominion: the kingdom (left empty: random)."""
    return {"kingdom": forms.ChoiceField(label=_("Dominion kingdom"), required=False, choices=_kingdom_choices)}


def options(data: dict[str, Any]) -> dict[str, Any]:
    """The tournament's engine options from its cleaned ``fields``: ``{"kingdom": "random" or a set's name}``."""
    return {"kingdom": data.get("kingdom") or "random"}
