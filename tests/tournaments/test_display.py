"""What the tournament pages and emails show a newcomer: rounds, status, byes, game links, the result."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from correspondence.models import Notification
from games.models import Game
from tests.factories import UserFactory
from tests.tournaments.conftest import later, make_tournament
from tests.tournaments.helpers import play_round
from tournaments import notify, services
from tournaments.models import Table


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def _signed_up(moderator, n: int, **kw):
    t = make_tournament(moderator, **kw)
    users = [UserFactory.create() for _ in range(n)]
    for u in users:
        services.tournament_signup(tournament_id=t.pk, user=u)
    return t, users


@pytest.mark.django_db
def test_a_round_robin_before_its_start_shows_the_rounds_its_sign_ups_make(client, moderator):
    t, _users = _signed_up(moderator, 4, system="round_robin", rounds=5)
    text = _text(client.get(t.get_absolute_url()).content.decode())
    assert "Rounds 5" not in text
    assert "Rounds 3 (one per opponent)" in text
    services.tournament_signup(tournament_id=t.pk, user=UserFactory.create())
    text = _text(client.get(t.get_absolute_url()).content.decode())
    assert "Rounds 5 (one per opponent)" in text  # 5 players: everyone sits one round out


@pytest.mark.django_db
def test_an_empty_round_robin_says_one_round_per_opponent(client, moderator):
    t = make_tournament(moderator, system="round_robin", rounds=5)
    text = _text(client.get(t.get_absolute_url()).content.decode())
    assert "Rounds one per opponent" in text and "Rounds 5" not in text


@pytest.mark.django_db(transaction=True)
def test_a_round_robin_at_its_start_is_in_round_one_not_its_last(client, moderator):
    t, _users = _signed_up(moderator, 4, system="round_robin")
    services.tick(now=later())
    text = _text(client.get(t.get_absolute_url()).content.decode())
    assert "round 1 of 3" in text and "round 3 of 3" not in text
    listing = _text(client.get(reverse("tournaments:list")).content.decode())
    assert "round 1 of 3" in listing and "round 3 of 3" not in listing
    play_round(t, 1)
    text = _text(client.get(t.get_absolute_url()).content.decode())
    assert "round 2 of 3" in text


@pytest.mark.django_db
def test_after_sign_up_closes_the_header_does_not_say_open(client, moderator):
    now = timezone.now()
    t = make_tournament(moderator, signup_closes=now - timedelta(minutes=1), starts=now + timedelta(minutes=1))
    client.force_login(UserFactory.create())
    text = _text(client.get(t.get_absolute_url()).content.decode())
    assert "Sign-up for this tournament is closed." in text
    assert "Open for sign-up" not in text and "Sign-up closed" in text
    # On the list it is no longer "Open for sign-up" (the walk-through) but waits under its own heading.
    listing = client.get(reverse("tournaments:list")).content.decode()
    open_part = listing.split('id="h-signup"', 1)[1].split("</section>", 1)[0]
    closed_part = listing.split('id="h-closed"', 1)[1].split("</section>", 1)[0]
    assert t.name not in open_part and "No tournament is open for sign-up." in open_part
    assert t.name in closed_part and "Sign-up closed, starting soon" in closed_part


@pytest.mark.django_db
def test_before_sign_up_closes_the_header_says_open(client, moderator):
    t = make_tournament(moderator)
    text = _text(client.get(t.get_absolute_url()).content.decode())
    assert "Open for sign-up" in text and "Sign-up closed" not in text


@pytest.mark.django_db(transaction=True)
def test_a_swiss_bye_is_shown_as_a_bye_not_a_table(client, moderator):
    t, users = _signed_up(moderator, 3, rounds=2)
    services.tick(now=later())
    bye = Table.objects.get(round__tournament=t, game__isnull=True)
    name = bye.seats.get().entry.user.shown_name
    client.force_login(moderator)
    html = client.get(t.get_absolute_url()).content.decode()
    text = _text(html)
    assert f"{name}: bye (1 point)" in text
    assert "(bye)" not in text and f"Table {bye.number}:" not in text
    assert html.count("Adjust…") == 1  # the one game's table only


@pytest.mark.django_db(transaction=True)
def test_game_links_name_the_game(client, moderator):
    t, _users = _signed_up(moderator, 4, rounds=2)
    services.tick(now=later())
    text = _text(client.get(t.get_absolute_url()).content.decode())
    for game in Game.objects.filter(tournament_table__round__tournament=t):
        assert f"Counter #{game.pk} (in progress)" in text or f"#{game.pk} (in progress)" in text
    assert "the game (in progress)" not in text


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "Your place: 1 of 8. Your points: 2.5."),
        ("zh-hans", "名次：第 1 名（共 8 人）。积分：2.5。"),
        ("zh-hant", "名次：第 1 名（共 8 人）。積分：2.5。"),
    ],
)
def test_the_result_email_gives_the_place_out_of_the_field(moderator, language, words):
    t = make_tournament(moderator, name="Ember Cup")
    user = UserFactory.create()
    data = {"tournament": t.pk, "event": "result", "rank": 1, "points": 2.5, "players": 8}
    with translation.override(language):
        lines = notify.render(Notification(user=user, kind=notify.KIND, data=data))["lines"]
    assert words in " ".join(lines)
    assert "in place" not in " ".join(lines)


@pytest.mark.django_db(transaction=True)
def test_the_result_email_counts_the_players(moderator, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    t, users = _signed_up(moderator, 4, name="Ember Cup", rounds=1)
    services.tick(now=later())
    play_round(t, 1)
    rows = Notification.objects.filter(kind=notify.KIND, seq=notify.RESULT_SEQ)
    assert rows.count() == 4 and {n.data["players"] for n in rows} == {4}


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "words"), [("zh-hans", "每位对手一轮"), ("zh-hant", "每位對手一輪")])
def test_the_new_words_are_in_chinese(client, moderator, language, words):
    now = timezone.now()
    t = make_tournament(
        moderator, system="round_robin", signup_closes=now - timedelta(minutes=1), starts=now + timedelta(minutes=1)
    )
    client.cookies["django_language"] = language
    text = _text(client.get(t.get_absolute_url(), HTTP_ACCEPT_LANGUAGE=language).content.decode())
    assert words in text and ("报名已截止" in text or "報名已截止" in text)
    assert "one per opponent" not in text and "Sign-up closed" not in text
