"""A tournament in a real browser: sign up, see it start, play a move of its game."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import Group, Permission
from django.utils import timezone

from games import services as games
from games.models import Game
from tests.browser.test_flows import sign_in
from tests.factories import UserFactory
from tournaments import moderators, services

pytestmark = pytest.mark.django_db(transaction=True)


def test_sign_up_see_the_start_and_play(browser, live_server, tmp_path):
    moderator = UserFactory.create(is_staff=True)
    group, _new = Group.objects.get_or_create(name="Moderators")
    group.permissions.add(Permission.objects.get(codename="moderate_games", content_type__app_label="moderation"))
    moderator.groups.add(group)
    soon = timezone.now() + timedelta(hours=1)
    t = moderators.tournament_create(
        moderator=moderator,
        name="Browser Cup",
        kind="counter",
        options={"target": 10},
        system="swiss",
        rounds=1,
        signup_closes=soon,
        starts=soon,
        rated=False,
        verified_only=False,
        time_per_move=timedelta(days=1),
    )
    me, other = UserFactory.create(), UserFactory.create()
    services.tournament_signup(tournament_id=t.pk, user=other)
    page = browser.new_page()
    sign_in(page, live_server, me.username)
    page.get_by_role("link", name="Tournaments").click()
    page.get_by_role("link", name="Browser Cup").click()
    page.get_by_role("button", name="Sign up").click()
    page.wait_for_selector("text=You are signed up.")
    assert me.shown_name in page.inner_text("#standings")
    # The beat's tick starts it at its time.
    services.tick(now=soon + timedelta(minutes=1))
    page.reload()
    assert "Round 1" in page.inner_text("main")
    page.screenshot(path=str(tmp_path / "tournament.png"), full_page=True)
    page.get_by_role("link", name=re.compile(r"\(in progress\)$")).click()
    page.wait_for_url(f"{live_server.url}/games/*/")
    game = Game.objects.get(tournament_table__round__tournament=t)
    if game.seats.get(user=me).position != game.to_act[0]:  # the other moves first: they do, elsewhere
        games.game_submit_move(game_id=game.pk, user=other, move={"act": "add", "n": 1}, expected_seq=0)
        page.wait_for_selector("text=Your move.", timeout=15000)
    assert "Your move." in page.inner_text("#game-status")
    page.get_by_role("button", name="add 2", exact=True).click()
    # Not just any log line: the other's first move may already be there.
    page.wait_for_selector("#game-log li:has-text('add (n=2')")
    game.refresh_from_db()
    assert game.actions.filter(seat=game.seats.get(user=me).position).exists()
    page.close()
