"""Seeks and the matcher through the database: pairing, limits, blocks, bans, expiry and its notice."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.utils import timezone

from accounts.models import Block
from correspondence.models import Notification
from correspondence.preferences import settings_update
from games.models import Game
from matchmaking import limits, services
from matchmaking.models import KingdomBans, Seek
from matchmaking.services import MatchError
from ratings.models import Rating
from tests.factories import UserFactory


def test_two_players_pressing_play_land_in_the_same_new_rated_game(alice, bob):
    first = services.quick_pair(user=alice)
    assert first.is_open and first.game is None
    second = services.quick_pair(user=bob)
    first.refresh_from_db()
    assert second.status == first.status == Seek.Status.MATCHED
    assert second.game_id == first.game_id
    game = second.game
    assert game.is_active and game.rated and game.kind == "dominion"
    assert {s.user_id for s in game.seats.all()} == {alice.pk, bob.pk}
    assert len(game.options["kingdom"]) == 10


def test_pressing_twice_keeps_one_seek(alice):
    one = services.quick_pair(user=alice)
    two = services.quick_pair(user=alice)
    assert one.pk == two.pk
    assert Seek.objects.filter(user=alice, status=Seek.Status.OPEN).count() == 1


def test_at_most_three_open_seeks(alice):
    for players in (2, 3, 4):
        services.seek_create(user=alice, kind="dominion", players_min=players, players_max=players)
    with pytest.raises(MatchError) as refused:
        services.seek_create(user=alice, kind="domaine")
    assert refused.value.code == "too_many_seeks"
    assert Seek.objects.filter(user=alice).count() == 3


def test_rated_seeks_need_a_verified_email(db):
    unverified = UserFactory.create(verified=False)
    with pytest.raises(MatchError):
        services.seek_create(user=unverified, kind="dominion", rated=True)
    assert not Seek.objects.exists()


@pytest.mark.parametrize(
    "kwargs",
    [
        {"kind": "chess"},
        {"kind": "dominion", "players_min": 3, "players_max": 2},
        {"kind": "dominion", "players_max": 5},
        {"kind": "dominion", "time_per_move": timedelta(minutes=7)},
        {"kind": "dominion", "lifetime": timedelta(days=30)},
        {"kind": "dominion", "rated": True, "fill_with_bots": True},
        {"kind": "dominion", "rating_low": 1800, "rating_high": 1200},
    ],
)
def test_bad_options_are_refused_and_change_nothing(alice, kwargs):
    with pytest.raises(MatchError):
        services.seek_create(user=alice, **kwargs)
    assert not Seek.objects.exists()


def test_players_who_block_each_other_are_not_matched(alice, bob):
    Block.objects.create(blocker=bob, blocked=alice)
    services.quick_pair(user=alice)
    seek = services.quick_pair(user=bob)
    assert seek.is_open
    assert not Game.objects.exists()
    # The blocked player does not see the blocker's seek either.
    assert [s.user for s in services.open_seeks(alice)] == [alice]


def test_a_rating_outside_the_range_waits(alice, bob):
    Rating.objects.create(user=bob, kind="dominion", mu=60, sigma=1, games=20, last_played=timezone.now())
    services.seek_create(user=alice, kind="dominion", rated=True, rating_low=1400, rating_high=1600)
    seek = services.seek_create(user=bob, kind="dominion", rated=True, rating_low=None, rating_high=None)
    assert seek.is_open and not Game.objects.exists()


def test_the_gap_allowed_widens_with_the_wait(alice, bob):
    Rating.objects.create(user=bob, kind="dominion", mu=16.6, sigma=1, games=20, last_played=timezone.now())
    assert services.rating_of(bob.pk, "dominion", timezone.now()) == 1751  # 250 above a newcomer
    services.seek_create(user=alice, kind="dominion", rated=True, rating_low=1000, rating_high=2000)
    seek = services.seek_create(user=bob, kind="dominion", rated=True, rating_low=1000, rating_high=2000)
    assert seek.is_open
    with time_machine.travel(timezone.now() + timedelta(minutes=20), tick=False):
        assert len(services.matcher_run()) == 1
    seek.refresh_from_db()
    assert seek.game is not None


def test_a_game_drawn_for_a_seek_leaves_out_every_players_bans(alice, bob):
    KingdomBans.objects.create(user=alice, cards=["Witch", "Chapel", "Militia"])
    KingdomBans.objects.create(user=bob, cards=["Moat", "Village", "Smithy"])
    for _ in range(5):
        seek_a = services.seek_create(user=alice, kind="dominion")
        seek_b = services.seek_create(user=bob, kind="dominion")
        seek_b.refresh_from_db()
        assert seek_b.game_id is not None and seek_a.pk != seek_b.pk
        kingdom = set(seek_b.game.options["kingdom"])
        assert len(kingdom) == 10
        assert not kingdom & {"Witch", "Chapel", "Militia", "Moat", "Village", "Smithy"}


def test_the_running_games_cap(alice, bob, monkeypatch):
    monkeypatch.setattr(limits, "RUNNING_BASE", 1)
    services.quick_pair(user=alice)
    services.quick_pair(user=bob)  # one running game each now
    with pytest.raises(MatchError) as refused:
        services.quick_pair(user=alice)
    assert refused.value.code == "too_many_games"


def test_an_expired_seek_ends_with_an_email(alice, django_capture_on_commit_callbacks):
    seek = services.seek_create(user=alice, kind="dominion", lifetime=timedelta(hours=1))
    with time_machine.travel(timezone.now() + timedelta(minutes=59), tick=False):
        assert services.seeks_expire() == 0
    with (
        time_machine.travel(timezone.now() + timedelta(hours=1, minutes=1), tick=False),
        django_capture_on_commit_callbacks(execute=True),
    ):
        assert services.seeks_expire() == 1
        assert services.seeks_expire() == 0  # once
    seek.refresh_from_db()
    assert seek.status == Seek.Status.EXPIRED
    row = Notification.objects.get(kind=Notification.Kind.SEEK_EXPIRED)
    assert row.user == alice and row.game is None and row.status == Notification.Status.SENT
    assert len(mail.outbox) == 1
    assert "expired" in mail.outbox[0].subject and mail.outbox[0].to == [alice.email]


def test_an_expired_seek_notice_respects_the_setting(alice, django_capture_on_commit_callbacks):
    settings_update(user=alice, seek_expired=False)
    services.seek_create(user=alice, kind="dominion", lifetime=timedelta(hours=1))
    with (
        time_machine.travel(timezone.now() + timedelta(hours=2), tick=False),
        django_capture_on_commit_callbacks(execute=True),
    ):
        services.seeks_expire()
    assert mail.outbox == []
    assert Notification.objects.get().status == Notification.Status.SKIPPED


def test_a_casual_seek_may_be_filled_with_bots(alice):
    seek = services.seek_create(
        user=alice, kind="dominion", players_min=3, players_max=3, lifetime=timedelta(hours=1), fill_with_bots=True
    )
    with time_machine.travel(timezone.now() + timedelta(hours=2), tick=False):
        services.seeks_expire()
    seek.refresh_from_db()
    assert seek.status == Seek.Status.FILLED
    assert seek.game.is_active and not seek.game.rated
    seats = list(seek.game.seats.all())
    assert len(seats) == 3 and sum(1 for s in seats if s.user_id == alice.pk) == 1
    assert sorted(s.bot for s in seats) == ["", "level3", "level3"]  # the stand-in level, not the weakest bot
    assert not Notification.objects.filter(kind=Notification.Kind.SEEK_EXPIRED).exists()


def test_a_cancelled_seek_is_not_matched(alice, bob):
    seek = services.seek_create(user=alice, kind="dominion")
    services.seek_cancel(seek_id=seek.pk, user=alice)
    other = services.seek_create(user=bob, kind="dominion")
    assert other.is_open
    with pytest.raises(MatchError):
        services.seek_cancel(seek_id=seek.pk, user=alice)
    with pytest.raises(Seek.DoesNotExist):
        services.seek_cancel(seek_id=other.pk, user=alice)


def test_three_and_four_player_tables(db):
    users = [UserFactory.create() for _ in range(4)]
    seeks = [services.seek_create(user=u, kind="dominion", players_min=4, players_max=4) for u in users]
    for s in seeks:
        s.refresh_from_db()
    assert len({s.game_id for s in seeks}) == 1 and seeks[0].game_id is not None
    assert seeks[0].game.seats.count() == 4


def test_suspended_players_are_not_matched(alice, bob, monkeypatch):
    from games import policy

    services.seek_create(user=alice, kind="dominion")
    monkeypatch.setattr(policy, "_restrictions", [lambda user, action: user.pk == alice.pk])
    seek = services.seek_create(user=bob, kind="dominion")
    assert seek.is_open and not Game.objects.exists()


def test_a_deleted_players_seek_is_neither_listed_nor_matched(alice, bob):
    services.seek_create(user=alice, kind="dominion")
    alice.deleted = timezone.now()
    alice.save(update_fields=["deleted"])
    assert services.open_seeks(bob) == []
    seek = services.seek_create(user=bob, kind="dominion")
    assert seek.is_open and not Game.objects.exists()
