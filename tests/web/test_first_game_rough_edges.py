"""The rough edges a newcomer met in a first game (issue 23, item 7), each as the reader sees it.

The replay's "(you)", empty clock bubbles, what "Recently finished" says,
games to watch, the order of cards in a prompt, Throne Room's single pick,
Library's draws, the log's move numbers and nested Throne Rooms, and a
Domaine play with no card.
"""

from __future__ import annotations

import json
import re
from http import HTTPStatus

import pytest
from django.template.loader import render_to_string
from django.test import RequestFactory
from django.urls import reverse

from games import selectors
from games.engine.dominion.engine import ENGINE
from games.engine.dominion.scenario import build
from games.eventtext import CARD_MARK
from games.models import Game
from games.templatetags.games_tags import log_entries
from tests.conftest import make_game, seated
from tests.factories import UserFactory
from tests.web.test_domaine_views import at_step, bot_moves
from tests.web.test_dominion_pages import html, play_with_bots


def unmarked(text: str) -> str:
    """A log line without the marks around card names (the page turns them into links)."""
    return text.replace(CARD_MARK[0], "").replace(CARD_MARK[1], "")


pytestmark = pytest.mark.django_db


def finished_dominion(player, opponent) -> Game:
    game = make_game(player, opponent, kind="dominion", options={"kingdom": "First Game"})
    game = play_with_bots(game, 3000)
    assert game.status == Game.Status.FINISHED
    return game


# ---------------------------------------------------------------------------
# The replay, clocks, the lobby


def test_the_replay_seen_from_another_seat_calls_only_the_readers_own_seat_you(client, player, opponent):
    game = finished_dominion(player, opponent)
    mine = game.seats.get(user=player).position
    client.force_login(player)
    other = html(client.get(reverse("games:replay", args=[game.pk]) + f"?step=5&seat={2 - mine}"))
    you = re.findall(r"<th scope=\"row\">([^<]*) \(you\)</th>", other)
    assert you == [player.shown_name], you
    client.force_login(UserFactory.create())
    assert "(you)" not in html(client.get(reverse("games:replay", args=[game.pk]) + "?step=5&seat=0"))


def test_a_finished_game_shows_no_empty_clock_bubbles(client, player, opponent):
    game = finished_dominion(player, opponent)
    client.force_login(player)
    page = html(client.get(reverse("games:detail", args=[game.pk])))
    bubbles = re.findall(r'<li class="clock[^"]*"><span class="name">[^<]*</span>:\s*</li>', page)
    assert bubbles == []


def test_recently_finished_names_the_winner_and_the_score(client, player, opponent):
    game = finished_dominion(player, opponent)
    seats = {s.position: s for s in game.seats.all()}
    winner = next(s for s in seats.values() if s.rank == 1)
    page = html(client.get(reverse("games:lobby")))
    section = page.split('id="h-finished"', 1)[1]
    row = re.search(rf'<li class="game-row"><a href="/games/{game.pk}/".*?</li>', section, re.S).group(0)
    assert f"won by {winner.name}" in row
    for s in seats.values():
        assert f"{s.name}</a> ({s.score})" in row, row


def test_visitors_get_a_list_of_games_in_progress_to_watch(client, player, opponent):
    running = make_game(player, opponent)
    private = make_game(UserFactory.create(), UserFactory.create(), private=True)
    page = html(client.get(reverse("games:lobby")))
    assert 'id="h-watch"' in page
    section = page.split('id="h-watch"', 1)[1].split("</section>", 1)[0]
    assert f'href="/games/{running.pk}/"' in section
    assert f'href="/games/{private.pk}/"' not in section
    # and a visitor may open it
    assert client.get(reverse("games:detail", args=[running.pk])).status_code == HTTPStatus.OK


# ---------------------------------------------------------------------------
# Prompts drawn from the hand


def board_html(game: Game, state, viewer: int) -> str:
    """The Dominion board as ``viewer`` sees ``state`` (a scenario position) at ``game``'s page."""
    seats = list(game.seats.all())
    view = ENGINE.view(state, viewer)
    request = RequestFactory().get("/")
    request.user = seated(seats[viewer])
    context = {
        "game": game,
        "seat": seats[viewer],
        "seats": seats,
        "viewer": viewer,
        "view": view,
        "my_move": True,
    }
    return render_to_string("dominion/board.html", context, request=request)


def names_in(fragment: str) -> list[str]:
    return re.findall(r'<span class="card-name">([^<]+)</span>', fragment)


def section(page: str, cls: str) -> str:
    match = re.search(rf'<section class="{cls}"[^>]*>(.*?)</section>', page, re.S)
    return match.group(1) if match else ""


def test_the_militia_prompt_lists_the_cards_in_the_hands_order_and_the_hand_once(player, opponent):
    game = make_game(player, opponent, kind="dominion", options={"kingdom": "First Game"})
    state = build(
        {
            "kingdom": "First Game",
            "players_state": [
                {"hand": ["Militia", "Copper", "Copper", "Estate", "Copper"]},
                {"hand": ["Estate", "Copper", "Smithy", "Silver", "Copper"]},
            ],
        }
    )
    ENGINE.apply(state, 0, {"act": "play", "card": "Militia"})
    page = board_html(game, state, 1)
    decision = section(page, "decision")
    hand_order = ENGINE.view(state, 1)["seats"][1]["hand"]
    assert names_in(decision) == hand_order
    assert len(re.findall(r'type="checkbox" name="cards"', decision)) == 5
    # the hand is drawn once, as the picker: not again below it
    assert names_in(section(page, "hand")) == []


def test_throne_room_picks_one_card_with_one_click_from_the_hand_drawn_once(player, opponent):
    game = make_game(player, opponent, kind="dominion", options={"kingdom": "First Game"})
    state = build(
        {
            "kingdom": ["Throne Room", "Smithy", "Village", "Cellar", "Moat", "Workshop", "Market", "Mine", "Remodel"]
            + ["Militia"],
            "players_state": [{"hand": ["Throne Room", "Copper", "Smithy", "Estate", "Village"]}, {"hand": []}],
        }
    )
    ENGINE.apply(state, 0, {"act": "play", "card": "Throne Room"})
    page = board_html(game, state, 0)
    decision = section(page, "decision")
    assert 'type="checkbox"' not in decision
    buttons = re.findall(r'<button type="submit" name="cards" value="([^"]+)"', decision)
    assert sorted(buttons) == ["Smithy", "Village"]
    # the other cards of the hand are there to see, not to pick; the hand is not drawn a second time
    assert sorted(names_in(decision)) == ["Copper", "Estate", "Smithy", "Village"]
    assert names_in(section(page, "hand")) == []


def test_a_choice_not_from_the_hand_keeps_the_hand_below(player, opponent):
    """Thief's revealed Treasures are not the attacker's hand: the hand stays where it is."""
    game = make_game(player, opponent, kind="dominion", options={"kingdom": "First Game"})
    state = build(
        {
            "kingdom": ["Thief", "Smithy", "Village", "Cellar", "Moat", "Workshop", "Market", "Mine", "Remodel"]
            + ["Militia"],
            "players_state": [
                {"hand": ["Thief", "Silver", "Estate"]},
                {"hand": ["Estate"], "deck": ["Silver", "Gold", "Copper"]},
            ],
        }
    )
    ENGINE.apply(state, 0, {"act": "play", "card": "Thief"})
    page = board_html(game, state, 0)
    assert sorted(names_in(section(page, "decision"))) == ["Gold", "Silver"]
    assert sorted(names_in(section(page, "hand"))) == ["Estate", "Silver"]


# ---------------------------------------------------------------------------
# The log


def log_of(game: Game, state, moves: list[tuple[int, dict]]) -> list[selectors.LogEntry]:
    """The log lines ``moves`` (applied to the scenario ``state``) give the game's first seat."""
    events = []
    for seq, (player, move) in enumerate(moves, start=1):
        events += [(seq, e) for e in ENGINE.apply(state, player, move)]
    game.last_seq = len(moves)
    return selectors.game_log(game, 0, events=events)


def test_library_says_how_many_cards_it_drew_in_one_line(player, opponent):
    game = make_game(player, opponent, kind="dominion", options={"kingdom": "First Game"})
    state = build(
        {
            "kingdom": ["Library", "Smithy", "Village", "Cellar", "Moat", "Workshop", "Market", "Mine", "Remodel"]
            + ["Militia"],
            "players_state": [
                {"hand": ["Library", "Copper", "Copper"], "deck": ["Copper", "Estate", "Silver", "Copper", "Gold"]},
                {"hand": []},
            ],
        }
    )
    lines = [unmarked(e.text) for e in log_of(game, state, [(0, {"act": "play", "card": "Library"})])]
    names = {s.position: s.name for s in game.seats.all()}
    assert lines == [f"{names[0]} plays Library.", f"{names[0]} draws 2 × Copper, Estate, Silver, Gold."], lines


def test_the_opponent_reads_one_draw_count_for_library(player, opponent):
    game = make_game(player, opponent, kind="dominion", options={"kingdom": "First Game"})
    state = build(
        {
            "kingdom": ["Library", "Smithy", "Village", "Cellar", "Moat", "Workshop", "Market", "Mine", "Remodel"]
            + ["Militia"],
            "players_state": [
                {"hand": ["Library", "Copper", "Copper"], "deck": ["Copper", "Estate", "Silver", "Copper", "Gold"]},
                {"hand": []},
            ],
        }
    )
    events = [(1, e) for e in ENGINE.apply(state, 0, {"act": "play", "card": "Library"})]
    game.last_seq = 1
    lines = [unmarked(e.text) for e in selectors.game_log(game, 1, events=events)]
    name = game.seats.get(position=0).name
    assert lines == [f"{name} plays Library.", f"{name} draws 5 cards."], lines


def test_a_move_number_is_shown_once_and_nested_throne_rooms_are_indented(client, player, opponent):
    game = make_game(player, opponent, kind="dominion", options={"kingdom": "First Game"})
    state = build(
        {
            "kingdom": ["Throne Room", "Smithy", "Village", "Cellar", "Moat", "Workshop", "Market", "Mine", "Remodel"]
            + ["Militia"],
            "players_state": [
                {"hand": ["Throne Room", "Throne Room", "Village", "Moat", "Copper"], "deck": ["Copper"] * 12},
                {"hand": []},
            ],
        }
    )
    moves = [
        (0, {"act": "play", "card": "Throne Room"}),
        (0, {"act": "choose", "cards": ["Throne Room"]}),
        (0, {"act": "choose", "cards": ["Village"]}),  # then Moat, the only Action left, is played twice by itself
    ]
    entries = log_of(game, state, moves)
    drawn = log_entries(entries)
    lines = re.findall(r"<li([^>]*)>(.*?)</li>", drawn)
    # newest first; each move's number once, on its first line
    numbers = [re.search(r'<span class="seq"[^>]*>(\d*)</span>', body).group(1) for _attrs, body in lines]
    assert [n for n in numbers if n] == ["3", "2", "1"], numbers
    name = game.seats.get(position=0).name
    drawn_lines = []
    for attrs, body in reversed(lines):  # oldest first
        level = re.search(r'data-depth="(\d)"', attrs)
        text = re.sub(r"^\d+ ", "", re.sub(r"<[^>]+>", "", body).strip())
        drawn_lines.append((int(level.group(1)) if level else 0, text.replace(name, "P")))
    plays = [(d, t) for d, t in drawn_lines if " plays " in t]
    assert plays == [
        (0, "P plays Throne Room."),
        (1, "P plays Throne Room."),
        (2, "P plays Village."),
        (2, "P plays Village."),
        (1, "P plays Throne Room."),
        (2, "P plays Moat."),
        (2, "P plays Moat."),
    ], drawn_lines
    # what a play causes sits at its depth: Moat's draws under Moat
    assert drawn_lines[-1] == (2, "P draws 2 × Copper."), drawn_lines


# ---------------------------------------------------------------------------
# Domaine


def test_a_domaine_play_with_no_card_is_refused_for_that_reason(client, player, opponent):
    game = make_game(player, opponent, kind="domaine", options={})
    game = bot_moves(game, until=at_step("play"))
    client.force_login(game.seats.get(position=game.to_act[0]).user)
    move = {"act": "play", "card": None}
    response = client.post(reverse("games:move", args=[game.pk]), {"move": json.dumps(move), "seq": game.last_seq})
    text = response.content.decode()
    assert response.status_code == HTTPStatus.UNPROCESSABLE_ENTITY
    assert "places nothing" not in text
    assert game.actions.count() == game.last_seq
    # and the refusal names what is wrong instead
    assert "card" in re.sub(r"<[^>]+>", " ", text.split('role="alert">', 1)[1].split("</p>", 1)[0]).lower()
