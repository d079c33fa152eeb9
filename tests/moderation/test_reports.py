"""Reports: users file them from the game page or a profile, moderators close them, reporters see the outcome."""

from __future__ import annotations

from http import HTTPStatus

import pytest
from django.urls import reverse

from games import services as game_services
from moderation.models import ModerationAction, Report
from tests.conftest import make_game

pytestmark = pytest.mark.django_db


def test_the_game_page_links_to_reporting_a_message_and_a_player(client, game, player, opponent):
    message = game_services.chat_post(game_id=game.pk, user=opponent, text="hi")
    client.force_login(player)
    html = client.get(game.get_absolute_url()).content.decode()
    assert f"{reverse('moderation:report')}?message={message.pk}" in html
    assert f"{reverse('moderation:report')}?user=opponent&amp;game={game.pk}" in html


def test_a_report_reaches_the_queue_and_its_reporter_sees_the_outcome(client, mod_client, game, player, opponent):
    message = game_services.chat_post(game_id=game.pk, user=opponent, text="go away loser")
    game_services.chat_post(game_id=game.pk, user=player, text="before you ask")
    client.force_login(player)
    form = client.get(reverse("moderation:report"), {"message": message.pk})
    assert form.status_code == HTTPStatus.OK and "go away loser" in form.content.decode()
    response = client.post(
        reverse("moderation:report"), {"message": message.pk, "reason": "abusive_chat", "comment": "rude"}
    )
    assert response.status_code == HTTPStatus.FOUND
    report = Report.objects.get()
    assert (report.reporter, report.reported, report.game_id, report.status) == (player, opponent, game.pk, "open")

    queue = mod_client.get(reverse("admin:moderation_report_changelist")).content.decode()
    assert f"/admin/moderation/report/{report.pk}/change/" in queue
    page = mod_client.get(reverse("admin:moderation_report_change", args=[report.pk])).content.decode()
    assert "go away loser" in page and "before you ask" in page  # the message in its context
    assert reverse("admin:games_game_moderate", args=[game.pk]) in page

    mod_client.post(
        reverse("admin:moderation_report_close", args=[report.pk]), {"status": "resolved", "note": "User warned."}
    )
    report.refresh_from_db()
    assert report.status == Report.Status.RESOLVED
    assert ModerationAction.objects.get().action == ModerationAction.Kind.REPORT_RESOLVE

    mine = client.get(reverse("moderation:reports")).content.decode()
    assert "Resolved" in mine and "User warned." in mine


def test_open_reports_come_first_in_the_queue(mod_client, moderator, player, opponent):
    from moderation import services

    old = services.report_create(reporter=player, reported=opponent, reason="stalling")
    services.report_close(moderator=moderator, report_id=old.pk, status="dismissed", note="")
    new = services.report_create(reporter=player, reported=opponent, reason="cheating")
    html = mod_client.get(reverse("admin:moderation_report_changelist")).content.decode()
    assert html.index(f"/report/{new.pk}/change/") < html.index(f"/report/{old.pk}/change/")


def test_a_player_can_be_reported_from_a_profile(client, player, opponent):
    client.force_login(player)
    profile = client.get(opponent.get_absolute_url()).content.decode()
    assert f"{reverse('moderation:report')}?user=opponent" in profile
    client.post(reverse("moderation:report"), {"user": "opponent", "reason": "cheating", "comment": "bot?"})
    assert Report.objects.get().reported == opponent


def test_a_message_of_a_private_game_cannot_be_reported_by_an_outsider(client, player, opponent, outsider):
    game = make_game(player, opponent, private=True)
    message = game_services.chat_post(game_id=game.pk, user=opponent, text="secret")
    client.force_login(outsider)
    assert client.get(reverse("moderation:report"), {"message": message.pk}).status_code == HTTPStatus.NOT_FOUND


def test_reporting_oneself_is_refused(client, player):
    client.force_login(player)
    response = client.post(reverse("moderation:report"), {"user": "player", "reason": "other"})
    assert response.status_code == HTTPStatus.BAD_REQUEST
    assert not Report.objects.exists()


def test_reporting_needs_a_signed_in_user(client, player):
    response = client.get(reverse("moderation:report"), {"user": "player"})
    assert response.status_code == HTTPStatus.FOUND
