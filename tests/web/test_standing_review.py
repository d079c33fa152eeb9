"""Adversarial review of version 3 on the site (deferral, standing answers, clocks): each test
here is a finding, written to fail before its fix."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.contrib.auth.models import Group
from django.utils import timezone

from correspondence.sweep import sweep
from games import services
from games.engine.dominion.standing import ASK_ALL, DEFAULTS
from moderation import services as moderation
from tests.factories import UserFactory
from tests.web.test_standing import E, _game, _move, dealt  # noqa: F401 (dealt is a fixture)

DAY = timedelta(days=1)


def test_a_victim_whose_turn_came_while_it_owed_an_answer_gets_its_own_time_for_the_turn(
    dealt,  # noqa: F811
    player,
    opponent,
    django_capture_on_commit_callbacks,
):
    """Alice plays Militia and goes on; her turn ends while Bob (ask me) still owes his answers.
    Bob stays away a whole day: the timeout rule answers his out-of-turn questions for him (a
    bot) and the game goes on, as in version 2. Then his own turn must get its own time, as it
    did when Alice waited for his answer; instead his clock had run since the attack, so the
    next sweep forfeited him at once."""
    opponent.standing_answers = ASK_ALL
    opponent.save()
    dealt["moat"] = False
    game = _move(_game(player, opponent), player, act="play", card="Village")
    game = _move(game, player, act="play", card="Militia")
    game = _move(game, player, act="end_turn")
    assert game.to_act == [1] and services.state_at(game).current == 1  # his turn; he owes first
    with time_machine.travel(timezone.now() + DAY + timedelta(minutes=1)):
        with django_capture_on_commit_callbacks(execute=True):
            assert sweep()["timeouts"] == 1  # the bot answered "no reaction" and discarded
        game.refresh_from_db()
        state = services.state_at(game)
        assert len(state.hands[1]) == 3 and not state.owed  # his answers are in
        with django_capture_on_commit_callbacks(execute=True):
            sweep()
        game.refresh_from_db()
        bob = game.seats.get(position=1)
        assert game.is_active and not bob.forfeited
        assert bob.deadline is not None and bob.deadline > timezone.now() + DAY / 2


def test_a_victims_answer_made_on_the_page_it_was_shown_is_accepted_after_the_attacker_moved_on(
    dealt,  # noqa: F811
    player,
    opponent,
):
    """Version 3's point is that Alice plays on while Bob answers: Bob's Moat answer and his
    discard, made on the page that showed him the question, must not be refused as stale because
    Alice moved meanwhile (his question did not change). A second submit of the same form, or an
    answer to a question he no longer has, stays refused."""
    opponent.standing_answers = ASK_ALL
    opponent.save()
    dealt["moat"] = False
    game = _move(_game(player, opponent), player, act="play", card="Village")
    game = _move(game, player, act="play", card="Militia")
    shown = game.last_seq  # Bob's page: "Militia attacks you" (no reaction)
    game = _move(game, player, act="play", card="Market")
    assert game.last_seq > shown
    services.game_submit_move(game_id=game.pk, user=opponent, move={"act": "no"}, expected_seq=shown)
    game.refresh_from_db()
    with pytest.raises(services.StaleMove):  # the same form again: he has answered since
        services.game_submit_move(game_id=game.pk, user=opponent, move={"act": "no"}, expected_seq=shown)
    discard_shown = game.last_seq  # now his page asks for two cards
    game = _move(game, player, act="play_treasures")
    services.game_submit_move(
        game_id=game.pk, user=opponent, move={"act": "choose", "cards": [E, E]}, expected_seq=discard_shown
    )
    game.refresh_from_db()
    assert sorted(services.state_at(game).hands[1]) == ["Copper", "Copper", "Silver"]
    with pytest.raises(services.StaleMove):  # a turn move on an old page is still refused
        services.game_submit_move(game_id=game.pk, user=player, move={"act": "end_turn"}, expected_seq=shown)


def test_a_suspended_player_cannot_answer_through_the_standing_answers_form(dealt, player, opponent):  # noqa: F811
    """Every way to make a move checks the suspension (``game_submit_move``); saving standing
    answers for a game makes the seat's owed answers at once, so it must check it too."""
    opponent.standing_answers = ASK_ALL
    opponent.save()
    game = _move(_game(player, opponent), player, act="play", card="Village")
    game = _move(game, player, act="play", card="Militia")
    assert 1 in game.to_act
    moderator = UserFactory.create(username="mod", is_staff=True)
    moderator.groups.add(Group.objects.get(name="Moderators"))
    moderation.user_ban(moderator=moderator, user=opponent, reason="abuse")
    seq = game.last_seq
    with pytest.raises(services.AccountRestricted):
        services.game_standing_set(game_id=game.pk, user=opponent, settings=dict(DEFAULTS))
    game.refresh_from_db()
    assert game.last_seq == seq and 1 in game.to_act
