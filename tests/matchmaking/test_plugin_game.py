"""Matchmaking reaches a game only through the registry (issue 29): the tests' ``counter`` game, which has no
matchmaking part, is offered, sought and paired as any game; Dominion's part alone says what may be banned."""

from __future__ import annotations

from http import HTTPStatus

from django.urls import reverse

from games import kinds
from matchmaking import limits
from matchmaking.models import KingdomBans, Seek


def test_every_installed_game_has_its_one_button_pairing_and_counter_is_paired(client, alice, bob):
    client.force_login(alice)
    lobby = client.get(reverse("games:lobby")).content.decode()
    for kind in kinds.all_kinds():
        assert f'name="kind" value="{kind.name}"' in lobby
    assert "Play a rated Counter game" in lobby
    quick = {"kind": "counter", "rated": "0"}
    assert client.post(reverse("matchmaking:quick"), quick).status_code == HTTPStatus.FOUND
    client.force_login(bob)
    client.post(reverse("matchmaking:quick"), quick)
    game = Seek.objects.get(user=bob).game
    assert game is not None and game.kind == "counter" and game.is_active
    assert game.options == {"target": 10}  # no matchmaking part: the engine's defaults


def test_a_game_without_a_matchmaking_part_reads_no_bans(alice, bob):
    KingdomBans.objects.create(user=alice, cards=["Witch", "Moat"])
    assert limits.bannable("counter") == ()
    assert limits.options_for("counter", [alice.pk, bob.pk]) == {}
    assert limits.options_for("counter", [alice.pk, bob.pk], previous={"target": 20}) == {"target": 20}
    assert set(limits.bannable("dominion")) >= {"Witch", "Moat"}
    assert not set(limits.options_for("dominion", [alice.pk, bob.pk])["kingdom"]) & {"Witch", "Moat"}


def test_the_bans_page_offers_only_what_a_game_lets_be_banned(client, alice):
    client.force_login(alice)
    page = client.get(reverse("matchmaking:bans")).content.decode()
    assert "Dominion kingdom cards you never want" in page  # Dominion's part explains its bans
    assert 'value="Witch"' in page
    assert client.post(reverse("matchmaking:bans"), {"cards": ["Copper"]}).status_code == 400  # not a kingdom card
    assert not KingdomBans.objects.exists()
