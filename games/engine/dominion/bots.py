"""Computer players for Dominion.

Each bot is a function ``(view, rng) -> move``: ``view`` is the
:class:`~games.engine.dominion.engine.PlayerView` of the bot's seat (it
exposes only what that player may know), ``rng`` a ``core.Rng`` or
``random.Random`` owned by the caller. A bot is only asked when its seat
owes a decision or has the turn; it returns one legal move.

* ``random``: uniform over the legal turn moves, and a uniformly sized
  random subset for card choices (for fuzzing).
* ``big_money``: Province at $8, Gold at $6-7, Silver at $3-5, Duchy late.
* ``smart``: Big Money plus the kingdom's best cards, with a sensible
  answer to every decision (shared by every bot for out-of-turn answers,
  and used by the clock to answer for a player who ran out of time).
* ``level1``..``level5``: the levels offered to players (``LEVELS``),
  beginner to expert; levels 4 and 5 are ``search.SearchBot`` around
  ``smart`` at two budgets.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from games.engine.dominion.cards import ACTIONS, COST, TREASURES, VICTORIES
from games.engine.dominion.engine import PlayerView, choose_answers
from games.engine.dominion.search import SearchBot
from games.engine.dominion.standing import DEFAULTS, standing_answer

Move = dict[str, Any]

END_TURN: Move = {"act": "end_turn"}
PLAY_TREASURES: Move = {"act": "play_treasures"}


# ---------------------------------------------------------------------------
# random


def random_bot(view: PlayerView, rng: random.Random) -> Move:
    """A uniformly random legal move (card choices: a random size, then a random subset)."""
    d = view.decision
    if d is not None:
        if d.answer == "yes_no":
            yes = rng.randrange(2) and "yes" in d.options  # "no" only, for a hand without Moat
            return {"act": "yes" if yes else "no"}
        if d.answer == "gain":
            return {"act": "gain", "card": d.options[rng.randrange(len(d.options))]}
        k = d.min + rng.randrange(d.max - d.min + 1)
        return {"act": "choose", "cards": rng.sample(list(d.options), k)}
    moves = view.turn_moves()
    return moves[rng.randrange(len(moves))]


# ---------------------------------------------------------------------------
# Shared judgement


def _late(view: PlayerView) -> int:
    """How close the game is to its end: Provinces left (fewer = later)."""
    return view.pile("Province")


def _junk_order(card: str, view: PlayerView) -> tuple[int, int]:
    """Sort key: the worse a card is to keep in hand, the smaller."""
    if card == "Curse":
        return (0, 0)
    if card in VICTORIES:
        return (1, COST[card])
    if card == "Copper":
        return (2, 0)
    if card in ACTIONS and view.actions == 0 and view.my_turn is False:
        return (4, COST[card])
    return (3 + (card in TREASURES), COST[card])


def _worst(cards: list[str], k: int, view: PlayerView) -> list[str]:
    return sorted(cards, key=lambda c: _junk_order(c, view))[:k]


def _money_density(view: PlayerView) -> float:
    cards = view.my_cards()
    total = sum(cards.values()) or 1
    return sum(cards[c] * {"Copper": 1, "Silver": 2, "Gold": 3}.get(c, 0) for c in cards) / total


def _gain_choice(view: PlayerView, options: list[str]) -> str:
    """The best card to gain among ``options`` (Workshop, Feast, Remodel, Mine)."""
    ranked = sorted(options, key=lambda c: _gain_value(view, c), reverse=True)
    return ranked[0]


def _gain_value(view: PlayerView, card: str) -> float:
    late = _late(view)
    if card == "Curse":
        return -10
    if card == "Province":
        return 100
    if card == "Duchy":
        return 40 if late <= 4 else 5
    if card == "Estate":
        return 30 if late <= 2 else -1
    if card == "Gardens":
        return 35 if late <= 4 else 6
    if card == "Copper":
        return -0.5
    want = _KINGDOM_VALUE.get(card, 0)
    if card in TREASURES:
        return {"Silver": 10, "Gold": 50}.get(card, 0)
    return want


# How much the smart bot wants one copy of a kingdom card (relative to Silver = 10).
_KINGDOM_VALUE = {
    "Witch": 45,
    "Laboratory": 30,
    "Market": 26,
    "Festival": 18,
    "Council Room": 24,
    "Smithy": 22,
    "Library": 21,
    "Militia": 20,
    "Moneylender": 14,
    "Mine": 12,
    "Bureaucrat": 12,
    "Spy": 8,
    "Village": 9,
    "Woodcutter": 9,
    "Cellar": 6,
    "Moat": 11,
    "Throne Room": 8,
    "Workshop": 7,
    "Feast": 9,
    "Remodel": 8,
    "Chapel": 5,
    "Chancellor": 9,
    "Adventurer": 11,
    "Thief": 4,
}
# Terminal Actions (they use up the Action): the bot keeps few of them.
_TERMINAL = {
    "Witch",
    "Council Room",
    "Smithy",
    "Library",
    "Militia",
    "Moneylender",
    "Mine",
    "Bureaucrat",
    "Woodcutter",
    "Moat",
    "Workshop",
    "Feast",
    "Remodel",
    "Chapel",
    "Chancellor",
    "Adventurer",
    "Thief",
}
_DRAWERS = ("Witch", "Council Room", "Smithy", "Library", "Moat")


def answer(view: PlayerView, rng: Any = None) -> Move:
    """A sensible answer to the bot's open decision (every kind the engine asks)."""
    d = view.decision
    assert d is not None
    kind, options = d.kind, list(d.options)
    if kind in ("reveal_moat", "discard", "topdeck", "library") and (kind != "discard" or d.source == "Militia"):
        # The same code path as the site's default standing answers.
        move = standing_answer(view.me, d, DEFAULTS, view.actions)
        if move is not None:
            return move
    if d.answer == "yes_no":
        if kind == "reveal_moat":
            # Moat costs nothing to reveal; a hand without one answers "no reaction".
            return {"act": "yes" if "yes" in options else "no"}
        if kind == "chancellor":
            return {"act": "yes"}
        if kind == "library":
            # Keep drawing for money when no Action is left to play the card.
            return {"act": "yes" if view.actions == 0 else "no"}
        if kind == "spy":
            card, target = d.params.get("card", ""), d.params.get("target")
            bad = card in VICTORIES or card in ("Curse", "Copper")
            mine = target == view.me
            return {"act": "yes" if bad == mine else "no"}
        return {"act": "no"}
    if d.answer == "gain":
        return {"act": "gain", "card": _gain_choice(view, options)}
    if kind == "discard" and d.source == "Militia":
        return {"act": "choose", "cards": _worst(options, d.min, view)}
    if kind == "discard" and d.source == "Cellar":
        return {"act": "choose", "cards": [c for c in options if c in VICTORIES or c == "Curse"]}
    if kind == "trash" and d.source == "Chapel":
        return {"act": "choose", "cards": _chapel_choice(view, options)[: d.max]}
    if kind == "trash" and d.source == "Remodel":
        return {"act": "choose", "cards": [_remodel_choice(view, options)]}
    if kind == "trash" and d.source == "Mine":
        order = {"Silver": 0, "Copper": 1, "Gold": 2}
        return {"act": "choose", "cards": [min(options, key=lambda c: order.get(c, 3))]}
    if kind == "throne":
        return {"act": "choose", "cards": [max(options, key=lambda c: _KINGDOM_VALUE.get(c, 0))]}
    if kind == "topdeck":
        return {"act": "choose", "cards": [min(options, key=lambda c: COST[c])] if options else []}
    if kind == "thief_trash":
        return {"act": "choose", "cards": [max(options, key=lambda c: COST[c])]}
    if kind == "thief_gain":
        return {"act": "choose", "cards": [c for c in options if c != "Copper"][: d.max]}
    # Any other card choice: the fewest allowed, worst cards first.
    fallback = choose_answers(options, d.min, d.min, cap=1)
    return {"act": "choose", "cards": _worst(options, d.min, view) if d.min else (fallback[0] if fallback else [])}


def _chapel_choice(view: PlayerView, options: list[str]) -> list[str]:
    cards = view.my_cards()
    money = cards["Copper"] + 2 * cards["Silver"] + 3 * cards["Gold"]
    out = [c for c in options if c == "Curse"]
    if _late(view) > 4:
        out += [c for c in options if c == "Estate"]
    for c in options:
        # Trash Coppers while at least $6 of money stays in the deck.
        if c == "Copper" and money - 1 >= 6:
            out.append(c)
            money -= 1
    return out


def _remodel_choice(view: PlayerView, options: list[str]) -> str:
    if "Gold" in options and view.pile("Province") > 0 and _late(view) <= 6:
        return "Gold"
    for c in ("Curse", "Estate", "Copper"):
        if c in options:
            return c
    return min(options, key=lambda c: _gain_value(view, c))


# ---------------------------------------------------------------------------
# big_money


def _turn(view: PlayerView, rng: Any, action: Any, buy: Any) -> Move:
    """The turn every non-random bot plays: answer, play an Action, Treasures, buy, end.

    ``action(view, hand)`` names an Action to play or None; ``buy(view, coins)``
    names a card to buy or None.
    """
    if view.decision is not None:
        return answer(view, rng)
    hand = view.hand
    if action is not _no_action and view.phase == "action" and view.actions > 0:  # Big Money never plays one
        play = action(view, hand)
        if play is not None:
            return {"act": "play", "card": play}
    if not view.bought and not TREASURES.isdisjoint(hand):
        return PLAY_TREASURES
    if view.buys > 0:
        card = buy(view, view.coins)
        if card is not None:
            return {"act": "buy", "card": card}
    return END_TURN


def _no_action(view: PlayerView, hand: list[str]) -> None:
    return None


def big_money(view: PlayerView, rng: Any = None) -> Move:
    """Big Money: only Treasures and Victory cards; Provinces at $8 (a common baseline)."""
    return _turn(view, rng, _no_action, _money_buy)


def _money_buy(view: PlayerView, coins: int) -> str | None:
    late = _late(view)
    if coins >= 8 and view.pile("Province"):
        return "Province"
    if coins >= 6 and late <= 3 and view.pile("Duchy"):
        return "Duchy"
    if coins >= 6 and view.pile("Gold"):
        return "Gold"
    if coins >= 5 and late <= 5 and view.pile("Duchy"):
        return "Duchy"
    if coins >= 2 and late <= 2 and view.pile("Estate"):
        return "Estate"
    if coins >= 3 and view.pile("Silver"):
        return "Silver"
    return None


# ---------------------------------------------------------------------------
# smart


def smart(view: PlayerView, rng: Any = None) -> Move:
    """Big Money plus the kingdom's best cards, played in a sensible order."""
    return _turn(view, rng, _action_to_play, _smart_buy)


def _action_to_play(view: PlayerView, hand: list[str]) -> str | None:
    actions = [c for c in hand if c in ACTIONS]
    if not actions:
        return None
    # Non-terminals first (they give the Action back), then the best terminal.
    non_terminal = [c for c in actions if c not in _TERMINAL and c != "Throne Room"]
    if non_terminal:
        order = ("Village", "Festival", "Laboratory", "Market", "Cellar", "Spy")
        return min(non_terminal, key=lambda c: order.index(c) if c in order else len(order))
    if "Throne Room" in actions and len(actions) > 1:
        return "Throne Room"
    terminals = [c for c in actions if c in _TERMINAL]
    if not terminals:
        return None
    if view.actions == 1 and "Library" in terminals and len(hand) <= 4:
        return "Library"
    best = max(terminals, key=lambda c: _KINGDOM_VALUE.get(c, 0))
    if best == "Chapel" and not _chapel_choice(view, [c for c in hand if c != "Chapel"]):
        return None
    return best


class _Owned:
    """The bot's own cards as counts, counted on first use (``PlayerView.my_cards`` is the
    dearest read of a buy, and most buys of Gold, Duchy or Province need no count)."""

    __slots__ = ("_view", "_cards", "_total", "_terminals")

    def __init__(self, view: PlayerView) -> None:
        self._view = view
        self._cards: Counter[str] | None = None
        self._total = 0
        self._terminals = 0

    def _count(self) -> Counter[str]:
        cards = self._cards
        if cards is None:
            cards = self._cards = self._view.my_cards()
            self._total = sum(cards.values())
            self._terminals = sum(k for c, k in cards.items() if c in _TERMINAL)  # the few names owned
        return cards

    def __getitem__(self, card: str) -> int:
        return self._count()[card]

    @property
    def total(self) -> int:
        """How many cards the bot owns."""
        self._count()
        return self._total

    @property
    def terminals(self) -> int:
        """How many terminal Actions the bot owns."""
        self._count()
        return self._terminals


def _smart_buy(view: PlayerView, coins: int) -> str | None:
    kingdom = set(view.kingdom)
    cards = _Owned(view)
    late = _late(view)
    if coins >= 8 and view.pile("Province"):
        if late > 6 and cards["Gold"] == 0 and cards.total < 15:  # counted only early in the game
            return "Gold"
        return "Province"
    if "Witch" in kingdom and view.pile("Witch") and coins >= 5 and cards["Witch"] < 2 and late > 4:
        return "Witch"
    if coins >= 6 and late <= 3 and view.pile("Duchy"):
        return "Duchy"
    if coins >= 6 and view.pile("Gold"):
        return "Gold"
    if coins >= 5:
        if late <= 5 and view.pile("Duchy"):
            return "Duchy"
        for c in ("Laboratory", "Market"):
            if c in kingdom and view.pile(c) and late > 4:
                return c
        draw = next((c for c in ("Council Room", "Library") if c in kingdom and view.pile(c)), None)
        if draw and cards.terminals < 1 + cards.total // 14:
            return draw
        if "Festival" in kingdom and view.pile("Festival") and cards.terminals >= 1 and cards["Festival"] < 2:
            return "Festival"
    if coins >= 4 and late > 3:
        drawer = next((c for c in ("Smithy", "Moneylender", "Militia") if c in kingdom and view.pile(c)), None)
        if drawer and cards.terminals < 1 + cards.total // 12 and (drawer != "Moneylender" or cards[drawer] == 0):
            return drawer
    if coins >= 2 and late <= 2 and view.pile("Estate"):
        return "Estate"
    if coins >= 3 and view.pile("Silver"):
        return "Silver"
    if coins >= 2 and "Moat" in kingdom and view.pile("Moat") and cards["Moat"] == 0 and cards.terminals == 0:
        return None if not _opponents_attack(view) else "Moat"
    return None


def _opponents_attack(view: PlayerView) -> bool:
    attacks = {"Witch", "Militia", "Bureaucrat", "Thief", "Spy"}
    return any(attacks & set(c) for c in view.opponents_cards())


# ---------------------------------------------------------------------------
# beginner


def beginner(view: PlayerView, rng: Any) -> Move:
    """Big Money that buys a random affordable card (or nothing) one time in three: a newcomer's opponent."""
    move = big_money(view, rng)
    buying = move["act"] in ("buy", "end_turn") and view.decision is None and view.my_turn and view.buys > 0
    treasures_left = any(c in TREASURES for c in view.hand) and not view.bought
    if buying and not treasures_left and rng.randrange(3) == 0:
        options = sorted(c for c, k in view.supply.items() if k > 0 and COST[c] <= view.coins and c != "Curse")
        pick = rng.randrange(len(options) + 1)
        return {"act": "buy", "card": options[pick]} if pick < len(options) else END_TURN
    return move


# ---------------------------------------------------------------------------
# Levels: what the site offers a player, weakest first


#: Rollouts per searched buy of the two search levels (``search.SearchBot``): level 5's
#: move stays well under 2 s of CPU on the reference machine (``bench/bots.py`` measures it).
LEVEL4_ITERATIONS = 48
#: Level 5 spends ``LEVEL5_TURNS`` simulated turns (all seats) a searched buy: at least
#: ``LEVEL5_ITERATIONS`` rollouts, at most ``LEVEL5_MAX_ITERATIONS`` (the game's end, short rollouts).
LEVEL5_ITERATIONS = 288
LEVEL5_TURNS = 30_000
LEVEL5_MAX_ITERATIONS = 1500

level4 = SearchBot(smart, LEVEL4_ITERATIONS)
level5 = SearchBot(smart, LEVEL5_ITERATIONS, turn_budget=LEVEL5_TURNS, max_iterations=LEVEL5_MAX_ITERATIONS)

#: The five levels, weakest first: ``(bot name, title, what it plays)``. Each name is in ``BOTS``.
LEVELS: list[tuple[str, str, str]] = [
    ("level1", "Beginner", "Big Money with one buy in three at random."),
    ("level2", "Casual", "Big Money: Treasures and Victory cards only."),
    ("level3", "Club player", "Big Money with the kingdom's best cards (the smart bot)."),
    ("level4", "Strong", f"Searches each buy with {LEVEL4_ITERATIONS} smart rollouts from what it can know."),
    (
        "level5",
        "Expert",
        f"Searches each buy with {LEVEL5_ITERATIONS}-{LEVEL5_MAX_ITERATIONS} smart rollouts from what it can know.",
    ),
]

BOTS: dict[str, Any] = {
    "random": random_bot,
    "big_money": big_money,
    "smart": smart,
    "level1": beginner,
    "level2": big_money,
    "level3": smart,
    "level4": level4,
    "level5": level5,
}
DEFAULT_ANSWER = answer
