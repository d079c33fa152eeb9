"""Moderators' actions on users and chat: ban (sign-in, moves, the forfeit sweep), temporary ban, mute, warn, hide."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from http import HTTPStatus

import pytest
import time_machine
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from games import services as game_services
from games.models import ChatMessage, Game
from moderation import services
from moderation.models import ModerationAction, Restriction
from moderation.selectors import is_banned
from moderation.tasks import forfeit_banned_seats
from tests.conftest import user_to_move
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db

Kind = ModerationAction.Kind


def act_on(client, user, **data):
    return client.post(reverse("admin:accounts_user_moderate", args=[user.pk]), {"reason": "because", **data})


def sign_in(client, user):
    return client.post(reverse("account_login"), {"login": user.username, "password": PASSWORD})


def test_a_banned_user_is_refused_sign_in_with_a_clear_page(client, mod_client, player):
    act_on(mod_client, player, action="ban")
    mod_client.logout()

    response = sign_in(client, player)

    assert response.status_code == HTTPStatus.FOUND
    assert response["Location"] == reverse("moderation:banned")
    page = client.get(response["Location"])
    assert "suspended" in page.content.decode()
    assert "_auth_user_id" not in client.session
    action = ModerationAction.objects.get()
    assert (action.action, action.user) == (Kind.USER_BAN, player)


def test_a_signed_in_user_who_gets_banned_is_signed_out_on_the_next_request(client, moderator, player):
    client.force_login(player)
    services.user_ban(moderator=moderator, user=player, reason="abuse")
    response = client.get(reverse("games:lobby"))
    assert response.status_code == HTTPStatus.FOUND
    assert response["Location"] == reverse("moderation:banned")
    assert "_auth_user_id" not in client.session


def test_a_banned_user_cannot_move_or_chat_through_the_services(moderator, game):
    mover = user_to_move(game)
    services.user_ban(moderator=moderator, user=mover, reason="abuse")
    with pytest.raises(game_services.AccountRestricted):
        game_services.game_submit_move(game_id=game.pk, user=mover, move={"act": "add", "n": 1}, expected_seq=0)
    with pytest.raises(game_services.ChatRefused):
        game_services.chat_post(game_id=game.pk, user=mover, text="hello")
    assert game.actions.count() == 0


def test_the_sweep_forfeits_a_banned_players_running_seats(moderator, game):
    mover = user_to_move(game)
    services.user_ban(moderator=moderator, user=mover, reason="abuse")
    assert forfeit_banned_seats.delay().get() == 1
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.seats.get(user=mover).forfeited
    forfeit = ModerationAction.objects.get(action=Kind.SEAT_FORFEIT)
    assert forfeit.moderator is None and forfeit.user == mover
    assert forfeit_banned_seats.delay().get() == 0


def test_a_temporary_ban_ends_by_itself(client, moderator, player):
    until = timezone.now() + timedelta(days=2)
    services.user_ban(moderator=moderator, user=player, reason="cool off", until=until)
    assert is_banned(player)
    with time_machine.travel(until + timedelta(minutes=1)):
        from django.core.cache import cache

        cache.clear()
        assert not is_banned(player)
        response = sign_in(client, player)
        assert response.status_code == HTTPStatus.FOUND
        assert response["Location"] != reverse("moderation:banned")


def test_lifting_a_ban_lets_the_user_back(moderator, player):
    services.user_ban(moderator=moderator, user=player, reason="oops")
    services.user_unban(moderator=moderator, user=player, reason="mistake")
    assert not is_banned(player)
    assert list(ModerationAction.objects.values_list("action", flat=True).order_by("pk")) == [
        Kind.USER_BAN,
        Kind.USER_UNBAN,
    ]


def test_a_muted_user_cannot_post_chat_but_can_move(client, mod_client, game):
    mover = user_to_move(game)
    act_on(mod_client, mover, action="mute")
    assert ModerationAction.objects.get().action == Kind.USER_MUTE
    client.force_login(mover)
    response = client.post(reverse("games:chat", args=[game.pk]), {"text": "you all stink"}, HTTP_HX_REQUEST="true")
    assert response.status_code == HTTPStatus.BAD_REQUEST
    assert not ChatMessage.objects.exists()
    page = client.get(game.get_absolute_url())
    assert 'id="chat-text"' not in page.content.decode()  # no chat form (the notes form also has a "text" field)
    game_services.game_submit_move(game_id=game.pk, user=mover, move={"act": "add", "n": 1}, expected_seq=0)


def test_a_warning_is_shown_once_on_the_next_visit_and_emailed(
    client, mod_client, player, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        act_on(mod_client, player, action="warn", reason="Mind your language.")
    assert ModerationAction.objects.get().action == Kind.USER_WARN
    assert [m.to for m in mail.outbox] == [[player.email]]
    assert "Mind your language." in mail.outbox[0].body
    client.force_login(player)
    first = client.get(reverse("games:lobby")).content.decode()
    assert "Mind your language." in first
    second = client.get(reverse("games:lobby")).content.decode()
    assert "Mind your language." not in second


def test_no_email_to_an_unverified_address(moderator, django_capture_on_commit_callbacks):
    from tests.factories import UserFactory

    user = UserFactory.create(verified=False)
    with django_capture_on_commit_callbacks(execute=True):
        services.user_warn(moderator=moderator, user=user, reason="Careful.")
    assert mail.outbox == []
    assert user.moderation_notices.count() == 1


def test_a_hidden_message_is_kept_shown_to_moderators_only(client, mod_client, moderator, game, player, opponent):
    message = game_services.chat_post(game_id=game.pk, user=opponent, text="something nasty")
    mod_client.post(
        reverse("admin:games_chatmessage_changelist"),
        {"action": "hide_messages", "_selected_action": [message.pk], "apply": "1", "reason": "abuse"},
    )
    action = ModerationAction.objects.get()
    assert (action.action, action.message, action.user) == (Kind.CHAT_HIDE, message, opponent)
    assert ChatMessage.objects.filter(pk=message.pk).exists()

    client.force_login(player)
    assert "something nasty" not in client.get(game.get_absolute_url()).content.decode()
    moderator_page = mod_client.get(game.get_absolute_url()).content.decode()
    assert "something nasty" in moderator_page and "hidden by a moderator" in moderator_page


def test_a_moderator_cannot_ban_themselves(moderator):
    with pytest.raises(services.ModerationError):
        services.user_ban(moderator=moderator, user=moderator, reason="x")
    assert not Restriction.objects.exists()


def test_a_temporary_ban_from_the_admin_is_emailed_with_its_end(mod_client, player, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        act_on(mod_client, player, action="ban", until="2030-01-02 03:04:00", reason="Spamming chat.")
    ban = Restriction.objects.get()
    assert ban.end.astimezone(UTC) == datetime(2030, 1, 2, 3, 4, tzinfo=UTC)
    assert ModerationAction.objects.get().data == {"until": ban.end.isoformat()}
    [email] = mail.outbox
    assert email.to == [player.email]
    assert "2030-01-02 03:04" in email.body and "Spamming chat." in email.body


def test_without_celery_beat_the_request_sweep_forfeits_a_banned_players_seats(moderator, game, settings):
    """`make run` without Redis has no beat: the sweep run from page requests must do it."""
    from django.core.cache import cache

    from correspondence.services import sweep_on_request

    settings.HERALD_SWEEP_ON_REQUEST = True
    cache.delete("herald:request-sweep")
    mover = user_to_move(game)
    services.user_ban(moderator=moderator, user=mover, reason="abuse")
    sweep_on_request()
    assert game.seats.get(user=mover).forfeited
