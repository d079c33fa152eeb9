"""The Dominion game page: what each viewer's HTML shows and hides, and its forms."""

from __future__ import annotations

import random
import re
from http import HTTPStatus

import pytest
from django.urls import reverse

from games import services
from games.engine.dominion.engine import ENGINE
from games.models import Game
from tests.conftest import make_game

pytestmark = pytest.mark.django_db


def play_with_bots(game: Game, moves: int, seed: int = 3) -> Game:
    """Advance a game by ``moves`` moves chosen by the big_money bot for whoever must act."""
    rng = random.Random(seed)
    users = {s.position: s.user for s in game.seats.all()}
    for _ in range(moves):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        state = services.state_at(game)
        seat = ENGINE.pending(state)[0].player
        move = ENGINE.bots["big_money"](ENGINE.player_view(state, seat), rng)
        services.game_submit_move(game_id=game.pk, user=users[seat], move=move, expected_seq=game.last_seq)
    game.refresh_from_db()
    return game


@pytest.fixture
def dominion_game(player, opponent):
    game = make_game(player, opponent, kind="dominion", options={"kingdom": "First Game"})
    return play_with_bots(game, 25)


def html(response) -> str:
    return response.content.decode()


def names_drawn(text: str, who: str) -> list[str]:
    """Card names that the log says ``who`` drew ("Bob draws 2 × Copper, Estate.")."""
    return re.findall(rf"{re.escape(who)} draws (?!\d+ cards?\.)([^.<]+)\.", text)


def test_a_player_sees_their_own_draws_and_only_counts_of_the_opponents(client, dominion_game, player, opponent):
    client.force_login(player)
    page = html(client.get(reverse("games:detail", args=[dominion_game.pk])))
    assert names_drawn(page, player.shown_name), "the player's own draws name the cards"
    assert names_drawn(page, opponent.shown_name) == []
    assert re.search(rf"{re.escape(opponent.shown_name)} draws \d+ cards?\.", page)


def test_the_hand_section_holds_exactly_the_viewers_hand(client, dominion_game, player):
    client.force_login(player)
    response = client.get(reverse("games:detail", args=[dominion_game.pk]))
    seat = dominion_game.seats.get(user=player).position
    hand = services.state_at(dominion_game).hands[seat]
    section = re.search(r'<section class="hand".*?</section>', html(response), re.S).group(0)
    shown = re.findall(r'<span class="card-name">([^<]+)</span>', section)
    assert sorted(shown) == sorted(hand)


def test_spectators_see_no_hand_and_no_drawn_card_names(client, dominion_game, outsider, player, opponent):
    client.force_login(outsider)
    page = html(client.get(reverse("games:detail", args=[dominion_game.pk])))
    assert 'class="hand"' not in page
    assert names_drawn(page, player.shown_name) == [] and names_drawn(page, opponent.shown_name) == []


def test_the_move_response_keeps_the_opponents_draws_hidden(client, dominion_game, player, opponent):
    dominion_game = play_with_bots(dominion_game, 1)  # whoever moved, now check the mover's answer page
    state = services.state_at(dominion_game)
    seat = ENGINE.pending(state)[0].player
    mover = dominion_game.seats.get(position=seat).user
    other = opponent if mover == player else player
    client.force_login(mover)
    response = client.post(reverse("games:move", args=[dominion_game.pk]),
                           {"act": "end_turn", "seq": dominion_game.last_seq}, HTTP_HX_REQUEST="true")
    assert response.status_code == HTTPStatus.OK
    assert names_drawn(html(response), other.shown_name) == []
    assert names_drawn(html(response), mover.shown_name)


def test_buy_buttons_only_for_affordable_piles_and_play_buttons_only_in_hand(client, player, opponent):
    game = make_game(player, opponent, kind="dominion", options={"kingdom": "First Game"})
    state = services.state_at(game)
    mover = game.seats.get(position=state.current).user
    client.force_login(mover)
    seq = game.last_seq
    client.post(reverse("games:move", args=[game.pk]), {"act": "play_treasures", "seq": seq})
    game.refresh_from_db()
    page = html(client.get(reverse("games:detail", args=[game.pk])))
    coins = services.state_at(game).coins
    buyable = set(re.findall(r'<button type="submit" name="card" value="([^"]+)" class="buy">', page))
    from games.engine.dominion.cards import COST

    assert buyable and all(COST[c] <= coins for c in buyable)
    assert {c for c, k in COST.items() if k <= coins and c in services.state_at(game).supply} == buyable


def test_a_militia_victim_answers_with_checkboxes(client, player, opponent):
    game = make_game(player, opponent, kind="dominion", options={"kingdom": "First Game"})
    rng = random.Random(5)
    users = {s.position: s.user for s in game.seats.all()}
    # Let bots play until someone holds Militia at the start of their turn, then play it
    # by form; again if the victim happened to have one possible answer (it is then
    # answered by the engine, and there is nothing to ask).
    for _ in range(1500):
        game.refresh_from_db()
        state = services.state_at(game)
        if (not state.open and state.phase == "action" and state.actions > 0
                and "Militia" in state.hands[state.current]):
            attacker, victim_seat = users[state.current], 1 - state.current
            client.force_login(attacker)
            client.post(reverse("games:move", args=[game.pk]),
                        {"act": "play", "card": "Militia", "seq": game.last_seq})
            game.refresh_from_db()
            if victim_seat in game.to_act:
                break
            continue
        seat = ENGINE.pending(state)[0].player
        view = ENGINE.player_view(state, seat)
        move = ENGINE.bots["smart"](view, rng)
        if move.get("act") == "buy" and state.coins >= 4 and "Militia" not in state.owned(seat):
            move = {"act": "buy", "card": "Militia"}
        services.game_submit_move(game_id=game.pk, user=users[seat], move=move, expected_seq=game.last_seq)
    else:
        pytest.fail("no Militia with a choice to make")
    victim = users[victim_seat]
    client.force_login(victim)
    page = html(client.get(reverse("games:detail", args=[game.pk])))
    assert "Militia: discard 2 cards" in page
    hand = services.state_at(game).hands[victim_seat]
    response = client.post(reverse("games:move", args=[game.pk]),
                           {"act": "choose", "cards": hand[:2], "seq": game.last_seq})
    assert response.status_code == HTTPStatus.FOUND
    assert len(services.state_at(Game.objects.get(pk=game.pk)).hands[victim_seat]) == 3


def test_the_replay_is_refused_while_the_game_runs_and_steps_once_it_is_over(client, dominion_game, player):
    client.force_login(player)
    assert client.get(reverse("games:replay", args=[dominion_game.pk])).status_code == HTTPStatus.NOT_FOUND
    game = play_with_bots(dominion_game, 3000)
    assert game.status == Game.Status.FINISHED
    first = client.get(reverse("games:replay", args=[game.pk]) + "?step=1&seat=1")
    assert first.status_code == HTTPStatus.OK
    # Everything is revealed in a replay of a finished game: both hands are drawn.
    assert html(first).count('class="card-name"') > 10
    final = client.get(reverse("games:replay", args=[game.pk]))
    assert "Final scores" in html(final)
    # At either end the replay offers no step past it; from another seat's eyes nothing says "Your".
    assert 'rel="next"' not in html(final) and 'rel="prev"' in html(final)
    assert 'rel="prev"' not in html(client.get(reverse("games:replay", args=[game.pk]) + "?step=0"))
    middle = html(client.get(reverse("games:replay", args=[game.pk]) + "?step=20&seat=1"))
    assert "Your turn" not in middle and "Your hand" not in middle
    assert client.get(reverse("games:replay", args=[game.pk]) + "?step=x").status_code == HTTPStatus.BAD_REQUEST


def test_buying_with_the_last_buy_ends_the_turn_at_once(client, player, opponent):
    """End turn needs no thought once no Buy is left: the site makes it, so the next player is not kept waiting."""
    game = make_game(player, opponent, kind="dominion", options={"kingdom": "First Game"})
    seat = services.state_at(game).current
    mover = game.seats.get(position=seat).user
    client.force_login(mover)
    move = reverse("games:move", args=[game.pk])
    assert client.post(move, {"act": "play_treasures", "seq": 0}).status_code == HTTPStatus.FOUND
    response = client.post(move, {"act": "buy", "card": "Copper", "seq": 1}, HTTP_HX_REQUEST="true")
    assert response.status_code == HTTPStatus.OK
    game.refresh_from_db()
    logged = list(game.actions.filter(seq__gt=1).values_list("seat", "move"))
    assert logged == [(seat, {"act": "buy", "card": "Copper"}), (seat, {"act": "end_turn"})]
    assert game.to_act == [1 - seat] and game.last_seq == 3
    assert not response.context["my_move"]
    assert services.state_at(game).current == 1 - seat


@pytest.mark.parametrize(("kingdom", "shown"), [
    (["Cellar", "Market", "Militia", "Mine", "Moat", "Remodel", "Smithy", "Village", "Woodcutter", "Workshop"],
     "Cellar, Market"),
    ("First Game", "First Game"),
    ("random", "chosen at random when the game starts"),
])
def test_an_open_game_says_its_kingdom_and_whom_it_invited_before_anyone_joins(client, player, opponent, kingdom,
                                                                              shown):
    """Whoever considers joining sees what they would play, and an invite-only game names its invitees."""
    game = services.game_create(creator=player, kind="dominion", options={"kingdom": kingdom}, players=2,
                                rated=False, private=True, invited=[opponent],
                                time_per_move=services.TIME_CONTROLS[3])
    client.force_login(opponent)
    page = html(client.get(reverse("games:detail", args=[game.pk])))
    assert f"Kingdom: {shown}" in page
    assert f"invited: {opponent.shown_name}" in page
