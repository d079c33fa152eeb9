"""Account rules: verified email for rated play, blocking, settings, deletion, sign-in limits."""

from __future__ import annotations

import re
from datetime import timedelta
from http import HTTPStatus

import pytest
from allauth.account.models import EmailAddress
from django.urls import reverse

from accounts import selectors
from accounts import services as account_services
from accounts.models import Block, User
from games import services
from games.models import ChatMessage, Game, Invitation
from ratings.models import RatingChange
from ratings.services import rating_update
from tests.accounts.conftest import T0, finished_game
from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db


def new_game(creator, *, rated=False, private=False, invited=(), players=2) -> Game:
    return services.game_create(
        creator=creator,
        kind="counter",
        options={},
        players=players,
        rated=rated,
        private=private,
        invited=invited,
        time_per_move=timedelta(days=1),
    )


# -- verified email -----------------------------------------------------------


def test_unverified_user_cannot_create_a_rated_game():
    user = UserFactory.create(verified=False)
    with pytest.raises(services.InvalidOptions, match="Verify your email"):
        new_game(user, rated=True)
    assert new_game(user, rated=False).pk


def test_unverified_user_cannot_join_a_rated_game(player):
    game = new_game(player, rated=True)
    user = UserFactory.create(verified=False)
    with pytest.raises(services.CannotJoin, match="Verify your email"):
        services.game_join(game_id=game.pk, user=user)
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    assert services.game_join(game_id=game.pk, user=user).is_active


def test_unverified_user_may_join_a_casual_game(player):
    game = new_game(player)
    assert services.game_join(game_id=game.pk, user=UserFactory.create(verified=False)).is_active


def test_only_verified_active_accounts_receive_email():
    verified = UserFactory.create()
    assert selectors.can_receive_email(verified)
    assert not selectors.can_receive_email(UserFactory.create(verified=False))
    account_services.user_delete(user=verified)
    verified.refresh_from_db()
    assert not selectors.can_receive_email(verified)


def test_join_view_shows_the_verified_email_message(client, player):
    game = new_game(player, rated=True)
    user = UserFactory.create(verified=False)
    client.force_login(user)
    response = client.post(reverse("games:join", args=[game.pk]), follow=True)
    assert "Verify your email" in response.content.decode()
    assert not game.seats.filter(user=user).exists()


# -- blocking -------------------------------------------------------------------


def test_a_blocked_user_cannot_join_the_blockers_game(player, opponent):
    account_services.block_create(blocker=player, blocked=opponent)
    game = new_game(player)
    with pytest.raises(services.CannotJoin) as err:
        services.game_join(game_id=game.pk, user=opponent)
    # Blocks are private: the message does not say why.
    assert "block" not in str(err.value).lower()


def test_a_blocked_user_cannot_join_a_game_where_the_blocker_sits(player, opponent, outsider):
    game = new_game(outsider, players=3)
    services.game_join(game_id=game.pk, user=player)
    account_services.block_create(blocker=player, blocked=opponent)
    with pytest.raises(services.CannotJoin):
        services.game_join(game_id=game.pk, user=opponent)


def test_the_blocker_may_still_join_the_blocked_users_game(player, opponent):
    account_services.block_create(blocker=player, blocked=opponent)
    game = new_game(opponent)
    assert services.game_join(game_id=game.pk, user=player).is_active


def test_a_blocked_user_is_not_invited(player, opponent, outsider):
    account_services.block_create(blocker=opponent, blocked=player)
    game = new_game(player, private=True, invited=[opponent, outsider], players=3)
    assert set(Invitation.objects.filter(game=game).values_list("user_id", flat=True)) == {outsider.pk}


def test_chat_from_a_blocked_user_is_hidden_for_the_blocker_only(client, game, player, opponent, outsider):
    services.chat_post(game_id=game.pk, user=opponent, text="hello from opponent")
    account_services.block_create(blocker=player, blocked=opponent)
    client.force_login(player)
    assert "hello from opponent" not in client.get(game.get_absolute_url()).content.decode()
    client.force_login(outsider)
    assert "hello from opponent" in client.get(game.get_absolute_url()).content.decode()
    assert ChatMessage.objects.count() == 1


def test_block_and_unblock_views(client, player, opponent):
    client.force_login(player)
    response = client.post(reverse("accounts:block", args=[opponent.username]))
    assert response.status_code == HTTPStatus.FOUND
    assert Block.objects.filter(blocker=player, blocked=opponent).exists()
    # Idempotent, and listed on the settings page (only the blocker's).
    client.post(reverse("accounts:block", args=[opponent.username]))
    assert Block.objects.count() == 1
    assert opponent.username in client.get(reverse("accounts:settings")).content.decode()
    client.post(reverse("accounts:unblock", args=[opponent.username]))
    assert not Block.objects.exists()


def test_blocking_needs_a_post_and_a_sign_in(client, player, opponent):
    url = reverse("accounts:block", args=[opponent.username])
    assert client.post(url).status_code == HTTPStatus.FOUND  # to the sign-in page
    assert not Block.objects.exists()
    client.force_login(player)
    assert client.get(url).status_code == HTTPStatus.METHOD_NOT_ALLOWED


def test_blocking_yourself_is_refused(player):
    with pytest.raises(account_services.AccountError):
        account_services.block_create(blocker=player, blocked=player)


def test_blocks_are_private(client, player, opponent):
    account_services.block_create(blocker=player, blocked=opponent)
    client.force_login(opponent)
    response = client.get(reverse("accounts:profile", args=[player.username]))
    assert not response.context["i_block"]
    assert "You have blocked" not in response.content.decode()
    client.force_login(player)
    response = client.get(reverse("accounts:profile", args=[opponent.username]))
    assert "You have blocked this player" in response.content.decode()


# -- settings ---------------------------------------------------------------------


def test_settings_save_display_name_language_and_time_zone(client, player):
    client.force_login(player)
    assert client.get(reverse("accounts:settings")).status_code == HTTPStatus.OK
    response = client.post(
        reverse("accounts:settings"),
        {"display_name": "Pat", "language": "zh-hant", "time_zone": "Asia/Taipei"},
    )
    assert response.status_code == HTTPStatus.FOUND
    player.refresh_from_db()
    assert (player.display_name, player.language, player.time_zone) == ("Pat", "zh-hant", "Asia/Taipei")
    assert response.cookies["django_language"].value == "zh-hant"


def test_settings_refuse_an_unknown_time_zone(client, player):
    client.force_login(player)
    response = client.post(reverse("accounts:settings"), {"display_name": "", "language": "", "time_zone": "Mars/Base"})
    assert response.status_code == HTTPStatus.BAD_REQUEST
    player.refresh_from_db()
    assert player.time_zone == "UTC"


def test_settings_need_a_sign_in(client):
    response = client.get(reverse("accounts:settings"))
    assert response.status_code == HTTPStatus.FOUND
    assert reverse("account_login") in response.url


def test_saved_language_wins_over_the_browser(client, player):
    player.language = "zh-hans"
    player.save()
    client.force_login(player)
    response = client.get("/", headers={"accept-language": "en"})
    assert response.headers["Content-Language"] == "zh-hans"


def test_header_language_switch_saves_the_signed_in_users_choice(client, player):
    player.language = "zh-hans"
    player.save()
    client.force_login(player)
    client.post(reverse("accounts:language"), {"language": "en", "next": "/"})
    player.refresh_from_db()
    assert player.language == "en"
    assert client.get("/").headers["Content-Language"] == "en"


def test_times_are_shown_in_the_users_time_zone(client, player, opponent):
    game = finished_game([player, opponent], [1, 2], finished=T0)  # 12:00 UTC
    rating_update(game=game)
    player.time_zone = "Asia/Taipei"
    player.save()
    client.force_login(player)
    html = client.get(reverse("accounts:profile", args=[player.username])).content.decode()
    assert "2025-01-01T20:00:00+08:00" in html


def test_email_change_is_allauths_page(client, player):
    client.force_login(player)
    assert client.get(reverse("account_email")).status_code == HTTPStatus.OK


# -- deletion ---------------------------------------------------------------------


def test_delete_account_keeps_games_and_shows_deleted_player(client, player, opponent):
    game = finished_game([player, opponent], [1, 2], finished=T0)
    rating_update(game=game)
    open_game = new_game(player)
    client.force_login(player)
    assert client.get(reverse("accounts:delete")).status_code == HTTPStatus.OK
    response = client.post(reverse("accounts:delete"), {"password": PASSWORD, "confirm": "on"})
    assert response.status_code == HTTPStatus.FOUND
    assert "_auth_user_id" not in client.session
    player.refresh_from_db()
    assert player.deleted is not None and not player.is_active
    assert player.email == "" and not player.has_usable_password()
    assert not EmailAddress.objects.filter(user=player).exists()
    assert str(game.seats.get(user=player).name) == "deleted player"
    assert RatingChange.objects.filter(user=player).count() == 1
    open_game.refresh_from_db()
    assert open_game.status == Game.Status.ABORTED
    # The old username is free again; sign-in with the old password fails.
    assert not User.objects.filter(username="player").exists()


def test_delete_account_needs_the_password(client, player):
    client.force_login(player)
    response = client.post(reverse("accounts:delete"), {"password": "wrong", "confirm": "on"})
    assert response.status_code == HTTPStatus.BAD_REQUEST
    player.refresh_from_db()
    assert player.deleted is None


# -- sign-in rate limit -------------------------------------------------------------


def test_sign_in_is_locked_after_repeated_failures(client, settings):
    settings.AXES_FAILURE_LIMIT = 3
    UserFactory.create(username="erin")
    for _ in range(3):
        client.post(reverse("account_login"), {"login": "erin", "password": "wrong"})
    response = client.post(reverse("account_login"), {"login": "erin", "password": PASSWORD})
    assert response.status_code == HTTPStatus.TOO_MANY_REQUESTS
    assert "_auth_user_id" not in client.session
    assert "Too many" in response.content.decode()


def _sign_in(client, login, password):
    return client.post(reverse("account_login"), {"login": login, "password": password})


@pytest.mark.parametrize(
    ("failing_with", "then_with"),
    [
        ("victim1", "victim1@example.com"),  # the attack run's case
        ("victim1@example.com", "victim1"),
        ("Victim1@Example.COM", "victim1"),
        ("victim1", "VICTIM1@example.com"),
    ],
)
def test_the_sign_in_lockout_is_per_account_whatever_name_it_is_typed_as(client, settings, failing_with, then_with):
    """Locked by username, refused by email with the right password, and the reverse."""
    settings.AXES_FAILURE_LIMIT = 3
    UserFactory.create(username="victim1", email="victim1@example.com")
    for _ in range(3):
        _sign_in(client, failing_with, "wrong")
    response = _sign_in(client, then_with, PASSWORD)
    assert response.status_code == HTTPStatus.TOO_MANY_REQUESTS
    assert "Too many sign-in attempts" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_failures_on_one_account_do_not_lock_another(client, settings):
    settings.AXES_FAILURE_LIMIT = 3
    UserFactory.create(username="victim1", email="victim1@example.com")
    other = UserFactory.create(username="victim2", email="victim2@example.com")
    for _ in range(3):
        _sign_in(client, "victim1@example.com", "wrong")
    response = _sign_in(client, "victim2@example.com", PASSWORD)
    assert response.status_code == HTTPStatus.FOUND
    assert client.session["_auth_user_id"] == str(other.pk)


def test_failures_for_an_address_with_no_account_count_under_that_address(client, settings):
    settings.AXES_FAILURE_LIMIT = 3
    for _ in range(3):
        _sign_in(client, "nobody@example.com", "wrong")
    assert _sign_in(client, "NOBODY@example.com", "wrong").status_code == HTTPStatus.TOO_MANY_REQUESTS


def test_email_change_takes_effect_only_once_the_new_address_is_verified(client, player):
    from allauth.account.models import EmailConfirmationHMAC
    from django.core import mail

    client.force_login(player)
    response = client.post(reverse("account_email"), {"action_add": "", "email": "new@example.com"})
    assert response.status_code == HTTPStatus.FOUND
    assert mail.outbox[-1].to == ["new@example.com"]
    player.refresh_from_db()
    assert player.email == "player@example.com"
    assert selectors.has_verified_email(player)  # still the old, verified address

    pending = EmailAddress.objects.get(email="new@example.com")
    key = EmailConfirmationHMAC(pending).key
    client.post(reverse("account_confirm_email", args=[key]))
    player.refresh_from_db()
    assert player.email == "new@example.com"
    assert selectors.has_verified_email(player)
    assert list(EmailAddress.objects.filter(user=player).values_list("email", flat=True)) == ["new@example.com"]


def test_the_settings_fields_point_screen_readers_at_their_help_text(client):
    """Each aria-describedby on the settings page names an element that is there (its help text)."""
    client.force_login(UserFactory.create())
    page = client.get(reverse("accounts:settings")).content.decode()
    described = re.findall(r'aria-describedby="([^"]+)"', page)
    assert "id_display_name_helptext" in described and "id_time_zone_helptext" in described
    for target in described:
        assert f'id="{target}"' in page, f"{target} is described by nothing"
