"""The tournament pages: list, tournament page and its standings, sign-up, withdraw, moderators' forms."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import services as games
from moderation.models import ModerationAction
from tests.factories import UserFactory
from tests.tournaments.conftest import later, make_tournament
from tournaments import moderators, services
from tournaments.models import Entry, Table, Tournament


@pytest.mark.django_db
def test_the_list_shows_tournaments_by_state(client, moderator):
    make_tournament(moderator, name="Open Cup")
    running = make_tournament(moderator, name="Busy Cup")
    Tournament.objects.filter(pk=running.pk).update(status="running", current_round=1)
    page = client.get(reverse("tournaments:list")).content.decode()
    assert "Open Cup" in page and "Busy Cup" in page
    assert page.index("Open Cup") < page.index("Busy Cup")


@pytest.mark.django_db
def test_sign_up_and_cancel_from_the_page(client, moderator):
    t = make_tournament(moderator)
    user = UserFactory.create()
    client.force_login(user)
    page = client.get(t.get_absolute_url()).content.decode()
    assert "Sign up" in page
    client.post(reverse("tournaments:signup", args=[t.pk]))
    assert Entry.objects.filter(tournament=t, user=user).exists()
    page = client.get(t.get_absolute_url()).content.decode()
    assert "You are signed up." in page and user.shown_name in page
    client.post(reverse("tournaments:withdraw", args=[t.pk]), {"confirm": "yes"})
    assert not Entry.objects.filter(tournament=t, user=user).exists()


@pytest.mark.django_db
def test_a_refused_sign_up_says_why_and_changes_nothing(client, moderator):
    t = make_tournament(moderator, signup_closes=timezone.now() - timedelta(minutes=1))
    client.force_login(UserFactory.create())
    response = client.post(reverse("tournaments:signup", args=[t.pk]), follow=True)
    assert "Sign-up for this tournament is closed." in response.content.decode()
    assert not Entry.objects.exists()
    assert client.post(reverse("tournaments:signup", args=[999])).status_code == 404


@pytest.mark.django_db(transaction=True)
def test_the_running_tournament_page_shows_standings_rounds_and_games(client, moderator):
    t = make_tournament(moderator, rounds=2)
    users = [UserFactory.create() for _ in range(3)]
    for u in users:
        services.tournament_signup(tournament_id=t.pk, user=u)
    services.tick(now=later())
    client.force_login(users[0])
    page = client.get(t.get_absolute_url()).content.decode()
    assert "Standings" in page and "Round 1" in page and "bye" in page
    game = Table.objects.filter(round__tournament=t, game__isnull=False).first().game
    assert game.get_absolute_url() in page
    assert 'hx-trigger="every 30s"' in page
    partial = client.get(reverse("tournaments:standings", args=[t.pk]), HTTP_HX_REQUEST="true")
    assert partial.status_code == 200 and "<html" not in partial.content.decode()
    assert users[1].shown_name in partial.content.decode()
    # Withdrawing needs the box ticked.
    client.post(reverse("tournaments:withdraw", args=[t.pk]))
    assert Entry.objects.get(tournament=t, user=users[0]).withdrawn is None
    client.post(reverse("tournaments:withdraw", args=[t.pk]), {"confirm": "yes"})
    assert Entry.objects.get(tournament=t, user=users[0]).withdrawn is not None


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("zh-hans", ["报名", "锦标赛", "瑞士制", "还没有人报名。"]),
        ("zh-hant", ["報名", "錦標賽", "瑞士制", "還沒有人報名。"]),
    ],
)
def test_the_pages_in_chinese(client, moderator, language, words):
    t = make_tournament(moderator, kind="dominion", options={})
    client.force_login(UserFactory.create(language=language))
    page = client.get(t.get_absolute_url()).content.decode()
    listing = client.get(reverse("tournaments:list")).content.decode()
    for word in words:
        assert word in page
    assert "Sign up" not in page and "Standings" not in page and "Players" not in page
    assert "Open for sign-up" not in listing and ("锦标赛" in listing or "錦標賽" in listing)


@pytest.mark.django_db
def test_only_moderators_create_and_their_actions_are_audited(client, moderator):
    client.force_login(UserFactory.create())
    assert client.get(reverse("tournaments:new")).status_code == 403
    client.force_login(moderator)
    assert client.get(reverse("tournaments:new")).status_code == 200
    now = timezone.localtime(timezone.now() + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    response = client.post(
        reverse("tournaments:new"),
        {
            "name": "Winter Swiss",
            "kind": "dominion",
            "kingdom": "random",
            "system": "swiss",
            "players_per_table": 2,
            "rounds": 5,
            "time_per_move": 172800,
            "rated": "on",
            "signup_closes": now,
            "starts": now,
            "max_players": 0,
            "min_games": 0,
        },
    )
    t = Tournament.objects.get(name="Winter Swiss")
    assert response.status_code == 302 and t.options == {"kingdom": "random"}
    bad = client.post(reverse("tournaments:new"), {"name": "x", "kind": "dominion", "system": "multi_table"})
    assert bad.status_code == 400
    client.post(reverse("tournaments:cancel", args=[t.pk]), {"reason": "too few"})
    t.refresh_from_db()
    assert t.status == "cancelled"
    assert ModerationAction.objects.filter(action="tournament_cancel", reason="too few").exists()


@pytest.mark.django_db
def test_malformed_requests_are_4xx_and_change_nothing(client, moderator):
    t = make_tournament(moderator)
    client.force_login(moderator)
    assert client.post(reverse("tournaments:withdraw", args=[t.pk + 99]), {"confirm": "yes"}).status_code == 404
    assert client.get(reverse("tournaments:detail", args=[t.pk + 99])).status_code == 404
    assert client.get(reverse("tournaments:signup", args=[t.pk])).status_code == 405
    assert client.post(reverse("tournaments:remove", args=[t.pk]), {"user": 10**9}).status_code == 404
    response = client.post(reverse("tournaments:adjust", args=[t.pk]), {"seat": "x", "points": "7"}, follow=True)
    assert "between 0 and 1" in response.content.decode()
    response = client.post(reverse("tournaments:remove", args=[t.pk]), {"user": "nobody"}, follow=True)
    assert "Choose a player." in response.content.decode()
    assert not ModerationAction.objects.exclude(action="tournament_create").exists()
    client.logout()
    assert client.post(reverse("tournaments:signup", args=[t.pk])).status_code == 302  # to sign in
    assert not Entry.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_the_move_that_ends_a_round_through_the_site_starts_the_next(client, moderator):
    t = make_tournament(moderator, rounds=2)
    users = [UserFactory.create() for _ in range(2)]
    for u in users:
        services.tournament_signup(tournament_id=t.pk, user=u)
    services.tick(now=later())
    game = Table.objects.get(round__tournament=t).game
    for _ in range(9):  # the counter game: add 1 nine times, then the tenth move wins
        game.refresh_from_db()
        mover = game.seats.get(position=game.to_act[0]).user
        games.game_submit_move(game_id=game.pk, user=mover, move={"act": "add", "n": 1}, expected_seq=game.last_seq)
    game.refresh_from_db()
    mover = game.seats.get(position=game.to_act[0]).user
    client.force_login(mover)
    move = {"move": json.dumps({"act": "add", "n": 1}), "seq": game.last_seq}
    assert client.post(reverse("games:move", args=[game.pk]), move).status_code == 302
    t.refresh_from_db()
    assert t.current_round == 2
    assert Table.objects.filter(round__tournament=t, round__number=2).exists()


@pytest.mark.django_db(transaction=True)
def test_without_beat_a_page_request_starts_a_tournament_whose_time_came(client, moderator, settings):
    settings.HERALD_SWEEP_ON_REQUEST = True
    soon = timezone.now() + timedelta(minutes=1)
    t = make_tournament(moderator, starts=soon, signup_closes=soon)
    for _ in range(2):
        services.tournament_signup(tournament_id=t.pk, user=UserFactory.create())
    Tournament.objects.filter(pk=t.pk).update(starts=timezone.now() - timedelta(seconds=1))
    page = client.get(reverse("tournaments:list")).content.decode()
    t.refresh_from_db()
    assert t.status == "running" and "Spring Cup" in page


def test_a_tournament_games_page_links_back_to_its_tournament_and_round(client, moderator):
    t = make_tournament(moderator, name="Winter Swiss", system="swiss", rounds=1)
    players = [UserFactory.create() for _ in range(2)]
    for u in players:
        services.tournament_signup(tournament_id=t.pk, user=u)
    services.tick(now=later())
    table = Table.objects.get(round__tournament=t)
    client.force_login(players[0])
    page = client.get(table.game.get_absolute_url()).content.decode()
    assert f'Round 1 of <a href="{t.get_absolute_url()}">Winter Swiss</a>' in page
    other = games.game_create(
        creator=players[0],
        kind="counter",
        options={},
        players=2,
        rated=False,
        private=False,
        time_per_move=games.TIME_CONTROLS[0],
    )
    assert "tournament-of-game" not in client.get(other.get_absolute_url()).content.decode()


@pytest.mark.django_db(transaction=True)
def test_a_cancelled_tournaments_page_says_so_and_marks_its_cancelled_games(client, moderator):
    t = make_tournament(moderator, rounds=2)
    users = [UserFactory.create() for _ in range(4)]
    for u in users:
        services.tournament_signup(tournament_id=t.pk, user=u)
    services.tick(now=later())
    moderators.tournament_cancel(moderator=moderator, tournament_id=t.pk, reason="")
    client.force_login(users[0])
    page = client.get(t.get_absolute_url()).content.decode()
    assert "This tournament was cancelled" in page
    assert "its unfinished games were cancelled and do not count for ratings" in page
    assert page.count(" (cancelled)</a>") == 2 and "in progress" not in page
    assert "Withdraw" not in page


@pytest.mark.django_db
def test_a_refused_tournament_form_says_why_once(client, moderator):
    client.force_login(moderator)
    soon = timezone.localtime(timezone.now() + timedelta(days=1))
    response = client.post(
        reverse("tournaments:new"),
        {
            "name": "Backwards",
            "kind": "dominion",
            "kingdom": "random",
            "system": "swiss",
            "players_per_table": 2,
            "rounds": 3,
            "time_per_move": 172800,
            "signup_closes": (soon + timedelta(hours=2)).strftime("%Y-%m-%dT%H:%M"),
            "starts": soon.strftime("%Y-%m-%dT%H:%M"),
            "max_players": 0,
            "min_games": 0,
        },
    )
    page = response.content.decode()
    assert response.status_code == 400
    assert page.count("Sign-up must close before the tournament starts.") == 1
    assert 'name="name" value="Backwards"' in page and 'id="id_starts"' in page, "the fields are still drawn"
