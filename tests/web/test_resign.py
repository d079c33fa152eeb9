"""Resigning: the seat ranks last; with one player left the game ends, with more a bot plays on.

Each game here is past move 0: before a move of their own, a player who resigns aborts the game
(tests/web/test_move_0.py).
"""

from __future__ import annotations

from http import HTTPStatus

import pytest
from django.core import mail
from django.urls import reverse

from games.models import Game
from tests.conftest import make_game, past_move_0
from tests.factories import UserFactory

pytestmark = pytest.mark.usefixtures("site_test")


def resign(client, game, confirm=True):
    return client.post(reverse("games:resign", args=[game.pk]), {"confirm": "1"} if confirm else {})


def test_resigning_a_two_player_game_ends_it_and_ranks_the_resigner_last(client, player, opponent):
    game = past_move_0(make_game(player, opponent))
    client.force_login(player)
    assert b"Resign" in client.get(reverse("games:detail", args=[game.pk])).content
    assert resign(client, game).status_code == HTTPStatus.FOUND
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    ranks = {s.user: s.rank for s in game.seats.all()}
    assert ranks == {opponent: 1, player: 2}
    page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert "resigned at" in page and "Resign…" not in page


def test_the_others_learn_by_email_that_a_player_resigned(client, player, opponent, django_capture_on_commit_callbacks):
    game = past_move_0(make_game(player, opponent))
    mail.outbox.clear()
    client.force_login(player)
    with django_capture_on_commit_callbacks(execute=True):
        resign(client, game)
    subjects = [m.subject for m in mail.outbox if opponent.email in m.to]
    assert any("resigned" in s for s in subjects), subjects


def test_a_resignation_that_ends_a_two_player_game_is_one_email_not_two(
    client, player, opponent, django_capture_on_commit_callbacks
):
    """The game-over email names the resignation; a second "X resigned" email about the same moment is noise."""
    game = past_move_0(make_game(player, opponent))
    mail.outbox.clear()
    client.force_login(player)
    with django_capture_on_commit_callbacks(execute=True):
        resign(client, game)
    to_opponent = [m for m in mail.outbox if opponent.email in m.to]
    assert len(to_opponent) == 1, [m.subject for m in to_opponent]
    assert "resigned" in to_opponent[0].subject and "is over" in to_opponent[0].body


def test_with_more_players_left_a_bot_plays_the_resigned_seat(client, player, opponent):
    third = UserFactory.create(username="third")
    game = past_move_0(make_game(player, opponent, third))
    client.force_login(player)
    resign(client, game)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    seat = game.seats.get(user=player)
    assert seat.forfeited and seat.resigned and seat.bot
    # Resigning again is refused with a reason; the seat stays as it is.
    response = client.post(reverse("games:resign", args=[game.pk]), {"confirm": "1"}, follow=True)
    assert "a bot plays it" in response.content.decode()


def test_resigning_needs_the_confirmation_box_and_a_seat(client, player, opponent, outsider):
    game = past_move_0(make_game(player, opponent))
    client.force_login(player)
    resign(client, game, confirm=False)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and not game.seats.get(user=player).forfeited
    client.force_login(outsider)
    assert resign(client, game).status_code == HTTPStatus.FORBIDDEN
    assert client.get(reverse("games:resign", args=[game.pk])).status_code == HTTPStatus.METHOD_NOT_ALLOWED


def test_after_resigning_the_page_offers_no_more_moves(client, player, opponent):
    """A bot plays the seat now: no move buttons for its former player (the board is cached, and a
    resignation changes no move number, so the key must see it)."""
    third = UserFactory.create(username="third")
    game = past_move_0(make_game(player, opponent, third))
    mover = game.seats.get(position=game.to_act[0]).user
    client.force_login(mover)
    client.get(reverse("games:detail", args=[game.pk]))
    assert b'name="move"' in client.get(reverse("games:detail", args=[game.pk])).content
    with pytest.MonkeyPatch.context() as mp:
        from games import fanout

        mp.setattr(fanout, "after_move", lambda **kwargs: None)  # keep the bot from moving the seat on
        resign(client, game)
    game.refresh_from_db()
    assert game.seats.get(user=mover).forfeited
    page = client.get(reverse("games:detail", args=[game.pk]))
    assert b'name="move"' not in page.content and not page.context["my_move"]


def test_a_dominion_game_won_by_resignation_is_drawn_as_over_with_every_card_shown(
    client, player, opponent, django_capture_on_commit_callbacks
):
    """The engine's position is mid-game, but the game is over: no live turn, no moves, the final
    scores and the replay link, and nothing hidden any more (as in its log). The result email says
    who resigned rather than calling it a timeout."""
    game = past_move_0(make_game(player, opponent, kind="dominion", options={"kingdom": "First Game"}))
    mail.outbox.clear()
    client.force_login(player)
    with django_capture_on_commit_callbacks(execute=True):
        resign(client, game)
    client.force_login(opponent)
    page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert "Final position" in page and "Final scores" in page and "Replay this game" in page
    assert "Your turn" not in page and "Your hand" not in page
    assert 'name="card"' not in page and 'value="end_turn"' not in page and 'value="play_treasures"' not in page
    view = client.get(reverse("games:detail", args=[game.pk])).context["view"]
    assert all(s["hand"] is not None and "deck" in s for s in view["seats"])
    assert view["result"]["winners"] == [game.seats.get(user=opponent).position]
    over = [m.body for m in mail.outbox if opponent.email in m.to]
    assert len(over) == 1 and "is over" in over[0], over
    assert f"{player.shown_name} (resigned)" in over[0] and "ran out of time" not in over[0], over


def test_a_game_ended_by_a_resignation_offers_its_winner_no_move(client, player, opponent):
    """The rules never ended the game, so the engine's view still lists the winner's moves (it was their
    turn): the page of a finished game must not offer them (each would be refused with a 409)."""
    from tests.conftest import user_to_move, user_waiting

    game = past_move_0(make_game(player, opponent, kind="dominion", options={"kingdom": "First Game"}))
    mover, waiter = user_to_move(game), user_waiting(game)
    client.force_login(waiter)
    resign(client, game)  # during the other player's turn
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    client.force_login(mover)
    page = client.get(reverse("games:detail", args=[game.pk]))
    html = page.content.decode()
    assert 'value="end_actions"' not in html and 'value="play_treasures"' not in html
    assert not page.context["view"]["legal"]


def test_the_game_over_email_calls_a_resignation_a_resignation(
    client, player, opponent, django_capture_on_commit_callbacks
):
    """The result in the game-over email marks the resigned seat; it must not say it ran out of time."""
    game = past_move_0(make_game(player, opponent))
    mail.outbox.clear()
    client.force_login(player)
    with django_capture_on_commit_callbacks(execute=True):
        resign(client, game)
    over = [m for m in mail.outbox if "is over" in m.subject]
    assert over, [m.subject for m in mail.outbox]
    for message in over:
        assert "ran out of time" not in message.body, message.body
        assert "resigned" in message.body, message.body


def test_an_open_page_learns_of_a_resignation_that_changes_no_move(client, player, opponent):
    """With three players, a resignation out of turn changes neither the move number nor the status: the
    others' open pages must still see it by their poll (the clocks say who resigned, the cached regions'
    keys already count forfeits), not only after the next move."""
    from tests.conftest import user_to_move

    third = UserFactory.create(username="third")
    game = past_move_0(make_game(player, opponent, third))
    mover = user_to_move(game)
    quitter = next(u for u in (player, opponent, third) if u != mover)
    client.force_login(mover)
    page = client.get(reverse("games:detail", args=[game.pk]))
    cursor = page.context["cursor"]
    client.force_login(quitter)
    seq = game.last_seq
    resign(client, game)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and game.last_seq == seq
    client.force_login(mover)
    poll = client.get(
        reverse("games:poll", args=[game.pk]), {"seq": seq, "v": cursor, "chat": 0}, HTTP_HX_REQUEST="true"
    )
    assert poll.status_code == HTTPStatus.OK
    assert "resigned at" in poll.content.decode()


def test_two_resignations_between_the_same_two_moves_are_both_emailed(
    client, player, opponent, django_capture_on_commit_callbacks
):
    """The outbox keys a 'timed out' email by (user, game, kind, seq); two forfeits at the same move
    number must still be two emails, or the others never learn of the second resignation."""
    from tests.conftest import user_to_move

    third, fourth = UserFactory.create(username="third"), UserFactory.create(username="fourth")
    game = past_move_0(make_game(player, opponent, third, fourth))
    mover = user_to_move(game)
    first, second, stays = [u for u in (player, opponent, third, fourth) if u != mover]
    seq = game.last_seq
    mail.outbox.clear()
    for quitter in (first, second):
        client.force_login(quitter)
        with django_capture_on_commit_callbacks(execute=True):
            resign(client, game)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and game.last_seq == seq
    for user in (mover, stays):
        subjects = [m.subject for m in mail.outbox if user.email in m.to and "resigned" in m.subject]
        assert len(subjects) == 2, subjects
        assert any(first.shown_name in s for s in subjects) and any(second.shown_name in s for s in subjects)


def test_a_finished_game_offers_no_sound_for_my_move(client, player, opponent):
    """Once the game is over it never becomes anyone's move: the page does not offer the sound."""
    game = past_move_0(make_game(player, opponent))
    client.force_login(opponent)
    assert 'id="move-sound"' in client.get(reverse("games:detail", args=[game.pk])).content.decode()
    client.force_login(player)
    resign(client, game)
    for user in (player, opponent):
        client.force_login(user)
        page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
        assert 'id="move-sound"' not in page and "Play a sound when it becomes my move" not in page
