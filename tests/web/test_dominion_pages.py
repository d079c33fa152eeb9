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
from tests.conftest import make_game, seated

pytestmark = pytest.mark.django_db


def play_with_bots(game: Game, moves: int, seed: int = 3) -> Game:
    """Advance a game by ``moves`` moves chosen by the big_money bot for whoever must act."""
    rng = random.Random(seed)
    users = {s.position: seated(s) for s in game.seats.all()}
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
    """Card names that the log says ``who`` drew ("Bob draws 2 × Copper, Estate."; card names are links)."""
    text = re.sub(r"</?a\b[^>]*>", "", text)
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
    shown = [n.replace("\u00ad", "") for n in re.findall(r"<span class=\"card-name\">([^<]+)</span>", section)]
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
    response = client.post(
        reverse("games:move", args=[dominion_game.pk]),
        {"act": "end_turn", "seq": dominion_game.last_seq},
        HTTP_HX_REQUEST="true",
    )
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


def test_a_pile_the_player_may_buy_is_one_tab_stop_its_buy_button_named_for_the_card(client, player, opponent):
    """Keyboard users tab through the supply: a buyable pile is its button ("Buy Silver"), not the card and then
    a button called "Buy"; a pile they cannot buy keeps the card's tab stop, to read its text."""
    game = make_game(player, opponent, kind="dominion", options={"kingdom": "First Game"})
    mover = game.seats.get(position=services.state_at(game).current).user
    client.force_login(mover)
    client.post(reverse("games:move", args=[game.pk]), {"act": "play_treasures", "seq": game.last_seq})
    page = html(client.get(reverse("games:detail", args=[game.pk])))
    piles = re.findall(r'<div class="pile">(.*?)</div>', page, re.S)
    assert piles
    for pile in piles:
        name = re.search(r'<span class="card-name">([^<]+)</span>', pile).group(1).replace("\u00ad", "")
        if 'class="buy"' in pile:
            # the card's "?" opens its text on a tap but is no tab stop: the button shows the text when focused
            assert "<summary title=" not in pile and '<summary tabindex="-1"' in pile, pile
            assert f'<span class="visually-hidden"> {name}</span></button>' in pile
        else:
            assert "<summary title=" in pile, pile  # the card itself: a tab stop that opens its text
    assert any('class="buy"' in p for p in piles) and not all('class="buy"' in p for p in piles)


def test_a_militia_victim_answers_with_checkboxes(client, player, opponent):
    game = make_game(player, opponent, kind="dominion", options={"kingdom": "First Game"})
    # Militia "ask me" (the default standing answer would discard for the victim).
    game.seats.update(standing={"moat": "reveal", "militia": "ask"})
    rng = random.Random(5)
    users = {s.position: seated(s) for s in game.seats.all()}
    # Let bots play until someone holds Militia at the start of their turn, then play it
    # by form; again if the victim happened to have one possible answer (it is then
    # answered by the engine, and there is nothing to ask).
    for _ in range(1500):
        game.refresh_from_db()
        state = services.state_at(game)
        if not state.open and state.phase == "action" and state.actions > 0 and "Militia" in state.hands[state.current]:
            attacker, victim_seat = users[state.current], 1 - state.current
            client.force_login(attacker)
            client.post(reverse("games:move", args=[game.pk]), {"act": "play", "card": "Militia", "seq": game.last_seq})
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
    response = client.post(
        reverse("games:move", args=[game.pk]), {"act": "choose", "cards": hand[:2], "seq": game.last_seq}
    )
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
    bad = client.get(reverse("games:replay", args=[game.pk]) + "?step=x")
    assert bad.status_code == HTTPStatus.BAD_REQUEST
    # In the site's layout, saying what was wrong and where to go, not a bare line of text.
    assert "Step and seat must be numbers." in html(bad) and reverse("games:lobby") in html(bad)
    assert "<nav" in html(bad)


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


@pytest.mark.parametrize(
    ("kingdom", "shown"),
    [
        (
            ["Cellar", "Market", "Militia", "Mine", "Moat", "Remodel", "Smithy", "Village", "Woodcutter", "Workshop"],
            "Cellar, Market",
        ),
        ("First Game", "First Game"),
        ("random", "chosen at random when the game starts"),
    ],
)
def test_an_open_game_says_its_kingdom_and_whom_it_invited_before_anyone_joins(
    client, player, opponent, kingdom, shown
):
    """Whoever considers joining sees what they would play, and an invite-only game names its invitees."""
    game = services.game_create(
        creator=player,
        kind="dominion",
        options={"kingdom": kingdom},
        players=2,
        rated=False,
        private=True,
        invited=[opponent],
        time_per_move=services.TIME_CONTROLS[3],
    )
    client.force_login(opponent)
    page = html(client.get(reverse("games:detail", args=[game.pk])))
    assert f"Kingdom: {shown}" in page
    assert f"invited: {opponent.shown_name}" in page
    chinese = html(client.get(reverse("games:detail", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="zh-TW"))
    assert "王國卡：" in chinese and "Kingdom:" not in chinese


def log_section(text: str) -> str:
    found = re.search(r'<section id="game-log".*?</section>', text, re.S)
    assert found is not None, "the page has no game log"
    return found.group(0)


def test_a_log_extended_from_the_previous_positions_lines_reads_as_one_drawn_afresh(client, player, opponent):
    """Each position's log reuses the lines drawn for the one before: after every move, for each player
    and a spectator, it must be the log a fresh cache would draw, newest first, never more than 100 lines."""
    from django.core.cache import cache

    from tests.factories import UserFactory

    game = make_game(player, opponent, kind="dominion", options={"kingdom": "First Game"})
    viewers = [player, opponent, UserFactory.create(username="watcher")]
    for step in range(30):
        game = play_with_bots(game, 3, seed=step)
        drawn = {}
        for user in viewers:
            client.force_login(user)
            drawn[user] = log_section(html(client.get(reverse("games:detail", args=[game.pk]))))
        cache.clear()  # the fresh drawing, which the next position then extends
        for user in viewers:
            client.force_login(user)
            assert drawn[user] == log_section(html(client.get(reverse("games:detail", args=[game.pk])))), (step, user)
    assert drawn[player].count("<li") == 100


def test_a_reused_log_line_never_shows_one_player_the_others_draws(client, player, opponent):
    game = make_game(player, opponent, kind="dominion", options={"kingdom": "First Game"})
    for step in range(6):
        game = play_with_bots(game, 4, seed=step)
        for user, other in ((player, opponent), (opponent, player)):
            client.force_login(user)
            page = html(client.get(reverse("games:detail", args=[game.pk])))
            assert names_drawn(page, other.shown_name) == [], (step, user)
            assert names_drawn(page, user.shown_name), (step, user)


def test_a_log_whose_kept_lines_are_older_than_the_events_in_hand_is_drawn_afresh(
    client, player, opponent, monkeypatch
):
    """A player away for many moves: the position keeps only its recent events, so the lines kept from
    their last visit cannot be extended without a gap; the log is drawn from the events in hand instead."""
    from django.core.cache import cache

    from games import replay

    monkeypatch.setattr(replay, "RECENT_EVENTS", 30)
    game = make_game(player, opponent, kind="dominion", options={"kingdom": "First Game"})
    game = play_with_bots(game, 4)
    client.force_login(player)
    client.get(reverse("games:detail", args=[game.pk]))  # the lines kept from this visit
    game = play_with_bots(game, 40, seed=5)  # far more than 30 events
    away = log_section(html(client.get(reverse("games:detail", args=[game.pk]))))
    cache.clear()
    assert away == log_section(html(client.get(reverse("games:detail", args=[game.pk]))))


def test_log_lines_kept_for_a_later_position_are_not_shown_at_an_earlier_one(player, opponent):
    """A page drawn for an older position (its request read the game just before a move) must not show
    lines of moves made after it."""
    from django.template import Context, Template

    game = make_game(player, opponent, kind="dominion", options={"kingdom": "First Game"})
    game = play_with_bots(game, 6)
    older = Game.objects.prefetch_related("seats__user").get(pk=game.pk)
    older_events = services.snapshot_at(older).events
    game = play_with_bots(game, 3)
    newer = Game.objects.prefetch_related("seats__user").get(pk=game.pk)
    tag = Template("{% load games_tags %}{% log_entries None game 0 events %}")
    tag.render(Context({"game": newer, "events": services.snapshot_at(newer).events}))  # kept at the later seq
    drawn = tag.render(Context({"game": older, "events": older_events}))
    assert f">{newer.last_seq}</span>" not in drawn
    assert f">{older.last_seq}</span>" in drawn
