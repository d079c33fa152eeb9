"""HTTP behaviour a browser or a monitor relies on: HEAD answers, live pages are never served from history."""

from __future__ import annotations

from http import HTTPStatus

import pytest
from django.urls import reverse

from tests.conftest import make_game

pytestmark = pytest.mark.usefixtures("site_test")


def test_head_answers_like_get_on_pages(client, player, opponent):
    """Monitors and link previews send HEAD; a page that answers GET must not refuse it with 405."""
    game = make_game(player, opponent)
    client.force_login(player)
    for url in [
        reverse("games:lobby"),
        reverse("games:detail", args=[game.pk]),
        reverse("accounts:profile", args=[player.username]),
        reverse("ratings:ladder", args=["dominion"]),
    ]:
        response = client.head(url)
        assert response.status_code == HTTPStatus.OK, url
        assert response.content == b"", url


def test_the_game_page_and_lobby_are_never_shown_from_the_browser_cache(client, player, opponent):
    """Back then Forward must not show a position that has since moved on (its forms would be stale)."""
    game = make_game(player, opponent)
    client.force_login(player)
    for url in [reverse("games:lobby"), reverse("games:detail", args=[game.pk])]:
        cache_control = client.get(url)["Cache-Control"]
        assert "no-store" in cache_control and "private" in cache_control, url


def test_a_visitor_reading_a_public_chat_is_shown_how_to_join_in(client, player, opponent):
    game = make_game(player, opponent)
    page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert f'href="/accounts/login/?next=/games/{game.pk}/">Sign in</a> to write here.' in page
    assert 'id="chat-text"' not in page
