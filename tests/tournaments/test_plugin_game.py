"""Tournaments reach a game only through the registry (issue 29): the new-tournament form offers every installed
game, the tests' ``counter`` included, and only a game's tournaments part adds fields of its own."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import kinds
from tournaments.forms import TournamentForm
from tournaments.models import Tournament


def _fields(kind: str, **extra: str) -> dict[str, object]:
    now = timezone.localtime(timezone.now() + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    return {
        "name": f"{kind} cup",
        "kind": kind,
        "system": "swiss",
        "players_per_table": 2,
        "rounds": 3,
        "time_per_move": 172800,
        "signup_closes": now,
        "starts": now,
        "max_players": 0,
        "min_games": 0,
        **extra,
    }


def test_the_form_offers_every_installed_game_and_a_games_own_fields_after_it() -> None:
    form = TournamentForm()
    offered = [value for value, _label in form.fields["kind"].choices]  # type: ignore[attr-defined]
    assert offered == kinds.names()
    names = list(form.fields)
    assert names[names.index("kind") + 1] == "kingdom"  # Dominion's part: its kingdom, right after the game
    assert form.game_fields == {"kingdom": "dominion"}


@pytest.mark.django_db
def test_a_counter_tournament_is_made_with_its_engines_defaults_and_a_dominion_one_with_its_kingdom(
    client, moderator
) -> None:
    client.force_login(moderator)
    assert client.post(reverse("tournaments:new"), _fields("counter", kingdom="First Game")).status_code == 302
    assert Tournament.objects.get(name="counter cup").options == {}  # another game's field is not its option
    assert client.post(reverse("tournaments:new"), _fields("dominion", kingdom="First Game")).status_code == 302
    assert Tournament.objects.get(name="dominion cup").options == {"kingdom": "First Game"}
