"""Domaine on the site: creating a game, the board page, building moves, hidden information."""

from __future__ import annotations

import json
import re
from datetime import timedelta
from http import HTTPStatus

import pytest
from django.db import transaction
from django.urls import reverse

from games import services
from games.domaine.board import places_nothing
from games.domaine.eventtext import card_name
from games.engine.core import Rng
from games.engine.domaine.cards import CARDS
from games.engine.registry import get_engine
from games.locking import lock_game
from games.models import Action, Game
from games.moves import apply_move
from tests.conftest import make_game, user_to_move, user_waiting
from tests.factories import UserFactory
from tests.web.forms import new_game_fields

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


def url(name: str, game: Game | None = None) -> str:
    return reverse(f"games:{name}", kwargs={"game_id": game.pk} if game else None)


def create_form(**over: str) -> dict[str, str]:
    """The new-game form's fields for a Domaine game (it has no options of its own)."""
    return new_game_fields(**over)


# ---------------------------------------------------------------------------
# Creating


def test_the_new_game_page_offers_domaine_with_its_bots(client, player):
    client.force_login(player)
    response = client.get(url("new") + "?kind=domaine")
    assert response.status_code == HTTPStatus.OK
    html = response.content.decode()
    assert "New Domaine game" in html
    assert all(f'value="level{n}"' in html for n in range(1, 6))  # its bots, by level (docs/bots.md)
    assert 'value="big_money"' not in html and 'value="greedy"' not in html
    assert "kingdom" not in html


def test_create_a_domaine_game_through_the_form(client, player):
    client.force_login(player)
    response = client.post(
        url("new") + "?kind=domaine", create_form(players="3", rated="rated", visibility="invite", invited="bob")
    )
    assert response.status_code == HTTPStatus.BAD_REQUEST  # no such player
    UserFactory.create(username="bob")
    response = client.post(
        url("new") + "?kind=domaine", create_form(players="3", rated="rated", visibility="invite", invited="bob")
    )
    game = Game.objects.get()
    assert response.status_code == HTTPStatus.FOUND
    assert (game.kind, game.max_players, game.rated, game.private, game.options) == ("domaine", 3, True, True, {})
    assert game.time_per_move.total_seconds() == 12 * 3600
    assert list(game.invitations.values_list("user__username", flat=True)) == ["bob"]


def test_create_a_domaine_game_against_a_bot_starts_it(client, player):
    client.force_login(player)
    client.post(url("new") + "?kind=domaine", create_form(seat_2="level3"))
    game = Game.objects.get()
    assert game.kind == "domaine"
    assert game.status == Game.Status.ACTIVE
    assert list(game.seats.order_by("position").values_list("bot", flat=True)).count("level3") == 1
    assert client.get(url("detail", game)).status_code == HTTPStatus.OK


def test_a_rated_domaine_game_with_bots_is_refused(client, player):
    client.force_login(player)
    response = client.post(url("new") + "?kind=domaine", create_form(seat_2="level1", rated="rated"))
    assert response.status_code == HTTPStatus.BAD_REQUEST
    assert not Game.objects.exists()


def test_an_unknown_kind_is_404(client, player):
    client.force_login(player)
    assert client.get(url("new") + "?kind=chess").status_code == HTTPStatus.NOT_FOUND


# ---------------------------------------------------------------------------
# The board page


@pytest.fixture
def domaine(player, opponent) -> Game:
    """A running two-player Domaine game between ``player`` and ``opponent``, in setup."""
    return make_game(player, opponent, kind="domaine")


def state_of(game: Game):
    game.refresh_from_db()
    return services.state_at(game)


def view_of(game: Game, seat: int | None):
    return get_engine("domaine").view(state_of(game), seat)


def test_the_board_page_draws_the_svg_board(client, domaine):
    mover = user_to_move(domaine)
    client.force_login(mover)
    response = client.get(url("detail", domaine))
    assert response.status_code == HTTPStatus.OK
    html = response.content.decode()
    assert "<svg" in html and 'class="dm-board"' in html
    assert html.count('class="dm-sq ') == 144
    assert "Place a castle and its knight" in html
    # the castle squares the engine allows, and only those, are links
    options = view_of(domaine, domaine.to_act[0])["pending"][0]["options"]
    assert html.count('class="dm-target"') == len(options)


def bot_moves(game: Game, *, until=lambda g, state: False, limit: int = 1000) -> Game:
    """Let the greedy bot play every seat, through the move service, until ``until`` or the end."""
    engine = get_engine("domaine")
    rng = Rng(3)
    for _ in range(limit):
        game.refresh_from_db()
        if not game.is_active:
            break
        state = services.state_at(game)
        if until(game, state):
            break
        seat = engine.pending(state)[0].player
        move = engine.bots["greedy"](engine.player_view(state, seat), rng)
        with transaction.atomic():
            apply_move(lock_game(game.pk), seat, move)
    game.refresh_from_db()
    return game


def at_step(step: str):
    return lambda game, state: get_engine("domaine").view(state, None)["turn"]["step"] == step


def draft_get(client, game: Game, draft: dict | None = None, *, seq: int | None = None, **params):
    query = {"seq": game.last_seq if seq is None else seq, **params}
    if draft is not None:
        query["draft"] = json.dumps(draft)
    return client.get(url("domaine_draft", game), query, **HX)


def hand_on_page(html: str) -> list[str]:
    """The card ids shown in the "Your hand" section."""
    if 'class="dm-hand"' not in html:
        return []
    section = html.split('class="dm-hand"', 1)[1].split("</section>", 1)[0]
    return re.findall(r'data-card="([A-D]\d)"', section)


def test_placement_by_clicks_then_confirm(client, domaine):
    seat = domaine.to_act[0]
    client.force_login(user_to_move(domaine))
    castle = view_of(domaine, seat)["pending"][0]["options"][0]
    response = draft_get(client, domaine, {"act": "place_castle"}, pick=castle)
    assert response.status_code == HTTPStatus.OK
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="game-board"')  # the board region only
    targets = response.context["domaine_targets"]
    assert targets["part"] == "knight" and targets["choices"]
    assert html.count('class="dm-target"') == len(targets["choices"])
    assert "Confirm" not in html  # a castle without its knight is not a move yet
    knight = targets["choices"][0]
    response = draft_get(client, domaine, {"act": "place_castle", "at": castle}, pick=knight)
    move = {"act": "place_castle", "at": castle, "knight": knight}
    assert response.context["domaine_draft"] == move
    html = response.content.decode()
    assert "Confirm" in html
    posted = re.search(r'name="move" value="([^"]+)"', html).group(1)
    assert json.loads(posted.replace("&quot;", '"')) == move
    response = client.post(url("move", domaine), {"move": json.dumps(move), "seq": 0}, **HX)
    assert response.status_code == HTTPStatus.OK
    assert Action.objects.get(game=domaine).move == move


def test_a_pick_that_is_not_a_target_is_refused(client, domaine):
    client.force_login(user_to_move(domaine))
    options = view_of(domaine, domaine.to_act[0])["pending"][0]["options"]
    illegal = next(f"{c}{r}" for c in "ABCDEFGHIJKL" for r in range(1, 13) if f"{c}{r}" not in options)
    response = draft_get(client, domaine, {"act": "place_castle"}, pick=illegal)
    assert response.status_code == HTTPStatus.UNPROCESSABLE_ENTITY
    assert response.context["domaine_draft"] == {"act": "place_castle"}
    assert "is not one of the choices" in response.content.decode()


def test_placement_through_the_text_form_without_javascript(client, domaine):
    seat = domaine.to_act[0]
    client.force_login(user_to_move(domaine))
    move = get_engine("domaine").legal_moves(state_of(domaine), seat)[0]
    response = client.get(
        url("domaine_draft", domaine),
        {"seq": 0, "act": "place_castle", "at": move["at"].lower(), "knight": move["knight"]},
    )
    assert response.status_code == HTTPStatus.OK
    html = response.content.decode()
    assert "<html" in html  # the whole page, as for a plain link
    assert response.context["domaine_draft"] == move
    assert "Confirm" in html


def test_a_typed_move_that_breaks_a_rule_shows_the_engines_reason(client, domaine):
    client.force_login(user_to_move(domaine))
    response = draft_get(client, domaine, None, act="place_castle", at="Z9")
    assert response.status_code == HTTPStatus.UNPROCESSABLE_ENTITY
    assert "not a square of the board" in response.content.decode()
    assert "Confirm" not in response.content.decode()


def test_a_draft_for_an_old_position_is_dropped(client, domaine):
    client.force_login(user_to_move(domaine))
    response = draft_get(client, domaine, {"act": "place_castle"}, seq=5, pick="A1")
    assert response.status_code == HTTPStatus.CONFLICT
    assert response.context["domaine_draft"] is None


def test_only_the_mover_builds_moves(client, domaine, outsider):
    client.force_login(user_waiting(domaine))
    response = draft_get(client, domaine, {"act": "place_castle"})
    assert response.status_code == HTTPStatus.UNPROCESSABLE_ENTITY
    assert 'class="dm-target"' not in response.content.decode()
    client.force_login(outsider)
    assert draft_get(client, domaine, {"act": "place_castle"}).status_code == HTTPStatus.FORBIDDEN
    client.logout()
    assert draft_get(client, domaine, {"act": "place_castle"}).status_code == HTTPStatus.FOUND


def test_the_draft_endpoint_is_get_only_and_domaine_only(client, domaine, game):
    client.force_login(user_to_move(domaine))
    assert client.post(url("domaine_draft", domaine), {"seq": 0}).status_code == HTTPStatus.METHOD_NOT_ALLOWED
    client.force_login(user_to_move(game))
    assert client.get(url("domaine_draft", game), {"seq": 0}).status_code == HTTPStatus.NOT_FOUND


# ---------------------------------------------------------------------------
# Playing cards


def test_play_a_card_by_clicks(client, domaine):
    game = bot_moves(domaine, until=at_step("play"))
    seat = game.to_act[0]
    client.force_login(game.seats.get(position=seat).user)
    view = view_of(game, seat)
    hand = view["players"][seat]["hand"]
    html = client.get(url("detail", game)).content.decode()
    assert sorted(hand_on_page(html)) == sorted(hand)
    assert "Sell for" in html and "Play: " in html
    # choose a card with a borders action (the deal always has A cards; most have borders)
    engine = get_engine("domaine")
    state = state_of(game)
    card, option = next(
        (c, i)
        for c in view["pending"][0]["params"]["playable"]
        for i, a in enumerate(CARDS[c].actions)
        if a.kind in ("borders", "knights")
    )
    draft = {"act": "play", "card": card, "option": option}
    response = draft_get(client, game, draft)
    targets = response.context["domaine_targets"]
    assert targets == engine.targets(state, seat, draft)
    assert response.context["domaine_preview"] is not None  # playing for nothing is a legal move
    kind = "edge" if targets["part"] == "borders" else "square"
    html = response.content.decode()
    if kind == "edge":
        # Borders take two taps: first a square beside a legal edge (no edge is drawn yet), then one of its sides.
        squares = {sq for edge in targets["choices"] for sq in edge.split("-")}
        assert html.count("dm-focus-target") == len(squares) and "dm-edge-target" not in html
        square = targets["choices"][0].split("-")[0]
        html = draft_get(client, game, draft, focus=square).content.decode()
        sides = [e for e in targets["choices"] if square in e.split("-")]
        assert html.count("dm-edge-target") == len(sides) >= 1
        assert html.count("dm-focus-target") == len(squares) - 1  # another square can be chosen instead
        assert "Tap a side" not in html and "Choose a side of" in html  # a word for a phone and a mouse alike
    pick = targets["choices"][0]
    response = draft_get(client, game, draft, pick=pick)
    built = response.context["domaine_draft"]
    assert built == {**draft, targets["part"]: [pick]}
    seq = game.last_seq
    response = client.post(url("move", game), {"move": json.dumps(built), "seq": seq})
    assert response.status_code == HTTPStatus.FOUND
    assert Action.objects.get(game=game, seq=seq + 1).move == built


def test_sell_and_take_are_single_posts(client, domaine):
    """With another card in the display the take is the player's choice, asked on the page."""
    game = bot_moves(domaine, until=lambda g, state: at_step("play")(g, state) and view_of(g, None)["display"])
    seat = game.to_act[0]
    client.force_login(game.seats.get(position=seat).user)
    card = view_of(game, seat)["players"][seat]["hand"][0]
    response = client.post(
        url("move", game), {"move": json.dumps({"act": "sell", "card": card}), "seq": game.last_seq}, **HX
    )
    assert response.status_code == HTTPStatus.OK
    html = response.content.decode()
    assert "Take a card" in html and "Draw from the deck" in html
    game.refresh_from_db()
    response = client.post(
        url("move", game), {"move": json.dumps({"act": "take", "from": "deck"}), "seq": game.last_seq}, **HX
    )
    assert response.status_code == HTTPStatus.OK
    game.refresh_from_db()
    assert len(view_of(game, seat)["players"][seat]["hand"]) == 3


def test_with_nothing_else_in_the_display_the_deck_card_is_taken_at_once(client, domaine):
    """The take needs no thought when the deck is the only choice: the site makes it, and logs it."""
    game = bot_moves(domaine, until=lambda g, state: at_step("play")(g, state) and not view_of(g, None)["display"])
    seat = game.to_act[0]
    client.force_login(game.seats.get(position=seat).user)
    card = view_of(game, seat)["players"][seat]["hand"][0]
    before = game.last_seq
    response = client.post(url("move", game), {"move": json.dumps({"act": "sell", "card": card}), "seq": before}, **HX)
    assert response.status_code == HTTPStatus.OK
    game.refresh_from_db()
    made = list(Action.objects.filter(game=game, seq__gt=before).values_list("seat", "move"))
    assert made == [(seat, {"act": "sell", "card": card}), (seat, {"act": "take", "from": "deck"})]
    assert len(view_of(game, seat)["players"][seat]["hand"]) == 3
    assert "Take a card" not in response.content.decode()


def test_a_refused_play_shows_the_reason_and_writes_nothing(client, domaine):
    game = bot_moves(domaine, until=at_step("play"))
    seat = game.to_act[0]
    client.force_login(game.seats.get(position=seat).user)
    card = view_of(game, seat)["players"][seat]["hand"][0]
    move = {"act": "play", "card": card, "option": 0, "borders": ["A1-A2"] * 5}
    response = client.post(url("move", game), {"move": json.dumps(move), "seq": game.last_seq}, **HX)
    assert response.status_code == HTTPStatus.UNPROCESSABLE_ENTITY
    assert Action.objects.filter(game=game).count() == game.last_seq


# ---------------------------------------------------------------------------
# Hidden information


def test_other_hands_and_the_deck_never_reach_the_html(client, domaine, outsider):
    game = bot_moves(domaine, until=at_step("play"))
    state = state_of(game)
    seat = game.to_act[0]
    other = 1 - seat
    mine, theirs = state.players[seat].hand, state.players[other].hand
    secret = (set(theirs) | set(state.deck[:3])) - set(mine) - set(state.display)
    client.force_login(game.seats.get(position=seat).user)
    pages = [
        client.get(url("detail", game)),
        client.get(url("detail", game), **HX),
        client.get(url("poll", game), {"seq": 0, "chat": 0}, **HX),
        draft_get(client, game, {"act": "play", "card": mine[0], "option": 0}),
    ]
    for response in pages:
        html = response.content.decode()
        assert sorted(hand_on_page(html)) == sorted(mine)
        for card in secret:
            assert f'data-card="{card}"' not in html
            assert f'class="dm-card-name">{card_name(card)}</strong>' not in html
            assert f'"card": "{card}"' not in html and f"&quot;card&quot;:&quot;{card}&quot;" not in html
        assert '"deck"' not in html and "view-dump" not in html
    for response in pages[:2]:
        assert "hand" not in response.context["view"]["players"][other]
        assert "deck" not in response.context["view"]
    client.force_login(outsider)
    html = client.get(url("detail", game)).content.decode()
    assert hand_on_page(html) == []
    assert 'class="dm-target"' not in html and "Sell for" not in html


# ---------------------------------------------------------------------------
# A whole game


def test_a_bot_game_to_the_end_then_the_replay(client, player):
    game = services.game_create(
        creator=player,
        kind="domaine",
        options={},
        players=3,
        rated=False,
        private=False,
        time_per_move=timedelta(hours=4),
        bots=["greedy", "random"],
    )
    game = bot_moves(game)
    assert game.status == Game.Status.FINISHED
    seats = list(game.seats.order_by("position"))
    result = get_engine("domaine").result(state_of(game))
    assert [s.rank for s in seats] == result.ranks
    assert [s.score for s in seats] == result.scores
    client.force_login(player)
    html = client.get(url("detail", game)).content.decode()
    assert "The game is over." in html and "Replay the game" in html
    assert hand_on_page(html) != [] or result.details["end"] == "cards"
    response = client.get(url("replay", game), {"step": 3})
    assert response.status_code == HTTPStatus.OK
    html = response.content.decode()
    assert 'class="dm-board"' in html and "Move 3 of" in html
    assert 'class="dm-target"' not in html and "Confirm" not in html


@pytest.mark.parametrize(
    "raw",
    [
        "not json",
        "[1, 2]",
        '{"act": "dance"}',
        '{"act": "play", "card": ["A1"], "option": "x"}',
        '{"act": "place_castle", "at": 7}',
        '{"act": "place_castle", "at": "' + "A" * 5000 + '"}',
    ],
)
def test_odd_drafts_are_refused_not_crashed_on(client, domaine, raw):
    client.force_login(user_to_move(domaine))
    response = client.get(url("domaine_draft", domaine), {"seq": 0, "draft": raw}, **HX)
    assert response.status_code < HTTPStatus.INTERNAL_SERVER_ERROR
    assert "Confirm" not in response.content.decode()


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        ('{"act": "place_castle", "borders": true}', "“borders” must be a list of squares or edges."),
        ('{"act": "play", "borders": 5}', "“borders” must be a list of squares or edges."),
        ('{"act": "play", "knights": [1, 2]}', "“knights” must be a list of squares or edges."),
        ('{"act": "play", "squares": ["A1"], "borders": {"A1": 1}}', "“borders” must be a list of squares or edges."),
        ('{"act": "place_castle", "at": ["C3"]}', "“at” must name one square."),
        ('{"act": "place_castle", "at": "C3", "knight": null}', "“knight” must name one square."),
        ('{"act": "play", "card": 7}', "The card must be named by its id"),
        ('{"act": "play", "card": "A1", "option": true}', "The option is 0 or 1."),
        ('{"act": "play", "card": "A1", "colour": "red"}', "A move has no part “colour”."),
    ],
)
def test_a_draft_of_the_wrong_shape_is_a_400_with_the_reason(client, domaine, raw, reason):
    """The attack run's 500: a list part given as a boolean or a number crashed the board's drawing."""
    client.force_login(user_to_move(domaine))
    response = client.get(url("domaine_draft", domaine), {"seq": 0, "draft": raw}, **HX)
    assert response.status_code == HTTPStatus.BAD_REQUEST
    html = response.content.decode()
    assert reason in html
    assert 'class="dm-board"' in html  # the board is still drawn, with the draft dropped
    assert "Confirm" not in html


def test_the_board_drawing_ignores_draft_parts_of_the_wrong_type(domaine):
    """Defence in depth: whatever reaches the renderer, it draws what it can read and skips the rest."""
    from games.domaine.board import draw

    view = view_of(domaine, domaine.to_act[0])
    drawing = draw(
        view,
        draft={"act": "play", "borders": True, "knights": 5, "at": ["A1"], "squares": [None, "B2"]},
        targets={"part": "borders", "choices": [None, 3, "A1-A2"]},
        link=lambda choice: f"/x?pick={choice}",
    )
    assert drawing.draft_edges == []
    assert [sq["name"] for sq in drawing.draft_squares] == ["A1", "B2"]  # the squares it can read
    assert [t.name for t in drawing.edge_targets] == ["A1-A2"]


# ---------------------------------------------------------------------------
# A play that places nothing, and card names


def test_a_play_that_places_nothing_must_be_chosen_on_purpose(client, domaine):
    game = bot_moves(domaine, until=at_step("play"))
    seat = game.to_act[0]
    client.force_login(game.seats.get(position=seat).user)
    card = view_of(game, seat)["pending"][0]["params"]["playable"][0]
    draft = {"act": "play", "card": card, "option": 0}
    html = draft_get(client, game, draft).content.decode()
    # legal, so it can be sent, but the button says what it does and a tick box guards it
    assert "Play without using it" in html and ">Confirm</button>" not in html
    assert "Nothing is placed yet" in html
    assert re.search(r'<input type="checkbox" name="play_empty" value="1" required', html)
    seq = game.last_seq
    # the same post without the tick (a stray click, no browser check): refused, nothing written
    for extra in ({}, HX):
        response = client.post(url("move", game), {"move": json.dumps(draft), "seq": seq}, **extra)
        assert response.status_code == HTTPStatus.UNPROCESSABLE_ENTITY
        assert "This play places nothing" in response.content.decode()
    assert Action.objects.filter(game=game).count() == seq
    # an expand that names its domain but adds no square places nothing too
    assert places_nothing({"act": "play", "card": "C3", "domain": "C3", "squares": []})
    assert not places_nothing({"act": "play", "card": "A1", "borders": ["A1-A2"]})
    assert not places_nothing({"act": "sell", "card": "A1"})
    # ticked: applied as the ordinary move, the notation unchanged
    response = client.post(url("move", game), {"move": json.dumps(draft), "seq": seq, "play_empty": "1"})
    assert response.status_code == HTTPStatus.FOUND
    assert Action.objects.get(game=game, seq=seq + 1).move == draft
    assert "without effect" in client.get(url("detail", game)).content.decode()


def test_a_play_that_places_something_confirms_plainly(client, domaine):
    game = bot_moves(domaine, until=at_step("play"))
    seat = game.to_act[0]
    client.force_login(game.seats.get(position=seat).user)
    engine = get_engine("domaine")
    state = state_of(game)
    card, option = next(
        (c, i)
        for c in view_of(game, seat)["pending"][0]["params"]["playable"]
        for i, a in enumerate(CARDS[c].actions)
        if a.kind in ("borders", "knights")
    )
    draft = {"act": "play", "card": card, "option": option}
    pick = engine.targets(state, seat, draft)["choices"][0]
    html = draft_get(client, game, draft, pick=pick).content.decode()
    assert ">Confirm</button>" in html and "Play without using it" not in html and "play_empty" not in html


def test_cards_are_shown_by_name_not_by_id(client, domaine):
    game = bot_moves(domaine, until=at_step("play"))
    seat = game.to_act[0]
    client.force_login(game.seats.get(position=seat).user)
    hand = view_of(game, seat)["players"][seat]["hand"]
    html = client.get(url("detail", game)).content.decode()
    section = html.split('class="dm-hand"', 1)[1].split("</section>", 1)[0]
    shown = re.findall(r'class="dm-card-name">([^<]+)</strong>', section)
    assert sorted(shown) == sorted(card_name(c) for c in hand)
    assert all(not re.fullmatch(r"[A-D]\d", name) for name in shown)  # nothing that reads like a square
    assert card_name("B3") == "2 Knights (B)" and card_name("D5") == "Expansion or Desertion (D)"
    # the heading while building a play names the card, and the log names a sold card
    draft = {"act": "play", "card": hand[0], "option": 0}
    assert f"Playing {card_name(hand[0])}" in draft_get(client, game, draft).content.decode()
    client.post(url("move", game), {"move": json.dumps({"act": "sell", "card": hand[0]}), "seq": game.last_seq})
    log = client.get(url("detail", game)).content.decode().split('id="game-log"', 1)[1]
    href = f"{reverse('guide:cards', args=['domaine'])}#card-{hand[0].lower()}"
    assert f'sold <a class="card-link" href="{href}">{card_name(hand[0])}</a> for' in log


def test_a_refusal_names_a_domaine_card(settings):
    from django.utils import translation

    from games.i18n import refusal_text

    with translation.override("en"):
        assert refusal_text("B3 costs 4 gold; you have 2.", "no_gold") == "2 Knights (B) costs 4 gold; you have 2."
        assert refusal_text("A knight on the forest C4 costs 1 gold, which you do not have.", "no_gold").startswith(
            "A knight on the forest C4"
        )


def test_a_game_logged_with_an_edge_named_larger_square_first_still_opens(client, domaine):
    """Logs hold edges as the text form sent them ("C8-C7"); rebuilding the state from the log must accept them."""
    from django.core.cache import cache

    engine = get_engine("domaine")

    def borders_playable(game, state):
        # The game's seed is random: play on until the player to move holds a card that places borders.
        if engine.view(state, None)["turn"]["step"] != "play":
            return False
        seat = engine.pending(state)[0].player
        return any(
            a.kind == "borders"
            for c in engine.view(state, seat)["pending"][0]["params"]["playable"]
            for a in CARDS[c].actions
        )

    game = bot_moves(domaine, until=borders_playable)
    seat = game.to_act[0]
    state = state_of(game)
    card, option = next(
        (c, i)
        for c in engine.view(state, seat)["pending"][0]["params"]["playable"]
        for i, a in enumerate(CARDS[c].actions)
        if a.kind == "borders"
    )
    draft = {"act": "play", "card": card, "option": option}
    a, b = engine.targets(state, seat, draft)["choices"][0].split("-")
    Action.objects.create(game=game, seq=game.last_seq + 1, seat=seat, move={**draft, "borders": [f"{b}-{a}"]})
    Game.objects.filter(pk=game.pk).update(last_seq=game.last_seq + 1)
    cache.clear()  # a Redis restart: the state is rebuilt from the log
    client.force_login(game.seats.get(position=seat).user)
    assert client.get(url("detail", game)).status_code == HTTPStatus.OK
    assert f"{a}-{b}" in get_engine("domaine").view(state_of(game), None)["borders"]


def test_of_two_copies_in_hand_only_the_one_being_played_is_marked(domaine):
    from django.template import Context

    from games.domaine.templatetags.domaine_tags import domaine_board

    game = bot_moves(domaine, until=at_step("play"))
    seat = game.to_act[0]
    state = state_of(game)
    card = state.players[seat].hand[0]
    state.players[seat].hand = [card, card, *state.players[seat].hand[1:]]
    context = Context(
        {
            "view": get_engine("domaine").view(state, seat),
            "game": game,
            "viewer": seat,
            "my_move": True,
            "seats": list(game.seats.all()),
            "domaine_draft": {"act": "play", "card": card, "option": 0},
        }
    )
    board = domaine_board(context)
    copies = [c for c in board["hand"] if c["id"] == card]
    assert len(copies) >= 2 and [c["chosen"] for c in copies][:2] == [True, False]
    assert sum(c["chosen"] for c in board["hand"]) == 1


def test_each_sell_button_names_its_card_to_a_screen_reader(client, domaine):
    """The hand's "Sell for 1" buttons look alike; each one's accessible name says which card it sells,
    and starts with what it shows (a voice user says what they see)."""
    game = bot_moves(domaine, until=at_step("play"))
    seat = game.to_act[0]
    client.force_login(game.seats.get(position=seat).user)
    html = client.get(url("detail", game)).content.decode()
    buttons = re.findall(r'<button[^>]*class="dm-sell" aria-label="([^"]+)">([^<]+)</button>', html)
    hand = view_of(game, seat)["players"][seat]["hand"]
    assert len(buttons) == len(hand)
    for label, shown in buttons:
        assert label.startswith(shown + ":"), (label, shown)
    assert len({label for label, _ in buttons}) == len(set(hand))
