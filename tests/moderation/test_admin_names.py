"""The moderators' admin reads as the site does: seats from 1, one title, distinct sections, no bulk delete."""

from __future__ import annotations

from http import HTTPStatus

import pytest
from django.urls import reverse

from games.models import Game, Seat
from moderation.forms import GameActionForm
from tests.conftest import make_game
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_a_moderator_types_and_reads_seats_numbered_from_1(mod_client, game):
    form = GameActionForm({"action": "forfeit", "position": "2", "reason": "abuse"})
    assert form.is_valid() and form.cleaned_data["position"] == 1  # stored positions are 0-based
    assert not GameActionForm({"action": "forfeit", "position": "0", "reason": "x"}).is_valid()
    page = mod_client.get(reverse("admin:games_game_moderate", args=[game.pk])).content.decode()
    assert "<tr><td>1</td>" in page and "<tr><td>2</td>" in page and "<tr><td>0</td>" not in page
    # Its title once (the admin's own heading), not twice.
    assert page.count(f"Moderate game #{game.pk}</h1>") == 1


def test_forfeiting_seat_2_forfeits_the_second_seat(mod_client, game):
    mod_client.post(
        reverse("admin:games_game_moderate", args=[game.pk]), {"action": "forfeit", "position": "2", "reason": "x"}
    )
    assert Seat.objects.get(game=game, position=1).forfeited
    assert not Seat.objects.get(game=game, position=0).forfeited


def test_games_cannot_be_deleted_in_the_admin_only_aborted(client, player, opponent):
    admin = UserFactory.create(is_staff=True, is_superuser=True)
    client.force_login(admin)
    game = make_game(player, opponent)
    changelist = client.get(reverse("admin:games_game_changelist")).content.decode()
    assert "delete_selected" not in changelist
    response = client.post(reverse("admin:games_game_delete", args=[game.pk]), {"post": "yes"})
    assert response.status_code == HTTPStatus.FORBIDDEN
    assert Game.objects.filter(pk=game.pk).exists()


def test_the_admin_sections_and_names_read_right(client):
    admin = UserFactory.create(is_staff=True, is_superuser=True)
    client.force_login(admin)
    index = client.get(reverse("admin:index")).content.decode()
    assert "Notification settingss" not in index and "Notification settings" in index
    assert index.count(">Accounts<") <= 1 and "Players" in index
