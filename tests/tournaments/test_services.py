"""Tournaments through their services: sign-up, the rounds, results, withdrawals, moderators, emails."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from caissify_pairings import generate_pairings
from django.contrib.auth.models import Permission
from django.core.exceptions import PermissionDenied
from django.utils import timezone

from accounts.services import user_delete
from correspondence.models import Notification
from games import services as games_services
from games.autoplay import game_timeout
from games.lifecycle import game_freeze
from games.models import Game, Seat
from games.replay import ReplayBroken
from moderation.models import ModerationAction, Notice
from moderation.user_actions import banned_seats_forfeit, user_ban
from ratings.models import RatingChange
from tests.factories import UserFactory
from tests.tournaments.conftest import later, make_tournament
from tests.tournaments.helpers import play_out, play_round
from tournaments import moderators, services, tasks
from tournaments.models import Entry, Table, TableSeat, Tournament
from tournaments.pairing import repeated_groups
from tournaments.standings import standings


def sign_up(tournament: Tournament, n: int) -> list:
    users = [UserFactory.create() for _ in range(n)]
    for u in users:
        services.tournament_signup(tournament_id=tournament.pk, user=u)
    return users


def groups_by_round(tournament: Tournament) -> list[list[list[int]]]:
    out = []
    for number in range(1, tournament.current_round + 1):
        tables = Table.objects.filter(round__tournament=tournament, round__number=number)
        out.append([[s.entry_id for s in t.seats.all()] for t in tables])
    return out


@pytest.mark.django_db(transaction=True)
def test_a_swiss_runs_its_rounds_by_the_beat_and_the_results(moderator):
    t = make_tournament(moderator, rounds=3)
    sign_up(t, 7)
    assert services.tick(now=later()) == {"started": 1, "advanced": 0}
    t.refresh_from_db()
    assert t.status == "running" and t.current_round == 1
    tables = list(Table.objects.filter(round__tournament=t))
    assert sum(1 for x in tables if x.is_bye) == 1 and len(tables) == 4
    for number in (1, 2, 3):
        play_round(t, number)
        t.refresh_from_db()
        # The listener's task made the next round (or ended it) as soon as the last game finished.
        assert t.current_round == min(number + 1, 3)
    assert t.status == "finished"
    pairs = [frozenset(g) for r in groups_by_round(t) for g in r if len(g) == 2]
    assert len(pairs) == len(set(pairs))  # no rematch
    rows = standings(t)
    assert sum(r.points for r in rows) == pytest.approx(3 * 4)  # 3 games and a bye each round
    assert rows[0].rank == 1 and rows[0].points >= rows[-1].points
    # Emails: the start, round 2 and 3, and the result, to each player.
    kinds = Notification.objects.filter(kind="tournament")
    assert kinds.filter(data__event="started").count() == 7
    assert kinds.filter(data__event="result").count() == 7


@pytest.mark.django_db(transaction=True)
def test_a_round_robin_makes_every_game_at_once_and_no_pair_meets_twice(moderator):
    t = make_tournament(moderator, system="round_robin")
    sign_up(t, 5)
    services.tick(now=later())
    t.refresh_from_db()
    assert t.rounds == 5 and t.current_round == 5
    games = [frozenset(g) for r in groups_by_round(t) for g in r if len(g) == 2]
    assert len(games) == len(set(games)) == 10
    assert Game.objects.filter(tournament_table__isnull=False, status="active").count() == 10
    for n in range(1, 6):
        play_round(t, n)
    t.refresh_from_db()
    assert t.status == "finished"
    rows = standings(t)
    assert sum(r.points for r in rows) == pytest.approx(10)  # a round robin's bye scores nothing
    assert all(r.played == 5 for r in rows)


@pytest.mark.django_db(transaction=True)
def test_a_withdrawal_mid_round_forfeits_the_game_and_leaves_later_rounds(moderator):
    t = make_tournament(moderator, rounds=3)
    users = sign_up(t, 4)
    services.tick(now=later())
    quitter = users[0]
    table = Table.objects.get(round__tournament=t, round__number=1, seats__entry__user=quitter)
    services.tournament_withdraw(tournament_id=t.pk, user=quitter)
    game = Game.objects.get(pk=table.game_id)
    assert game.status == "finished"
    mine = game.seats.get(user=quitter)
    assert mine.forfeited and mine.resigned and mine.rank == 2
    assert TableSeat.objects.get(table=table, entry__user=quitter).points == 0.0
    play_round(t, 1)
    t.refresh_from_db()
    assert t.current_round == 2
    after = TableSeat.objects.filter(table__round__tournament=t, table__round__number__gt=1)
    assert not after.filter(entry__user=quitter).exists()
    assert after.count() == 3  # two at a game, one bye


@pytest.mark.django_db(transaction=True)
def test_a_withdrawal_ends_its_frozen_game_so_the_round_can_finish(moderator, client):
    """The walk-through: a withdrawn player's frozen game (its engine version gone) kept its round open for good."""
    t = make_tournament(moderator, rounds=3)
    users = sign_up(t, 4)
    services.tick(now=later())
    quitter = users[0]
    table = Table.objects.get(round__tournament=t, round__number=1, seats__entry__user=quitter)
    assert table.game_id is not None
    game_freeze(game_id=table.game_id, broken=ReplayBroken(table.game_id, 0, "engine version withdrawn"))
    Game.objects.filter(pk=table.game_id).update(engine_version=999)  # nothing can replay or play it now
    other = Table.objects.filter(round__tournament=t, round__number=1, game__isnull=False).exclude(pk=table.pk).get()
    assert other.game_id is not None
    play_out(other.game_id, "first")
    t.refresh_from_db()
    assert t.current_round == 1  # the frozen game holds the round

    services.tournament_withdraw(tournament_id=t.pk, user=quitter)

    game = Game.objects.get(pk=table.game_id)
    assert game.status == "finished"
    mine = game.seats.get(user=quitter)
    theirs = game.seats.exclude(user=quitter).get()
    assert mine.forfeited and mine.resigned and (mine.rank, theirs.rank) == (2, 1)
    points = dict(TableSeat.objects.filter(table=table).values_list("entry__user_id", "points"))
    assert points == {quitter.pk: 0.0, theirs.user_id: 1.0}
    t.refresh_from_db()
    assert t.current_round == 2 and not TableSeat.objects.filter(table__round__number=2, entry__user=quitter).exists()
    client.force_login(theirs.user)
    assert client.get(game.get_absolute_url()).status_code == 200


@pytest.mark.django_db
def test_a_frozen_larger_table_waits_for_a_moderator_until_one_player_is_left():
    a, b, c = (UserFactory.create() for _ in range(3))
    game = games_services.game_create_arranged(
        players=[a, b, c], kind="counter", options={"target": 10}, rated=False, time_per_move=timedelta(days=1)
    )
    game_freeze(game_id=game.pk, broken=ReplayBroken(game.pk, 0, "engine version withdrawn"))
    Game.objects.filter(pk=game.pk).update(engine_version=999)

    assert games_services.game_withdraw_player(game_id=game.pk, user=a)
    game.refresh_from_db()
    assert game.status == "frozen" and game.seats.get(user=a).forfeited  # b and c wait for a moderator
    assert games_services.game_withdraw_player(game_id=game.pk, user=b)
    game.refresh_from_db()
    ranks = dict(game.seats.values_list("user_id", "rank"))
    assert game.status == "finished" and ranks == {c.pk: 1, b.pk: 2, a.pk: 3}
    assert not games_services.game_withdraw_player(game_id=game.pk, user=c)  # over: nothing happens


@pytest.mark.django_db(transaction=True)
def test_multi_table_tournament_of_12_over_4_rounds(moderator):
    t = make_tournament(moderator, system="multi_table", players_per_table=3, rounds=4)
    sign_up(t, 12)
    services.tick(now=later())
    for n in range(1, 5):
        play_round(t, n)
    t.refresh_from_db()
    assert t.status == "finished" and t.current_round == 4
    assert repeated_groups(groups_by_round(t)) == []
    rows = standings(t)
    assert sum(r.points for r in rows) == pytest.approx(4 * 4 * 1.5)  # 1 + 0.5 + 0 a table
    assert [r.played for r in rows] == [4] * 12


@pytest.mark.django_db(transaction=True)
def test_signup_limits(moderator):
    t = make_tournament(moderator, max_players=1)
    a, b = UserFactory.create(), UserFactory.create(verified=False)
    services.tournament_signup(tournament_id=t.pk, user=a)
    with pytest.raises(services.TournamentError, match="already"):
        services.tournament_signup(tournament_id=t.pk, user=a)
    with pytest.raises(services.TournamentError, match="full"):
        services.tournament_signup(tournament_id=t.pk, user=UserFactory.create())
    rated = make_tournament(moderator, rated=True)
    with pytest.raises(services.TournamentError, match="Verify"):
        services.tournament_signup(tournament_id=rated.pk, user=b)
    strong = make_tournament(moderator, min_rating=1600)
    with pytest.raises(services.TournamentError, match="below"):
        services.tournament_signup(tournament_id=strong.pk, user=a)
    services.tournament_withdraw(tournament_id=t.pk, user=a)  # before the start: the entry goes
    assert not Entry.objects.filter(tournament=t).exists()


@pytest.mark.django_db(transaction=True)
def test_moderator_actions_are_audited(moderator):
    with pytest.raises(PermissionDenied):
        make_tournament(UserFactory.create())
    t = make_tournament(moderator, rounds=2)
    users = sign_up(t, 4)
    services.tick(now=later())
    moderators.entry_remove(moderator=moderator, tournament_id=t.pk, user=users[1], reason="cheating")
    entry = Entry.objects.get(tournament=t, user=users[1])
    assert entry.removed and entry.withdrawn
    seat = Game.objects.get(tournament_table__seats__entry=entry).seats.get(user=users[1])
    assert seat.forfeited_by_moderator
    ts = TableSeat.objects.filter(table__round__tournament=t).exclude(entry=entry).first()
    other = make_tournament(moderator, name="Another")
    with pytest.raises(services.TournamentError, match="no such result"):  # a seat of another tournament
        moderators.result_adjust(moderator=moderator, tournament_id=other.pk, seat_id=ts.pk, points=1, reason="x")
    moderators.result_adjust(moderator=moderator, tournament_id=t.pk, seat_id=ts.pk, points=0.5, reason="misclick")
    ts.refresh_from_db()
    assert ts.points == 0.5 and ts.adjusted
    moderators.tournament_cancel(moderator=moderator, tournament_id=t.pk, reason="test")
    t.refresh_from_db()
    assert t.status == "cancelled"
    actions = list(ModerationAction.objects.order_by("pk").values_list("action", flat=True))
    assert actions == [
        "tournament_create",
        "tournament_remove",
        "tournament_create",
        "tournament_adjust",
        "tournament_cancel",
    ]


@pytest.mark.django_db(transaction=True)
def test_a_tournament_with_one_player_is_cancelled_at_its_start(moderator):
    t = make_tournament(moderator)
    sign_up(t, 1)
    services.tick(now=later())
    t.refresh_from_db()
    assert t.status == "cancelled"


@pytest.mark.django_db(transaction=True)
def test_the_tick_is_the_backstop_when_the_advance_task_is_lost(moderator, monkeypatch):
    monkeypatch.setattr(tasks, "queue_advance", lambda tournament_id: False)
    t = make_tournament(moderator, rounds=2)
    sign_up(t, 4)
    services.tick(now=later())
    play_round(t, 1)
    t.refresh_from_db()
    assert t.current_round == 1  # the task was lost
    assert services.tick(now=later())["advanced"] == 1
    t.refresh_from_db()
    assert t.current_round == 2


@pytest.mark.django_db(transaction=True)
def test_a_banned_player_is_not_paired(moderator):
    moderator.groups.first().permissions.add(
        Permission.objects.get(codename="moderate_users", content_type__app_label="moderation")
    )
    moderator = type(moderator).objects.get(pk=moderator.pk)
    t = make_tournament(moderator, rounds=2)
    users = sign_up(t, 4)
    services.tick(now=later())
    user_ban(moderator=moderator, user=users[3], reason="abuse")
    banned_seats_forfeit()
    play_round(t, 1)
    t.refresh_from_db()
    assert t.current_round == 2
    assert not TableSeat.objects.filter(table__round__number=2, entry__user=users[3]).exists()


@pytest.mark.django_db(transaction=True)
def test_a_timeout_is_the_sites_forfeit_and_the_table_scores_it(moderator):
    t = make_tournament(moderator, rounds=2)
    sign_up(t, 2)
    services.tick(now=later())
    game = Table.objects.get(round__tournament=t).game
    late = game.seats.get(position=game.to_act[0])
    Seat.objects.filter(pk=late.pk).update(deadline=timezone.now() - timedelta(minutes=1))
    assert game_timeout(game_id=game.pk, position=late.position) == "forfeited"
    seats = {s.entry.user_id: s for s in TableSeat.objects.filter(table__game=game).select_related("entry")}
    assert seats[late.user_id].points == 0.0 and seats[late.user_id].place == 2
    assert [s.points for uid, s in seats.items() if uid != late.user_id] == [1.0]
    t.refresh_from_db()
    assert t.current_round == 2  # the late player is still paired: only a withdrawal takes them out
    assert TableSeat.objects.filter(table__round__number=2, entry__user_id=late.user_id).exists()


def _library_pairing_from_results(t: Tournament, number: int) -> list[tuple[int, int | None]]:
    """What caissify-pairings itself pairs for round ``number``, given the recorded results of the rounds before.

    Derived here independently of ``tournaments.standings.swiss_history``: colours from the seats,
    floats from the scores before each round, byes from one-seat tables.
    """
    entries = {e.pk: e for e in t.entries.all()}
    players: dict[int, dict[str, Any]] = {
        pk: {
            "id": pk,
            "name": str(pk),
            "score": 0.0,
            "rating": e.rating,
            "starting_number": e.number,
            "color_hist": [],
            "float_history": [],
            "bye_count": 0,
        }
        for pk, e in entries.items()
    }
    met = set()
    for n in range(1, number):
        before = {pk: p["score"] for pk, p in players.items()}
        for table in Table.objects.filter(round__tournament=t, round__number=n):
            seats = list(table.seats.order_by("position"))
            if len(seats) == 1:
                p = players[seats[0].entry_id]
                p["bye_count"] += 1
                p["color_hist"].append("none")
                p["float_history"].append("down")
            else:
                a, b = seats
                met.add(tuple(sorted((a.entry_id, b.entry_id))))
                for me, them, colour in ((a, b, "white"), (b, a, "black")):
                    mine, theirs = before[me.entry_id], before[them.entry_id]
                    players[me.entry_id]["color_hist"].append(colour)
                    players[me.entry_id]["float_history"].append(
                        "down" if mine > theirs else "up" if mine < theirs else "none"
                    )
            for s in seats:
                players[s.entry_id]["score"] += s.points
    out = generate_pairings(
        system="dutch",
        players=list(players.values()),
        previous_pairings=met,
        round_number=number,
        total_rounds=t.rounds,
        bye_value=1.0,
    )
    return [(r["white_id"], r.get("black_id")) for r in sorted(out, key=lambda r: r["table"])]


@pytest.mark.django_db(transaction=True)
def test_each_swiss_round_is_exactly_what_the_library_pairs_from_the_results(moderator):
    t = make_tournament(moderator, rounds=4)
    sign_up(t, 9)
    services.tick(now=later())
    for number in range(1, 5):
        made = []
        for table in Table.objects.filter(round__tournament=t, round__number=number).order_by("number"):
            seats = [s.entry_id for s in table.seats.order_by("position")]
            made.append((seats[0], seats[1] if len(seats) > 1 else None))
        assert made == _library_pairing_from_results(t, number)
        play_round(t, number)


@pytest.mark.django_db(transaction=True)
def test_a_random_kingdom_is_drawn_once_per_round(moderator):
    t = make_tournament(moderator, kind="dominion", options={"kingdom": "random"}, rounds=2)
    sign_up(t, 6)
    services.tick(now=later())
    kingdoms = [tuple(g.options["kingdom"]) for g in Game.objects.filter(tournament_table__round__tournament=t)]
    assert len(kingdoms) == 3 and len(set(kingdoms)) == 1 and len(kingdoms[0]) == 10


@pytest.mark.django_db(transaction=True)
def test_cancelling_a_running_tournament_cancels_its_unfinished_games_unrated(moderator):
    t = make_tournament(moderator, system="round_robin", rated=True, verified_only=False)
    users = sign_up(t, 4)
    services.tick(now=later())
    done = Table.objects.filter(round__tournament=t, round__number=1).first().game
    play_out(done.pk, "first")
    rated_before = RatingChange.objects.count()
    assert rated_before > 0  # the finished game was rated
    moderators.tournament_cancel(moderator=moderator, tournament_id=t.pk, reason="venue closed")
    games = Game.objects.filter(tournament_table__round__tournament=t)
    assert games.get(pk=done.pk).status == "finished"  # a finished game stays as it was, rated
    assert set(games.exclude(pk=done.pk).values_list("status", flat=True)) == {"aborted"}
    assert RatingChange.objects.count() == rated_before
    assert all(not g.to_act and g.deadline is None for g in games.exclude(pk=done.pk))
    action = ModerationAction.objects.get(action="tournament_cancel")
    assert sorted(action.data["games_cancelled"]) == sorted(games.exclude(pk=done.pk).values_list("pk", flat=True))
    # The players were told that the unfinished games do not count.
    assert "do not count for ratings" in Notice.objects.filter(user=users[0]).latest("pk").text
    # A cancelled game's table scores nothing rather than 0 points.
    assert not TableSeat.objects.filter(table__game__status="aborted").exclude(points=None).exists()
    # Nothing further happens: no round, no result email.
    assert services.tick(now=later()) == {"started": 0, "advanced": 0}
    assert not Notification.objects.filter(kind="tournament", data__event="result").exists()


@pytest.mark.django_db(transaction=True)
def test_a_player_who_deleted_their_account_is_not_paired_again(moderator):
    t = make_tournament(moderator, rounds=3)
    users = sign_up(t, 4)
    services.tick(now=later())
    user_delete(user=users[0])
    play_round(t, 1)
    t.refresh_from_db()
    assert t.current_round == 2
    assert not TableSeat.objects.filter(table__round__number=2, entry__user=users[0]).exists()
    entry = Entry.objects.get(tournament=t, user=users[0])
    assert entry.withdrawn is not None and not entry.removed  # shown as withdrawn in the standings
    assert not Notification.objects.filter(kind="tournament", user=users[0], data__round=2).exists()


@pytest.mark.django_db(transaction=True)
def test_a_sign_up_whose_account_was_deleted_before_the_start_is_dropped(moderator):
    t = make_tournament(moderator, system="round_robin")
    users = sign_up(t, 4)
    user_delete(user=users[3])
    services.tick(now=later())
    t.refresh_from_db()
    assert t.status == "running" and t.rounds == 3  # three players: three rounds, one bye each
    assert not Entry.objects.filter(tournament=t, user=users[3]).exists()
    assert not Game.objects.filter(seats__user=users[3]).exists()


@pytest.mark.django_db(transaction=True)
def test_a_byes_point_cannot_be_adjusted(moderator):
    """The walk-through: result_adjust accepted a bye's seat, though no game stands behind a bye."""
    t = make_tournament(moderator, rounds=2)
    sign_up(t, 3)
    services.tick(now=later())
    bye = TableSeat.objects.get(table__round__tournament=t, table__game__isnull=True)
    with pytest.raises(services.TournamentError, match="A bye is not a result"):
        moderators.result_adjust(moderator=moderator, tournament_id=t.pk, seat_id=bye.pk, points=0, reason="x")
    bye.refresh_from_db()
    assert bye.points == 1 and not bye.adjusted
