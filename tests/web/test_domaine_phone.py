"""Domaine on a phone: a border's side from four large buttons, and a preview only of what a move changes."""

from __future__ import annotations

import re
from html import unescape
from urllib.parse import parse_qs, urlparse

import pytest
from django.urls import reverse

from games.domaine.board import edges_by_square, focus_sides
from games.domaine.guide.hints import domaine_lines
from games.engine.domaine.cards import CARDS
from games.engine.registry import get_engine
from tests.web.test_domaine_views import at_step, bot_moves, domaine, draft_get, state_of, view_of

__all__ = ["domaine"]  # the fixture, shared

ENGINE = get_engine("domaine")


def test_focus_sides_names_each_side_and_offers_only_the_legal_ones():
    sides = focus_sides("B2", ["B1-B2", "B2-C2"], lambda edge: f"/pick/{edge}")
    assert [(s["side"], s["edge"], s["url"]) for s in sides] == [
        ("top", "B1-B2", "/pick/B1-B2"),
        ("left", "A2-B2", ""),
        ("right", "B2-C2", "/pick/B2-C2"),
        ("bottom", "B2-B3", ""),
    ]
    # At the board's corner two sides are the rim: no edge at all.
    corner = focus_sides("A1", [], str)
    assert [s["edge"] for s in corner] == ["", "", "A1-B1", "A1-A2"]


def borders_card(game, state):
    if not at_step("play")(game, state):
        return None
    seat = game.to_act[0]
    for card in view_of(game, seat)["pending"][0]["params"]["playable"]:
        for option, action in enumerate(CARDS[card].actions):
            if action.kind == "borders":
                return {"act": "play", "card": card, "option": option}
    return None


def test_after_a_square_its_sides_are_four_buttons_that_add_the_border(client, domaine):
    game = bot_moves(domaine, until=lambda g, st: borders_card(g, st) is not None)
    client.force_login(game.seats.get(position=game.to_act[0]).user)
    state = state_of(game)
    draft = borders_card(game, state)
    by_square = edges_by_square(ENGINE.targets(state, game.to_act[0], draft)["choices"])
    square, edges = max(by_square.items(), key=lambda item: len(item[1]))
    html = draft_get(client, game, draft, focus=square).content.decode()
    block = html.split('class="dm-sides"', 1)[1].split("</div>", 1)[0]
    links = [unescape(h) for h in re.findall(r'<a class="button dm-side[^"]*" href="([^"]+)"', block)]
    assert len(re.findall(r"dm-side dm-side-", block)) == 4  # all four drawn, the others shown disabled
    picked = sorted(parse_qs(urlparse(link).query)["pick"][0] for link in links)
    assert picked == sorted(edges)
    # Following one adds that border to the move being built.
    query = parse_qs(urlparse(links[0]).query)
    response = draft_get(client, game, draft, pick=query["pick"][0])
    assert response.context["domaine_draft"]["borders"] == [query["pick"][0]]
    # Without a square chosen there are no side buttons.
    assert 'class="dm-sides"' not in draft_get(client, game, draft).content.decode()


def test_placing_a_neutral_castle_previews_no_gold_or_score_of_the_placer(client, domaine):
    """The walk-through: "Your gold after this move: 7 / Your score 0 -> 0" was about the wrong thing."""

    def neutral(g, st):
        return at_step("setup")(g, st) and (ENGINE.pending(st)[0].params or {}).get("neutral")

    game = bot_moves(domaine, until=neutral)
    client.force_login(game.seats.get(position=game.to_act[0]).user)
    state = state_of(game)
    square = ENGINE.pending(state)[0].options[0]
    response = draft_get(client, game, {"act": "place_neutral"}, pick=square)
    assert response.context["domaine_preview"] is not None
    html = response.content.decode()
    assert "Confirm" in html
    assert "Your gold after this move" not in html and "Your score:" not in html


def test_the_hints_say_there_is_no_income_until_a_domain_holds_a_mine(domaine):
    """The walk-through: nothing told two new players that gold comes only from mines, and both ran out."""

    game = bot_moves(domaine, until=at_step("play"))
    seat = game.to_act[0]
    view = view_of(game, seat)
    assert view["players"][seat]["income"] == 0
    assert any("No income yet" in line for line in domaine_lines(view, seat, True))
    # With income, no such line.
    view["players"][seat]["income"] = 2
    assert not any("No income yet" in line for line in domaine_lines(view, seat, True))


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "first", "then"),
    [("en", "First choose a knight of another player", "Then place one of your knights"), ("zh-hans", "先选", "再把")],
)
def test_the_desertion_text_gives_its_two_steps_in_the_order_the_page_asks_them(client, language, first, then):
    """The walk-through found the one-sentence Desertion hard to follow; the play asks for the knight to remove,
    then for the square of the new knight, and the card reference says it in that order."""
    page = client.get(reverse("guide:cards", args=["domaine"]), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    text = unescape(re.sub(r"<[^>]+>", "", page))
    assert first in text and then in text
    assert text.index(first) < text.index(then)
