"""The pages: the lobby's section, the buttons, follow and challenge from a profile, rematch on a game page."""

from __future__ import annotations

from datetime import timedelta
from http import HTTPStatus

import time_machine
from django.urls import reverse
from django.utils import timezone

from accounts.models import Block
from matchmaking import follows
from matchmaking.models import Follow, KingdomBans, RematchOffer, Seek
from tests.conftest import make_game
from tests.factories import UserFactory
from tests.matchmaking.conftest import finished_game

QUICK = {"kind": "dominion", "rated": "1"}


def test_two_players_press_play_and_the_second_lands_in_the_game(client, alice, bob):
    client.force_login(alice)
    lobby = client.get(reverse("games:lobby")).content.decode()
    assert "Play a rated Dominion game" in lobby
    response = client.post(reverse("matchmaking:quick"), QUICK, follow=True)
    assert "Your seek is posted" in response.content.decode()
    assert "Withdraw" in response.content.decode()
    client.force_login(bob)
    response = client.post(reverse("matchmaking:quick"), QUICK)
    game_id = Seek.objects.get(user=bob).game_id
    assert response.status_code == HTTPStatus.FOUND and response["Location"] == reverse("games:detail", args=[game_id])


def test_bad_input_is_a_400_and_posts_nothing(client, alice):
    client.force_login(alice)
    assert client.post(reverse("matchmaking:quick"), {"kind": "chess", "rated": "1"}).status_code == 400
    response = client.post(reverse("matchmaking:seek_new"), {"kind": "dominion", "players": "9"})
    assert response.status_code == 400
    assert not Seek.objects.exists()


def test_the_seek_form_posts_a_seek_with_its_options(client, alice):
    client.force_login(alice)
    assert client.get(reverse("matchmaking:seek_new")).status_code == 200
    data = {
        "kind": "domaine",
        "players": "2-4",
        "rated": "casual",
        "time_per_move": "14400",
        "rating_low": "1300",
        "rating_high": "1700",
        "lifetime": "21600",
        "fill_with_bots": "on",
    }
    assert client.post(reverse("matchmaking:seek_new"), data).status_code == HTTPStatus.FOUND
    seek = Seek.objects.get()
    assert (seek.kind, seek.players_min, seek.players_max, seek.rated) == ("domaine", 2, 4, False)
    assert (seek.rating_low, seek.rating_high, seek.fill_with_bots) == (1300, 1700, True)


def test_nobody_withdraws_another_players_seek(client, alice, bob):
    client.force_login(alice)
    client.post(reverse("matchmaking:quick"), QUICK)
    seek = Seek.objects.get()
    client.force_login(bob)
    assert client.post(reverse("matchmaking:seek_cancel", args=[seek.pk])).status_code == HTTPStatus.NOT_FOUND
    seek.refresh_from_db()
    assert seek.is_open


def test_follow_from_the_profile_and_see_their_games_in_the_lobby(client, alice, bob):
    carol = UserFactory.create(username="carol")
    running = make_game(bob, carol)
    secret = make_game(bob, carol, private=True)
    client.force_login(alice)
    profile = client.get(reverse("accounts:profile", args=["bob"])).content.decode()
    assert "Challenge" in profile and f"{reverse('games:new')}?invite=bob" in profile
    client.post(reverse("matchmaking:follow", args=["bob"]))
    assert Follow.objects.filter(follower=alice, followed=bob).exists()
    lobby = client.get(reverse("games:lobby")).content.decode()
    assert "Players you follow" in lobby
    assert reverse("games:detail", args=[running.pk]) in lobby.split("Players you follow")[1]
    assert reverse("games:detail", args=[secret.pk]) not in lobby
    client.post(reverse("matchmaking:unfollow", args=["bob"]))
    assert "Players you follow" not in client.get(reverse("games:lobby")).content.decode()


def test_challenge_prefills_the_invitation(client, alice, bob):
    client.force_login(alice)
    page = client.get(reverse("games:new") + "?invite=bob").content.decode()
    assert 'value="bob"' in page


def test_blocking_wins_over_following(client, alice, bob):
    carol = UserFactory.create(username="carol")
    make_game(bob, carol)
    follows.follow(user=alice, username="bob")
    Block.objects.create(blocker=bob, blocked=alice)
    client.force_login(alice)
    lobby = client.get(reverse("games:lobby")).content.decode()
    assert "Players you follow" not in lobby

    profile = client.get(reverse("accounts:profile", args=["bob"])).content.decode()
    assert "Challenge" not in profile
    Follow.objects.all().delete()
    assert client.post(reverse("matchmaking:follow", args=["bob"])).status_code == HTTPStatus.NOT_FOUND
    assert not Follow.objects.exists()


def test_rematch_buttons_on_a_finished_game(client, alice, bob):
    game = finished_game(alice, bob)
    client.force_login(alice)
    page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert reverse("matchmaking:rematch", args=[game.pk]) in page
    client.post(reverse("matchmaking:rematch", args=[game.pk]))
    client.force_login(bob)
    page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert "Accept the rematch" in page and "Decline" in page
    response = client.post(reverse("matchmaking:rematch", args=[game.pk]))
    new = RematchOffer.objects.get().new_game
    assert response["Location"] == reverse("games:detail", args=[new.pk])


def test_no_rematch_for_outsiders(client, alice, bob):
    game = finished_game(alice, bob)
    client.force_login(UserFactory.create())
    page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert reverse("matchmaking:rematch", args=[game.pk]) not in page
    assert client.post(reverse("matchmaking:rematch", args=[game.pk])).status_code == HTTPStatus.FORBIDDEN
    assert not RematchOffer.objects.exists()


def test_kingdom_bans_page(client, alice):
    client.force_login(alice)
    assert client.get(reverse("matchmaking:bans")).status_code == 200
    too_many = {"cards": ["Witch", "Moat", "Chapel", "Village"]}
    assert client.post(reverse("matchmaking:bans"), too_many).status_code == 400
    assert not KingdomBans.objects.exists()
    client.post(reverse("matchmaking:bans"), {"cards": ["Witch", "Moat"]})
    assert KingdomBans.objects.get(user=alice).cards == ["Moat", "Witch"]
    assert client.post(reverse("matchmaking:bans"), {"cards": ["Nope"]}).status_code == 400


def test_without_a_broker_the_lobby_expires_seeks(client, alice, bob, settings):
    settings.HERALD_SWEEP_ON_REQUEST = True
    old = Seek.objects.create(user=alice, kind="dominion", expires=timezone.now() + timedelta(hours=1))
    with time_machine.travel(timezone.now() + timedelta(hours=2), tick=False):
        client.get(reverse("games:lobby"))
    old.refresh_from_db()
    assert old.status == Seek.Status.EXPIRED


def test_the_settings_page_shows_the_bans_and_links_to_them(client, alice):
    KingdomBans.objects.create(user=alice, cards=["Witch"])
    client.force_login(alice)
    page = client.get(reverse("accounts:settings")).content.decode()
    assert reverse("matchmaking:bans") in page and "Witch" in page


def test_a_visitor_is_told_how_to_find_a_game_under_its_heading(client, db):
    """Signed out, "Find a game" had nothing under it: it says to sign in or up, with the links."""
    html = client.get(reverse("games:lobby")).content.decode()
    section = html.split('id="find-a-game"', 1)[1].split("</section>", 1)[0]
    assert f'href="{reverse("account_login")}"' in section and f'href="{reverse("account_signup")}"' in section
    assert "to be paired with a player near your rating" in section
