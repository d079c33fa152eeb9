"""A game whose log no longer replays is never an error page: it stops, waits for a moderator, and says so.

Two deliberately broken deployments of the fake "counter" engine: a rules
change made without a version check (a stored move is now refused), and an
engine that no longer ships the version a game started under.
"""

from __future__ import annotations

from datetime import timedelta
from http import HTTPStatus

import pytest
import time_machine
from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone

from correspondence import services as correspondence
from games import services as game_services
from games.engine.core import IllegalMove
from games.models import Action, Game
from moderation import services
from moderation.models import ModerationAction
from moderation.trail import Kind
from tests.conftest import make_game, user_to_move
from tests.counter.engine import CounterEngine
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

STOPPED = "This game has stopped: its moves no longer replay"
#: The counter's check as shipped (the fixture replaces the class attribute).
ORIGINAL_CHECK = CounterEngine.check


def play(game: Game, *adds: int) -> Game:
    for n in adds:
        game_services.game_submit_move(
            game_id=game.pk, user=user_to_move(game), move={"act": "add", "n": n}, expected_seq=game.last_seq
        )
        game.refresh_from_db()
    return game


@pytest.fixture
def twos_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """A rules change deployed without a version bump: adding 2 is no longer allowed, stored games or not."""
    check = CounterEngine.check

    def stricter(self, state, player, move):
        if isinstance(move, dict) and move.get("n") == 2:
            raise IllegalMove("Add 1 or 3.", "bad_number")
        check(self, state, player, move)

    monkeypatch.setattr(CounterEngine, "check", stricter)
    cache.clear()  # the cached positions were made by the old code


def test_a_game_whose_stored_moves_are_refused_stops_and_shows_why(client, player, opponent, twos_refused):
    game = make_game(player, opponent)
    with pytest.MonkeyPatch.context() as before:  # the moves were made under the old rules
        before.setattr(CounterEngine, "check", ORIGINAL_CHECK)
        game = play(game, 1, 2)
    cache.clear()
    client.force_login(player)
    page = client.get(game.get_absolute_url())
    assert page.status_code == HTTPStatus.OK
    assert STOPPED in page.content.decode()
    game.refresh_from_db()
    assert game.status == Game.Status.FROZEN and game.to_act == [] and game.deadline is None
    assert "move 2" in game.frozen_reason and "Add 1 or 3" in game.frozen_reason
    assert all(s.deadline is None and not s.owes_move for s in game.seats.all())
    # The page shows the game as far as it replays (after the first move), and offers no move.
    assert page.context["view"]["total"] == 1
    assert page.context["view"]["legal"] == [] and not page.context["my_move"]
    # A spectator's page is no error either.
    assert client.get(game.get_absolute_url()).status_code == HTTPStatus.OK


def test_a_move_in_a_game_that_no_longer_replays_is_refused_without_a_500(client, player, opponent, twos_refused):
    with pytest.MonkeyPatch.context() as before:
        before.setattr(CounterEngine, "check", ORIGINAL_CHECK)
        game = play(make_game(player, opponent), 2)
    cache.clear()
    mover = user_to_move(game)
    client.force_login(mover)
    response = client.post(
        reverse("games:move", args=[game.pk]),
        {"act": "add", "n": "1", "seq": str(game.last_seq)},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == HTTPStatus.CONFLICT
    assert "no longer replay" in response.content.decode()
    assert Action.objects.filter(game=game).count() == 1
    game.refresh_from_db()
    assert game.status == Game.Status.FROZEN


def test_a_frozen_game_never_times_out_and_a_moderator_is_alerted_and_can_adjudicate_it(
    client, mod_client, moderator, player, opponent, twos_refused
):
    with pytest.MonkeyPatch.context() as before:
        before.setattr(CounterEngine, "check", ORIGINAL_CHECK)
        game = play(make_game(player, opponent), 2)
    cache.clear()
    client.force_login(player)
    client.get(game.get_absolute_url())  # the first look finds it broken
    with time_machine.travel(timezone.now() + timedelta(days=3)):
        assert correspondence.sweep()["timeouts"] == 0
    game.refresh_from_db()
    assert game.status == Game.Status.FROZEN and not game.seats.filter(forfeited=True).exists()

    staff = UserFactory.create(is_staff=True)
    client.force_login(staff)
    stats = client.get("/ops/stats/").content.decode()
    assert f"#{game.pk}</a>" in stats
    queue = mod_client.get(reverse("admin:moderation_report_changelist"), follow=True).content.decode()
    assert "1 game has stopped because its moves no longer replay." in queue

    services.game_adjudicate(moderator=moderator, game_id=game.pk, ranks={0: 1, 1: 2}, reason="broken replay")
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert sorted(s.rank for s in game.seats.all()) == [1, 2]


def test_a_game_of_an_engine_version_no_longer_shipped_stops_and_can_be_cancelled(
    client, moderator, player, opponent, monkeypatch
):
    game = play(make_game(player, opponent), 1)
    assert game.engine_version == 1
    monkeypatch.setattr(CounterEngine, "version", 2)  # version 1 was dropped, which the policy forbids
    cache.clear()
    client.force_login(opponent)
    page = client.get(game.get_absolute_url())
    assert page.status_code == HTTPStatus.OK and STOPPED in page.content.decode()
    game.refresh_from_db()
    assert game.status == Game.Status.FROZEN and "version 1" in game.frozen_reason
    # Its replay page and its moderators' full log say so instead of failing.
    assert client.get(reverse("games:replay", args=[game.pk])).status_code in (HTTPStatus.FOUND, HTTPStatus.NOT_FOUND)
    with pytest.raises(services.ModerationError):
        services.game_full_log(moderator=moderator, game_id=game.pk)
    services.game_abort(moderator=moderator, game_id=game.pk, reason="engine version gone")
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED


def test_forfeiting_a_seat_of_a_game_whose_engine_version_is_gone_freezes_it_without_a_500(
    mod_client, moderator, player, opponent, monkeypatch
):
    """The forfeit needs the game's engine (its bot plays on); nobody opened the game since the deploy."""
    game = play(make_game(player, opponent), 1)
    monkeypatch.setattr(CounterEngine, "version", 2)
    cache.clear()
    response = mod_client.post(
        reverse("admin:games_game_moderate", args=[game.pk]), {"action": "forfeit", "position": "1", "reason": "x"}
    )
    assert response.status_code == HTTPStatus.OK
    assert "no longer replays" in response.content.decode()
    game.refresh_from_db()
    assert game.status == Game.Status.FROZEN and "version 1" in game.frozen_reason
    assert not game.seats.filter(forfeited=True).exists()


def test_the_ban_sweep_freezes_a_game_whose_engine_version_is_gone(moderator, player, opponent, monkeypatch, caplog):
    """Instead of failing on it every minute (logged as an error) while the game stays running."""
    game = play(make_game(player, opponent), 1)
    monkeypatch.setattr(CounterEngine, "version", 2)
    cache.clear()
    services.user_ban(moderator=moderator, user=player, reason="x")
    assert services.banned_seats_forfeit() == 0
    game.refresh_from_db()
    assert game.status == Game.Status.FROZEN
    assert not [r for r in caplog.records if r.name == "moderation.user_actions"]


def test_a_moderator_seated_in_a_frozen_game_cannot_open_its_hidden_log_once_it_replays_again(
    client, moderator, player, monkeypatch
):
    # Frozen is not over: once a fixed engine replays the game again, a moderator who
    # plays in it would see the other hands before play goes on.
    game = play(make_game(moderator, player), 1)
    with monkeypatch.context() as broken:
        broken.setattr(CounterEngine, "version", 2)
        cache.clear()
        client.force_login(player)
        client.get(game.get_absolute_url())
    cache.clear()
    game.refresh_from_db()
    assert game.status == Game.Status.FROZEN
    with pytest.raises(services.ModerationError, match="You play in this game"):
        services.game_full_log(moderator=moderator, game_id=game.pk)
    assert not ModerationAction.objects.filter(action=Kind.LOG_VIEW).exists()


def test_a_frozen_game_stays_in_its_players_lists_marked_as_stopped(client, player, opponent, monkeypatch):
    # Its players must find it again (to read the moderator's decision when it comes), not lose it.
    game = play(make_game(player, opponent), 1)
    with monkeypatch.context() as broken:
        broken.setattr(CounterEngine, "version", 2)
        cache.clear()
        client.force_login(player)
        client.get(game.get_absolute_url())
    cache.clear()
    game.refresh_from_db()
    assert game.status == Game.Status.FROZEN
    for page in (reverse("games:lobby"), reverse("accounts:profile", args=[player.username])):
        html = client.get(page).content.decode()
        assert game.get_absolute_url() in html, page
        assert "stopped: a moderator will settle it" in html, page
