"""What the game pages borrow from the guide: card texts on a tap, the hint strip, the distance rule drawn,
the two-tap border pick and the preview of a play's score and income (both computed by the engine)."""

from __future__ import annotations

import json
import re
from http import HTTPStatus

import pytest
from django.urls import reverse

from games.engine.domaine.cards import CARDS as DOMAINE_CARDS
from games.engine.registry import get_engine
from guide.hints import HINTS_COOKIE
from tests.conftest import make_game
from tests.web.test_domaine_views import at_step, bot_moves, draft_get, state_of, url, view_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def domaine(player, opponent):
    return make_game(player, opponent, kind="domaine")


def mover(game):
    game.refresh_from_db()
    return game.seats.get(position=game.to_act[0]).user


def test_every_dominion_card_not_in_a_button_opens_its_text_and_reference_link_without_script(client, player, opponent):
    game = make_game(player, opponent, kind="dominion", options={"kingdom": "First Game"})
    client.force_login(mover(game))
    page = client.get(url("detail", game)).content.decode()
    supply = page.split('id="h-supply"', 1)[1]
    # a <details> per card: the summary is the card's face; its text and the link are in the details
    ref = reverse("guide:cards", args=["dominion"])
    smithy = re.search(
        r'<details class="card card-action" name="card-text">(?:(?!</details>).)*Smithy.*?</details>', supply, re.S
    )
    assert smithy, supply[:2000]
    assert "+3 Cards." in smithy.group(0) and f'href="{ref}#card-smithy"' in smithy.group(0)
    # a card inside a Play button has its "?" beside the button (nothing interactive inside a button)
    hand = page.split('class="hand"', 1)[1].split("</section>", 1)[0]
    for slot in re.findall(r'<span class="card-slot">(.*?)</details></span>', hand, re.S):
        button, more = slot.split("</button>", 1)
        assert "<details" not in button and '<details class="card-more"' in more and f'href="{ref}#card-' in more


def test_a_domaine_card_name_opens_its_full_actions_and_reference_link(client, domaine):
    game = bot_moves(domaine, until=at_step("play"))
    client.force_login(mover(game))
    page = client.get(url("detail", game)).content.decode()
    hand = page.split('class="dm-hand"', 1)[1].split("</section>", 1)[0]
    infos = re.findall(r'<details class="dm-card-info" name="card-text">(.*?)</details>', hand, re.S)
    assert len(infos) == 3
    for info in infos:
        assert "<summary" in info and ("Place up to" in info or "domain" in info)
        assert f"{reverse('guide:cards', args=['domaine'])}#card-" in info


def test_the_hint_strip_shows_on_a_domaine_game_and_a_post_turns_it_off_for_this_browser(client, domaine):
    client.force_login(mover(domaine))
    page = client.get(url("detail", domaine)).content.decode()
    assert 'class="hint-strip"' in page and "must stand at least 6 squares apart" in page
    assert "The first player to reach 50 points wins at once." in page
    response = client.post(reverse("guide:hints"), {"hints": "off", "next": url("detail", domaine)})
    assert response.status_code == HTTPStatus.FOUND and response["Location"] == url("detail", domaine)
    assert client.cookies[HINTS_COOKIE].value == "off"
    page = client.get(url("detail", domaine)).content.decode()
    assert 'class="hint-strip"' not in page and "Show first-game hints" in page
    client.post(reverse("guide:hints"), {"hints": "on", "next": url("detail", domaine)})
    assert 'class="hint-strip"' in client.get(url("detail", domaine)).content.decode()


def test_the_hint_switch_goes_back_only_to_this_site(client):
    response = client.post(reverse("guide:hints"), {"hints": "off", "next": "https://evil.example/"})
    assert response["Location"] == reverse("guide:index")
    assert client.get(reverse("guide:hints")).status_code == HTTPStatus.METHOD_NOT_ALLOWED


def test_setup_draws_the_squares_too_near_the_placers_own_castles(client, domaine):
    game = bot_moves(
        domaine, until=lambda g, st: len([c for c, o in view_of(g, None)["castles"].items() if o == g.to_act[0]]) >= 1
    )
    seat = game.to_act[0]
    client.force_login(mover(game))
    page = client.get(url("detail", game)).content.decode()
    view = view_of(game, seat)
    own = sorted(sq for sq, owner in view["castles"].items() if owner == seat)
    distance = view["pending"][0]["params"]["distance"]
    tinted = set(re.findall(r'<rect class="dm-zone"[^>]*><title>([A-L]\d+): too near', page))

    def near(sq, castle):
        return abs(ord(sq[0]) - ord(castle[0])) + abs(int(sq[1:]) - int(castle[1:])) < distance

    every = {f"{c}{r}" for c in "ABCDEFGHIJKL" for r in range(1, 13)}
    assert tinted == {sq for sq in every if any(near(sq, c) for c in own)}
    offered = set(view["pending"][0]["options"])
    assert offered and not offered & tinted  # no square offered lies in the tinted zone
    assert f"to your castles on {', '.join(own)}" in page


def test_placing_a_neutral_castle_tints_the_squares_too_near_the_neutral_castles_and_says_so(client, domaine):
    # The walk-through: with a neutral castle to place, the note named the neutral castles "your castles".
    def neutral_pending(g, st):
        pending = (view_of(g, g.to_act[0])["pending"] or [{}])[0] if g.to_act else {}
        return bool((pending.get("params") or {}).get("neutral")) and "neutral" in view_of(g, None)["castles"].values()

    game = bot_moves(domaine, until=neutral_pending)
    client.force_login(mover(game))
    page = client.get(url("detail", game)).content.decode()
    neutral = sorted(sq for sq, owner in view_of(game, None)["castles"].items() if owner == "neutral")
    assert f"to the neutral castles on {', '.join(neutral)}, so no neutral castle may go there" in page
    assert "to your castles on" not in page and "too near one of your castles" not in page
    assert re.search(r'<rect class="dm-zone"[^>]*><title>[A-L]\d+: too near one of the neutral castles', page)


def test_the_preview_shows_the_score_and_income_the_engine_gives_after_the_play(client, domaine):
    game = bot_moves(domaine, until=at_step("play"))
    seat = game.to_act[0]
    client.force_login(mover(game))
    state = state_of(game)
    engine = get_engine("domaine")
    card = view_of(game, seat)["pending"][0]["params"]["playable"][0]  # 7 gold at the start: A cards cost 1-3
    draft = {"act": "play", "card": card, "option": 0}
    response = draft_get(client, game, draft)
    before = engine.view(state, seat)["players"][seat]
    assert response.context["domaine_preview"] is not None  # every action is "up to": playing for nothing is legal
    # ... but with nothing placed there is nothing to preview: no "Your score: 0 → 0" (the walk-through).
    html = response.content.decode()
    assert "Your score:" not in html and "Your gold after this move" not in html
    assert json.loads(json.dumps(draft)) == response.context["domaine_draft"]
    pick = engine.targets(state, seat, draft)["choices"][0]
    response = draft_get(client, game, draft, pick=pick)
    after = response.context["domaine_preview"]
    mine = after["players"][seat]
    html = response.content.decode()
    assert f"Your score: {before['score']} → {mine['score']} (target {after['target']})" in html
    assert f"income: {before['income']} → {mine['income']} gold a turn" in html


def test_picking_a_border_hatches_the_squares_with_no_side_where_one_may_go(client, domaine):
    def ready(g, st):
        """A play step with a domain on the board and a borders card the mover can pay for."""
        if not (at_step("play")(g, st) and view_of(g, None)["domains"]):
            return False
        playable = view_of(g, g.to_act[0])["pending"][0]["params"]["playable"]
        return any(a.kind == "borders" for c in playable for a in DOMAINE_CARDS[c].actions)

    game = bot_moves(domaine, until=ready)
    seat = game.to_act[0]
    client.force_login(mover(game))
    engine = get_engine("domaine")
    state = state_of(game)
    playable = view_of(game, seat)["pending"][0]["params"]["playable"]
    found = [(c, i) for c in playable for i, a in enumerate(DOMAINE_CARDS[c].actions) if a.kind == "borders"]
    card, option = found[0]
    draft = {"act": "play", "card": card, "option": option}
    targets = engine.targets(state, seat, draft)
    html = draft_get(client, game, draft).content.decode()
    free = {sq for edge in targets["choices"] for sq in edge.split("-")}
    hatched = set(re.findall(r'<rect class="dm-blocked"[^>]*><title>([A-L]\d+): no border', html))
    assert hatched == {f"{c}{r}" for c in "ABCDEFGHIJKL" for r in range(1, 13)} - free


def test_the_hint_switch_in_a_region_drawn_by_htmx_returns_to_the_game_page_not_to_the_partial(client, domaine):
    client.force_login(mover(domaine))
    html = draft_get(client, domaine, {"act": "place_castle"}).content.decode()
    assert 'class="hint-strip"' in html
    assert f'name="next" value="{url("detail", domaine)}"' in html
    assert "domaine_draft" not in re.search(r'name="next" value="([^"]*)"', html).group(1)
