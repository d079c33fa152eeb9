"""A phone in one hand (390 x 844): every kind of decision of both games is on the first screen, with big targets.

For each decision kind of a scripted game (Dominion: an Action, a Buy, a
Militia discard, a gain, a trash; Domaine: setup, the neutral castles, play
or sell, take, and each kind of placement), the page is opened as the
player who must decide, and the browser measures where the question, the
cards to choose from and the confirming button are drawn: inside the first
844 px, with the board or the supply at most one swipe further. Every
control a finger can press is at least 44 x 44 px (WCAG 2.5.5); the board's
squares, smaller on a phone, each have a 44 px equivalent on the page (the
list of choices, the four side buttons), which is the criterion's
"equivalent" exception. With ``HERALD_SCREENSHOTS=1`` each screen is saved as
``docs/screenshots/phone/<game>-<decision>.png``, to look at.
"""

from __future__ import annotations

import os
import random
from datetime import timedelta
from pathlib import Path

import pytest

from games import services
from games.engine.domaine.cards import CARDS as DOMAINE_CARDS
from games.engine.domaine.engine import ENGINE as DOMAINE_ENGINE
from games.engine.dominion.engine import ENGINE as DOMINION
from games.models import Game
from tests.browser.test_domaine_flow import click_and_settle, open_game, sign_in
from tests.conftest import seated
from tests.factories import UserFactory
from tests.web.test_domaine_views import bot_moves

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 390, "height": 844}
FIRST_SCREEN = PHONE["height"]
SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots" / "phone"
SEED = 4

#: Every control a finger presses: buttons, button-like links, fields, summaries, the labels of tick boxes
#: (the box itself is small; its label is what is tapped), the site menu's links and the choice lists' links.
#: Links inside a sentence are WCAG 2.5.5's "inline" exception and are not counted.
CONTROLS_JS = """() => {
  const sel = 'button, a.button, select, textarea, input:not([type=hidden]):not([type=checkbox]):not([type=radio]),'
    + ' summary, label:has(> input[type=checkbox]), label:has(> input[type=radio]), .site-header a, .dm-choices a';
  const out = [];
  for (const el of document.querySelectorAll(sel)) {
    if (el.closest('[hidden], .visually-hidden, .skip')) continue;
    const r = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    if (r.width === 0 || r.height === 0 || style.visibility === 'hidden' || style.pointerEvents === 'none') continue;
    if (el.closest('details:not([open]) > :not(summary)')) continue;
    if (r.width < 44 - 0.5 || r.height < 44 - 0.5) {
      const what = `${el.tagName.toLowerCase()}.${el.className} "${el.textContent.trim().slice(0, 30)}"`;
      out.push(`${what} ${r.width.toFixed(0)}x${r.height.toFixed(0)}`);
    }
  }
  return out;
}"""


def boxes(page, selector: str) -> list[dict]:
    """The page-relative boxes (scroll 0) of the visible elements matching ``selector``."""
    return page.evaluate(
        """s => [...document.querySelectorAll(s)].filter(e => e.getClientRects().length).map(e => {
             const r = e.getBoundingClientRect();
             return {top: r.top + window.scrollY, bottom: r.bottom + window.scrollY, width: r.width, height: r.height,
                     text: e.textContent.trim().slice(0, 40)};
           })""",
        selector,
    )


def on_first_screen(page, *selectors: str, every: bool = False) -> None:
    """The first (``every``: each) element of each selector is drawn, and wholly inside the first 844 px."""
    for selector in selectors:
        found = boxes(page, selector)
        assert found, f"nothing drawn for {selector!r}"
        for box in found if every else found[:1]:
            assert box["bottom"] <= FIRST_SCREEN, f"{selector!r} {box['text']!r} ends at {box['bottom']:.0f}px"


def within_a_swipe(page, selector: str) -> None:
    """The element starts on the first screen or one swipe (one more screen) below it."""
    found = boxes(page, selector)
    assert found, f"nothing drawn for {selector!r}"
    assert found[0]["top"] <= 2 * FIRST_SCREEN, f"{selector!r} starts at {found[0]['top']:.0f}px"


def fingers_fit(page) -> None:
    small = page.evaluate(CONTROLS_JS)
    assert small == [], "controls smaller than 44 x 44 px:\n" + "\n".join(small)


def board_targets_have_big_equivalents(page) -> None:
    """Squares on the board are ~30 px on a phone; each is also offered as a 44 px choice (or side button)."""
    squares = page.evaluate(
        "[...document.querySelectorAll('a.dm-target:not(.dm-focus-target):not(.dm-edge-target)')].length"
    )
    if squares:
        listed = page.evaluate("[...document.querySelectorAll('.dm-choices a')].length")
        assert listed == squares, (listed, squares)
    sides = page.evaluate("[...document.querySelectorAll('a.dm-edge-target')].length")
    if sides:
        assert page.evaluate("[...document.querySelectorAll('.dm-sides a')].length") == sides


def shot(page, name: str, tmp_path: Path) -> None:
    folder = SHOTS if os.environ.get("HERALD_SCREENSHOTS") else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    page.evaluate("window.scrollTo(0, 0)")  # the first screen, as the player opens it
    page.screenshot(path=str(folder / f"{name}.png"))


def phone_page(browser, live_server, user, game: Game):
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = context.new_page()
    sign_in(page, live_server, user.username)
    open_game(page, live_server, game)
    return page


def two_player_game(kind: str, options: dict, **user_fields) -> Game:
    alice, bob = UserFactory.create(**user_fields), UserFactory.create(**user_fields)
    game = services.game_create(
        creator=alice, kind=kind, options=options, players=2, rated=False, private=False,
        invited=(), time_per_move=timedelta(days=1),
    )  # fmt: skip
    # A fixed deal, so that the scripted game reaches every decision kind the same way each run.
    Game.objects.filter(pk=game.pk).update(seed=SEED)
    services.game_join(game_id=game.pk, user=bob)
    return Game.objects.get(pk=game.pk)


# ---- Dominion ----

KINGDOM = ["Chapel", "Workshop", "Militia", "Village", "Smithy", "Market", "Moat", "Cellar", "Remodel", "Festival"]
#: What the scripted player buys when it can, so that each decision comes up: the most expensive first.
WANTED = [("Militia", 4), ("Workshop", 3), ("Chapel", 2)]


def dominion_until(game: Game, until, *, limit: int = 400) -> Game:
    """Play both seats (buy and play the cards above, else the big-money bot) until ``until(state, decision)``."""
    rng = random.Random(7)
    users = {s.position: seated(s) for s in game.seats.all()}
    for _ in range(limit):
        game.refresh_from_db()
        state = services.state_at(game)
        decision = DOMINION.pending(state)[0]
        if until(state, decision):
            return game
        seat = decision.player
        move = DOMINION.bots["big_money"](DOMINION.player_view(state, seat), rng)
        if decision.kind == "turn":
            hand = state.hands[seat]
            owned = hand + state.decks[seat] + state.discards[seat] + state.plays[seat]
            if state.phase == "action" and state.actions and (card := next((c for c, _ in WANTED if c in hand), None)):
                move = {"act": "play", "card": card}
            elif state.phase == "buy" and state.buys and not state.bought:
                for card, cost in WANTED:
                    if state.coins >= cost and card not in owned and state.coins < 6:
                        move = {"act": "buy", "card": card}
                        break
        services.game_submit_move(game_id=game.pk, user=users[seat], move=move, expected_seq=game.last_seq)
    raise AssertionError("the decision never came")


def action_with_card_in_hand(state, d) -> bool:
    actions = {"Militia", "Workshop", "Chapel", "Village", "Smithy", "Market"}
    return bool(d.kind == "turn" and state.phase == "action" and state.actions and set(state.hands[d.player]) & actions)


def buy_with_coins(state, d) -> bool:
    return d.kind == "turn" and state.phase == "buy" and state.coins >= 5 and not state.bought


DOMINION_DECISIONS = {
    # name: (until, what must be on the first screen, which of them all of whose matches must be)
    "action": (
        action_with_card_in_hand,
        [".turn-bar .turn-who", "#game-board .hand button.card-button", ".turn-bar button[value=end_actions]"],
        ["#game-board .hand .card-slot, #game-board .hand details.card"],
    ),
    "buy": (
        buy_with_coins,
        [".turn-bar .turn-who", "#game-board .supply button.buy", ".turn-bar button[value=end_turn]"],
        [],
    ),
    "militia-discard": (
        lambda state, d: d.kind == "discard" and d.source == "Militia",
        ["#game-board .decision h2", "#game-board .decision button.primary"],
        ["#game-board .decision label.pick"],
    ),
    "gain": (
        lambda state, d: d.kind == "gain" and d.source == "Workshop",
        ["#game-board .decision h2", "#game-board .decision button.card-button"],
        [],
    ),
    "trash": (
        lambda state, d: d.kind == "trash" and d.source == "Chapel",
        ["#game-board .decision h2", "#game-board .decision button.primary"],
        ["#game-board .decision label.pick"],
    ),
}


@pytest.mark.parametrize("decision", DOMINION_DECISIONS)
def test_each_dominion_decision_is_on_a_phones_first_screen(browser, live_server, tmp_path, decision):
    until, first, every = DOMINION_DECISIONS[decision]
    game = two_player_game("dominion", {"kingdom": KINGDOM}, standing_answers={"militia": "ask"})
    game = dominion_until(game, until)
    state = services.state_at(game)
    user = game.seats.get(position=DOMINION.pending(state)[0].player).user
    page = phone_page(browser, live_server, user, game)
    shot(page, f"dominion-{decision}", tmp_path)
    on_first_screen(page, *first)
    for selector in every:
        on_first_screen(page, selector, every=True)
    within_a_swipe(page, "#game-board .supply")
    if decision == "buy":
        # What a Buy chooses from: the whole Supply is on the first screen or one swipe below it.
        last = boxes(page, "#game-board .supply .pile")[-1]
        assert last["bottom"] <= 2 * FIRST_SCREEN, last
    fingers_fit(page)
    page.context.close()


# ---- Domaine ----

DOMAINE = DOMAINE_ENGINE  # the Domaine engine itself: its targets() is no part of the Engine protocol


def domaine_step(step: str, *, neutral: bool = False):
    def until(game: Game, state) -> bool:
        pending = DOMAINE.pending(state)[0]
        return DOMAINE.view(state, None)["turn"]["step"] == step and (
            not neutral or bool((pending.params or {}).get("neutral"))
        )

    return until


def kind_play(state, kind: str) -> tuple[str, int] | None:
    """In a play step, a card the mover can pay for with a ``kind`` action that has targets now: (card, option)."""
    pending = DOMAINE.pending(state)[0]
    if DOMAINE.view(state, None)["turn"]["step"] != "play":
        return None
    for card in (pending.params or {}).get("playable") or []:
        for option, action in enumerate(DOMAINE_CARDS[card].actions):
            draft = {"act": "play", "card": card, "option": option}
            if action.kind == kind and (DOMAINE.targets(state, pending.player, draft) or {}).get("choices"):
                return card, option
    return None


def domaine_mover_page(browser, live_server, game: Game):
    state = services.state_at(game)
    user = game.seats.get(position=DOMAINE.pending(state)[0].player).user
    return phone_page(browser, live_server, user, game)


def check_domaine_screen(page, name: str, tmp_path: Path, *first: str) -> None:
    shot(page, f"domaine-{name}", tmp_path)
    on_first_screen(page, ".dm-controls h3", *first)
    within_a_swipe(page, ".dm-board")
    fingers_fit(page)
    board_targets_have_big_equivalents(page)


def pick_until_confirm(page, name: str, tmp_path: Path, limit: int = 6) -> None:
    """Pick the first offered choice (a side button, a listed square) until the move can be confirmed."""
    for step in range(limit):
        if page.locator(".dm-controls button.dm-confirm:not(.dm-confirm-empty)").count():
            check_domaine_screen(page, f"{name}-confirm", tmp_path, ".dm-controls button.dm-confirm")
            return
        check_domaine_screen(page, f"{name}-{step}" if step else name, tmp_path, ".dm-controls .dm-prompt")
        if page.locator(".dm-sides a").count():
            click_and_settle(page, page.locator(".dm-sides a").first)
        elif page.locator("a.dm-focus-target").count():
            click_and_settle(page, page.locator("a.dm-focus-target").first)
            check_domaine_screen(page, f"{name}-sides", tmp_path, ".dm-sides", ".dm-controls .dm-reset")
        else:
            page.locator(".dm-choices summary").click()
            click_and_settle(page, page.locator(".dm-choices a").first)
    raise AssertionError("never came to Confirm")


def test_domaine_setup_and_its_placements_are_on_a_phones_first_screen(browser, live_server, tmp_path):
    game = two_player_game("domaine", {})
    page = domaine_mover_page(browser, live_server, game)
    # Setup: the castle's square, its knight's, then Confirm; the board itself is what is chosen from.
    check_domaine_screen(page, "setup-castle", tmp_path, ".dm-controls .dm-prompt", ".dm-board")
    pick_until_confirm(page, "setup", tmp_path)
    page.context.close()
    game = bot_moves(game, until=domaine_step("setup", neutral=True))
    page = domaine_mover_page(browser, live_server, game)
    check_domaine_screen(page, "setup-neutral", tmp_path, ".dm-controls .dm-prompt", ".dm-board")
    page.context.close()


def test_domaine_play_sell_and_take_are_on_a_phones_first_screen(browser, live_server, tmp_path):
    game = bot_moves(two_player_game("domaine", {}), until=domaine_step("play"))
    page = domaine_mover_page(browser, live_server, game)
    # Play or sell: the whole hand, each card's Play and Sell, before the board.
    check_domaine_screen(page, "play-or-sell", tmp_path, ".dm-hand a.dm-play, .dm-hand .dm-actions")
    on_first_screen(page, ".dm-hand .dm-card", ".dm-hand button.dm-sell", every=True)
    page.context.close()
    game = bot_moves(game, until=domaine_step("take"))
    page = domaine_mover_page(browser, live_server, game)
    check_domaine_screen(page, "take", tmp_path, ".dm-take button")
    on_first_screen(page, ".dm-take button", every=True)
    page.context.close()


@pytest.mark.parametrize("kind", ["borders", "knights", "expand", "desertion", "alliance"])
def test_each_domaine_placement_is_on_a_phones_first_screen(browser, live_server, tmp_path, kind):
    game = bot_moves(two_player_game("domaine", {}), until=lambda g, state: kind_play(state, kind) is not None)
    card, option = kind_play(services.state_at(game), kind)
    page = domaine_mover_page(browser, live_server, game)
    link = page.locator(f".dm-hand li[data-card='{card}']").first.locator("a.dm-play").nth(option)
    on_first_screen(page, f".dm-hand li[data-card='{card}'] a.dm-play")
    click_and_settle(page, link)
    pick_until_confirm(page, f"play-{kind}", tmp_path)
    page.context.close()
