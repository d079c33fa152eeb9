"""Domaine on a desktop screen (1280 x 900): the move panel beside the board holds its controls.

The panel is narrow there (a column beside the board), narrower than on a
phone, where the page is one column; the four side buttons of a border once
asked for more width than it has and "Right" stuck out of its box (the
newcomer's walk-through, desktop width).
"""

from __future__ import annotations

import pytest

from games import services
from tests.browser.test_domaine_flow import click_and_settle, open_game, sign_in
from tests.browser.test_phone_decisions import DOMAINE, kind_play, two_player_game
from tests.web.test_domaine_views import bot_moves

pytestmark = pytest.mark.django_db(transaction=True)

DESKTOP = {"width": 1280, "height": 900}


def test_a_borders_side_buttons_stay_inside_the_move_panel_on_a_desktop(browser, live_server):
    game = bot_moves(two_player_game("domaine", {}), until=lambda g, state: kind_play(state, "borders") is not None)
    state = services.state_at(game)
    card, option = kind_play(state, "borders")
    user = game.seats.get(position=DOMAINE.pending(state)[0].player).user
    page = browser.new_context(viewport=DESKTOP).new_page()
    sign_in(page, live_server, user.username)
    open_game(page, live_server, game)
    click_and_settle(page, page.locator(f".dm-hand li[data-card='{card}']").first.locator("a.dm-play").nth(option))
    click_and_settle(page, page.locator("a.dm-focus-target").first)
    outside = page.evaluate(
        """() => {
             const panel = document.querySelector('.dm-controls');
             const style = getComputedStyle(panel);
             const box = panel.getBoundingClientRect();
             const left = box.left + parseFloat(style.borderLeftWidth);
             const right = box.right - parseFloat(style.borderRightWidth);
             return [...panel.querySelectorAll('.dm-sides .button')].map(b => b.getBoundingClientRect())
               .filter(r => r.left < left - 0.5 || r.right > right + 0.5).map(r => [r.left, r.right, left, right]);
           }"""
    )
    assert page.locator(".dm-sides .button").count() == 4
    assert outside == [], outside
    page.context.close()
