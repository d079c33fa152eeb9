"""Cache-Control: a signed-in user's pages are private and not stored; public pages stay cacheable."""

from __future__ import annotations

from http import HTTPStatus

import pytest
from allauth.account.models import EmailAddress, EmailConfirmationHMAC
from django.conf import settings
from django.urls import reverse

from accounts.models import User
from correspondence import services as outbox
from games import services
from tests.conftest import make_game, user_to_move
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _site(site_test: None) -> None:
    """The fake engine and a clean cache."""


def finish(game):
    while game.is_active:
        services.game_submit_move(
            game_id=game.pk, user=user_to_move(game), move={"act": "add", "n": 2}, expected_seq=game.last_seq
        )
        game.refresh_from_db()
    return game


def test_a_signed_in_users_pages_are_private_and_not_stored(client, player, opponent):
    game = finish(make_game(player, opponent))
    client.force_login(player)
    for path in [
        reverse("accounts:settings"),
        reverse("correspondence:settings"),
        reverse("games:poll", kwargs={"game_id": game.pk}) + f"?seq={game.last_seq}",
        reverse("games:record", kwargs={"game_id": game.pk}),
        reverse("accounts:profile", kwargs={"username": "opponent"}),
        reverse("ratings:ladder", kwargs={"kind": "counter"}),
        "/no-such-page/",
    ]:
        response = client.get(path)
        assert response.status_code < HTTPStatus.INTERNAL_SERVER_ERROR, path
        assert response["Cache-Control"] == "private, no-store", path


def test_a_view_that_sets_its_own_cache_control_keeps_it(client, player, opponent):
    game = make_game(player, opponent)
    client.force_login(player)
    for path in [reverse("games:lobby"), reverse("games:detail", kwargs={"game_id": game.pk})]:
        header = client.get(path)["Cache-Control"]
        assert "no-store" in header and "max-age=0" in header  # never_cache's, not overwritten


def test_public_pages_for_anonymous_visitors_stay_cacheable(client, player, opponent):
    game = finish(make_game(player, opponent))
    for path in [
        reverse("ratings:ladder", kwargs={"kind": "counter"}),
        reverse("games:record", kwargs={"game_id": game.pk}),
    ]:
        response = client.get(path)
        assert response.status_code == HTTPStatus.OK, path
        assert not response.has_header("Cache-Control"), path
        assert "Cookie" in response["Vary"]  # a cache keys them on the cookie all the same


def test_the_poll_is_never_stored_even_for_spectators(client, player, opponent):
    game = make_game(player, opponent)
    response = client.get(reverse("games:poll", kwargs={"game_id": game.pk}), {"seq": game.last_seq})
    assert response.status_code == HTTPStatus.NO_CONTENT
    assert response["Cache-Control"] == "no-store"


def test_the_unsubscribe_page_is_private_without_a_sign_in(client):
    user = UserFactory.create()
    token = outbox.unsubscribe_token(user, "chat")
    response = client.get(reverse("correspondence:unsubscribe", kwargs={"token": token}))
    assert response.status_code == HTTPStatus.OK
    assert response["Cache-Control"] == "private, no-store"


def test_the_email_confirmation_page_is_private_without_a_sign_in(client):
    """Like the unsubscribe page: its link comes from an email, is opened signed out, and the page
    names the account's email address and username and holds the key (allauth's ConfirmEmailView)."""
    user = UserFactory.create(username="newcomer", email="newcomer@example.com")
    address = EmailAddress.objects.get_or_create(user=user, email=user.email)[0]
    EmailAddress.objects.filter(pk=address.pk).update(verified=False)
    key = EmailConfirmationHMAC(EmailAddress.objects.get(pk=address.pk)).key
    response = client.get(reverse("account_confirm_email", kwargs={"key": key}))
    assert response.status_code == HTTPStatus.OK
    assert "newcomer@example.com" in response.content.decode()
    assert response["Cache-Control"] == "private, no-store"


def test_static_files_are_answered_before_the_private_cache_middleware():
    """WhiteNoise answers static files itself, so what it sends (a long public max-age) is never touched."""
    order = settings.MIDDLEWARE
    assert order.index("whitenoise.middleware.WhiteNoiseMiddleware") < order.index("ops.middleware.private_cache")


def test_an_unsubscribe_link_signed_with_the_old_key_still_works_after_a_rotation(client, settings):
    """The links never expire (README): rotating SECRET_KEY keeps them while the old key is a fallback."""
    user = UserFactory.create()
    old_key = settings.SECRET_KEY
    assert outbox.settings_for(user).game_over is True
    token = outbox.unsubscribe_token(user, "game_over")
    settings.SECRET_KEY, settings.SECRET_KEY_FALLBACKS = "a-new-key-" + "x" * 50, [old_key]
    response = client.post(reverse("correspondence:unsubscribe", kwargs={"token": token}))
    assert response.status_code == HTTPStatus.OK
    assert outbox.settings_for(User.objects.get(pk=user.pk)).game_over is False
    settings.SECRET_KEY_FALLBACKS = []
    assert client.post(reverse("correspondence:unsubscribe", kwargs={"token": token})).status_code == 400
