"""Rematch: offered, accepted by everyone, the seats rotated; the notice by email; lapses; blocks win."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.utils import timezone

from accounts.models import Block
from correspondence.models import Notification
from correspondence.outbox import notification_send
from games import services as games
from matchmaking import rematch
from matchmaking.models import KingdomBans, RematchOffer
from matchmaking.services import MatchError
from tests.conftest import make_game, past_move_0
from tests.factories import UserFactory
from tests.matchmaking.conftest import finished_game


def test_everyone_accepting_starts_the_same_game_with_the_seats_rotated(alice, bob):
    carol = UserFactory.create(username="carol")
    game = past_move_0(make_game(alice, bob, carol))
    before = [s.user_id for s in game.seats.order_by("position")]
    games.game_resign(game_id=game.pk, user=alice)
    games.game_resign(game_id=game.pk, user=bob)
    game.refresh_from_db()
    assert game.is_finished
    offer = rematch.rematch_accept(game_id=game.pk, user=bob)
    assert offer.status == RematchOffer.Status.OPEN and offer.accepted == [bob.pk]
    assert rematch.rematch_accept(game_id=game.pk, user=bob).status == RematchOffer.Status.OPEN  # twice: harmless
    rematch.rematch_accept(game_id=game.pk, user=carol)
    offer = rematch.rematch_accept(game_id=game.pk, user=alice)
    assert offer.status == RematchOffer.Status.STARTED
    new = offer.new_game
    assert new.is_active and new.kind == game.kind and new.options["target"] == game.options["target"]
    assert new.time_per_move == game.time_per_move and new.rated == game.rated
    assert [s.user_id for s in new.seats.order_by("position")] == before[1:] + before[:1]
    # Pressing again goes to the same new game, never a second one.
    assert rematch.rematch_accept(game_id=game.pk, user=alice).new_game_id == new.pk


def test_the_offer_is_emailed_to_the_others_once(alice, bob, django_capture_on_commit_callbacks):
    game = finished_game(alice, bob)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        rematch.rematch_accept(game_id=game.pk, user=alice)
    assert [m.to for m in mail.outbox] == [[bob.email]]
    assert "rematch" in mail.outbox[0].subject
    row = Notification.objects.get(kind=Notification.Kind.REMATCH)
    assert row.user == bob and row.game == game


def test_a_lapsed_offer_sends_nothing_and_cannot_be_accepted(alice, bob):
    game = finished_game(alice, bob)
    rematch.rematch_accept(game_id=game.pk, user=alice)  # the send task only runs on commit: not here
    row = Notification.objects.get(kind=Notification.Kind.REMATCH)
    with time_machine.travel(timezone.now() + timedelta(days=1, minutes=1), tick=False):
        mail.outbox.clear()
        assert not notification_send(notification_id=row.pk)
        assert mail.outbox == []
        with pytest.raises(MatchError) as closed:
            rematch.rematch_accept(game_id=game.pk, user=bob)
        assert closed.value.code == "rematch_closed"
        assert rematch.offers_lapse() == 1
    assert RematchOffer.objects.get().status == RematchOffer.Status.LAPSED


def test_a_declined_offer_is_closed(alice, bob):
    game = finished_game(alice, bob)
    rematch.rematch_accept(game_id=game.pk, user=alice)
    rematch.rematch_decline(game_id=game.pk, user=bob)
    with pytest.raises(MatchError):
        rematch.rematch_accept(game_id=game.pk, user=bob)


def test_blocks_win(alice, bob):
    game = finished_game(alice, bob)
    Block.objects.create(blocker=bob, blocked=alice)
    with pytest.raises(MatchError):
        rematch.rematch_accept(game_id=game.pk, user=alice)
    assert not RematchOffer.objects.exists()


def test_only_players_of_a_finished_game(alice, bob):
    running = make_game(alice, bob)
    with pytest.raises(MatchError):
        rematch.rematch_accept(game_id=running.pk, user=alice)
    game = finished_game(alice, bob)
    with pytest.raises(MatchError):
        rematch.rematch_accept(game_id=game.pk, user=UserFactory.create())


def test_a_random_kingdom_is_drawn_anew_without_bans(alice, bob):
    KingdomBans.objects.create(user=bob, cards=["Witch", "Moat", "Chapel"])
    game = finished_game(alice, bob, kind="dominion")
    rematch.rematch_accept(game_id=game.pk, user=alice)
    new = rematch.rematch_accept(game_id=game.pk, user=bob).new_game
    assert len(new.options["kingdom"]) == 10
    assert not set(new.options["kingdom"]) & {"Witch", "Moat", "Chapel"}


def test_a_private_games_rematch_stays_private(alice, bob):
    game = past_move_0(make_game(alice, bob, private=True))
    games.game_resign(game_id=game.pk, user=bob)
    rematch.rematch_accept(game_id=game.pk, user=alice)
    new = rematch.rematch_accept(game_id=game.pk, user=bob).new_game
    assert new.private and not finished_game(alice, bob).private
