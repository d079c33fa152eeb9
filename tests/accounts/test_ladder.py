"""The leaderboard: listed players, hidden provisional and inactive ones, pages, your own place."""

from __future__ import annotations

from datetime import timedelta
from http import HTTPStatus

import pytest
from django.urls import reverse
from django.utils import timezone

from ratings import selectors
from ratings.models import Rating
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def rate(user, *, mu=25.0, sigma=3.0, games=10, days_ago=1, kind="counter") -> Rating:
    """Give ``user`` a rating row directly (the update itself is tested elsewhere)."""
    return Rating.objects.create(
        user=user, kind=kind, mu=mu, sigma=sigma, games=games, last_played=timezone.now() - timedelta(days=days_ago)
    )


def test_ladder_hides_provisional_and_inactive_players():
    listed = UserFactory.create(username="listed")
    provisional = UserFactory.create(username="newbie")
    inactive = UserFactory.create(username="gone")
    rate(listed)
    rate(provisional, mu=40, games=4)
    rate(inactive, mu=40, days_ago=91)
    board = selectors.ladder(kind="counter", now=timezone.now())
    assert [r.user.username for r in board.page] == ["listed"]


def test_ladder_hides_deleted_accounts():
    gone = UserFactory.create(is_active=False)
    rate(gone)
    assert list(selectors.ladder(kind="counter", now=timezone.now()).page) == []


def test_ladder_sorts_by_displayed_rating_with_inactivity():
    steady = UserFactory.create(username="steady")
    idle = UserFactory.create(username="idle")
    rate(steady, mu=30, sigma=2.0, days_ago=1)
    # Same mu and sigma, but 80 days idle: sigma has grown, so the cautious rating is lower.
    rate(idle, mu=30, sigma=2.0, days_ago=80)
    rows = list(selectors.ladder(kind="counter", now=timezone.now()).page)
    assert [r.user.username for r in rows] == ["steady", "idle"]
    assert rows[0].rating > rows[1].rating


def test_ladder_page_lists_rank_player_rating_games(client):
    user = UserFactory.create(username="zed", display_name="Zed the Great")
    rate(user, games=12)
    response = client.get(reverse("ratings:ladder", args=["counter"]))
    assert response.status_code == HTTPStatus.OK
    html = response.content.decode()
    assert "Zed the Great" in html
    assert ">12<" in html
    assert reverse("accounts:profile", args=["zed"]) in html


def test_own_position_is_shown_even_off_the_page(client):
    users = UserFactory.create_batch(selectors.LADDER_PAGE_SIZE + 3)
    for i, u in enumerate(users):
        rate(u, mu=50 - i * 0.1)
    me = users[-1]
    client.force_login(me)
    response = client.get(reverse("ratings:ladder", args=["counter"]))
    assert response.context["board"].mine.position == selectors.LADDER_PAGE_SIZE + 3
    assert not response.context["mine_on_page"]
    html = response.content.decode()
    assert 'class="me"' in html
    assert "?page=2" in html
    page2 = client.get(reverse("ratings:ladder", args=["counter"]), {"page": 2})
    assert page2.context["mine_on_page"]
    assert len(page2.context["board"].page) == 3


def test_a_provisional_viewer_is_told_why_they_are_not_listed(client):
    me = UserFactory.create()
    rate(me, games=2)
    client.force_login(me)
    response = client.get(reverse("ratings:ladder", args=["counter"]))
    assert response.context["board"].my_status == "provisional"
    assert "provisional" in response.content.decode()


def test_unknown_ladder_is_404(client):
    assert client.get(reverse("ratings:ladder", args=["chess"])).status_code == HTTPStatus.NOT_FOUND


def test_ladder_index_redirects_to_a_game(client):
    response = client.get(reverse("ratings:index"))
    assert response.status_code == HTTPStatus.FOUND


def test_ladder_refuses_post(client):
    assert client.post(reverse("ratings:ladder", args=["counter"])).status_code == HTTPStatus.METHOD_NOT_ALLOWED


def test_admin_lists_ratings_read_only(admin_client):
    rate(UserFactory.create())
    assert admin_client.get(reverse("admin:ratings_rating_changelist")).status_code == HTTPStatus.OK
    assert admin_client.get(reverse("admin:ratings_rating_add")).status_code == HTTPStatus.FORBIDDEN
    assert admin_client.get(reverse("admin:accounts_block_changelist")).status_code == HTTPStatus.OK
