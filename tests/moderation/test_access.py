"""Who reaches the moderation tools: moderators yes, other staff and players no; the trail is read-only."""

from __future__ import annotations

from http import HTTPStatus

import pytest
from django.contrib.auth.models import Group
from django.urls import reverse

from moderation.models import ModerationAction
from tests.conftest import make_game
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def tool_urls(game, user) -> list[str]:
    return [
        reverse("admin:moderation_report_changelist"),
        reverse("admin:games_game_moderate", args=[game.pk]),
        reverse("admin:games_game_full_log", args=[game.pk]),
        reverse("admin:accounts_user_moderate", args=[user.pk]),
        reverse("admin:moderation_moderationaction_changelist"),
    ]


def test_the_moderators_group_is_not_superuser_and_holds_only_view_and_moderation_permissions():
    group = Group.objects.get(name="Moderators")
    codenames = set(group.permissions.values_list("codename", flat=True))
    assert "moderate_games" in codenames and "view_hidden_information" in codenames
    assert not any(c.startswith(("add_", "delete_")) for c in codenames)
    assert {c for c in codenames if c.startswith("change_")} == {"change_report"}


def test_staff_who_are_not_moderators_cannot_reach_the_tools(client, staff, player, opponent, game):
    client.force_login(staff)
    for url in tool_urls(game, player):
        response = client.get(url)
        assert response.status_code == HTTPStatus.FORBIDDEN, url
    response = client.post(reverse("admin:games_game_moderate", args=[game.pk]), {"action": "abort", "reason": "x"})
    assert response.status_code == HTTPStatus.FORBIDDEN
    assert not ModerationAction.objects.exists()


def test_players_are_sent_to_the_admin_sign_in(client, player, game):
    client.force_login(player)
    response = client.get(reverse("admin:games_game_moderate", args=[game.pk]))
    assert response.status_code == HTTPStatus.FOUND
    assert "/admin/login/" in response["Location"]


def test_moderators_reach_every_tool(mod_client, player, game):
    for url in tool_urls(game, player):
        assert mod_client.get(url).status_code == HTTPStatus.OK, url


def test_nobody_can_edit_or_delete_the_audit_trail_from_the_admin(client, moderator, player, game):
    from moderation import services

    services.user_warn(moderator=moderator, user=player, reason="Be nice.")
    row = ModerationAction.objects.get()
    root = UserFactory.create(username="root", is_staff=True, is_superuser=True)
    client.force_login(root)
    change = reverse("admin:moderation_moderationaction_change", args=[row.pk])
    page = client.get(change)
    assert page.status_code == HTTPStatus.OK
    assert b'name="_save"' not in page.content
    assert client.post(change, {"reason": "edited"}).status_code == HTTPStatus.FORBIDDEN
    delete = reverse("admin:moderation_moderationaction_delete", args=[row.pk])
    assert client.post(delete, {"post": "yes"}).status_code == HTTPStatus.FORBIDDEN
    row.refresh_from_db()
    assert row.reason == "Be nice."
    with pytest.raises(ValueError):
        row.save()
    with pytest.raises(ValueError):
        row.delete()


def test_a_finished_game_can_be_found_by_player_name(mod_client, player, opponent):
    game = make_game(player, opponent)
    response = mod_client.get(reverse("admin:games_game_changelist"), {"q": "opponent", "status__exact": "active"})
    assert response.status_code == HTTPStatus.OK
    assert f">{game.pk}<".encode() in response.content
