"""Dominion rules (base set, first edition) as a resumable state machine.

Every rule cited as "§N" is a section of ``shared/rules/dominion.md``; the
move notation is ``shared/rules/dominion-moves.md``.

How a card resolves: playing it runs its handler in ``_PLAY``. Anything
that needs no answer (draws, +Actions, Curses) happens at once; anything
that does opens one or more :class:`Decision` and records a ``resume`` step
to run with the answers. Work still to do after that (the second play of a
Throne Room, the next Spy reveal) waits as frames on ``state.stack``. The
engine drains the stack until it reaches a decision or the stack is empty,
so the state is always plain data, never a suspended Python call.

A decision whose legal answers, compared by card names, number exactly one
is taken by the engine and never shown (notation file, "Rules of the
notation"); yes/no questions are always asked, except Chancellor's with an
empty deck.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from typing import Any

from games.engine.core import (
    Decision,
    Event,
    IllegalMove,
    InvalidOptions,
    Result,
    Rng,
    ranks_from_keys,
)
from games.engine.dominion.cards import (
    ACTIONS,
    ATTACKS,
    BASIC_CARDS,
    CARDS,
    COINS,
    COST,
    KINGDOM_CARDS,
    RECOMMENDED_SETS,
    TREASURES,
    VICTORIES,
)
from games.engine.dominion.state import DominionState

VERSION = 1

# First edition: these three instructions are compulsory (§12 suggests a
# per-card flag so a second-edition variant is a configuration change).
COMPULSORY = {"Throne Room": True, "Mine": True, "Moneylender": True}

YES_NO = ["yes", "no"]


# ---------------------------------------------------------------------------
# Set-up (§2, §3)


def supply_sizes(players: int, kingdom: list[str]) -> dict[str, int]:
    """Return pile -> starting count for ``players`` (2-4) and a kingdom (§2).

    Computed per game from the player count, never kept as global state.
    """
    victory = 8 if players == 2 else 12
    sizes = {
        "Copper": 60 - 7 * players,
        "Silver": 40,
        "Gold": 30,
        "Estate": victory,
        "Duchy": victory,
        "Province": victory,
        "Curse": 10 * (players - 1),
    }
    for name in sorted(kingdom, key=lambda c: (COST[c], c)):
        sizes[name] = victory if name in VICTORIES else 10
    return sizes


def resolve_kingdom(spec: Any, seed: int) -> list[str]:
    """Turn a kingdom option into 10 card names.

    Args:
        spec: a list of 10 kingdom card names; the name of a recommended
            set ("First Game"); or ``"random"`` / ``None`` for 10 cards drawn
            from the 25 with the game's seed.
        seed: the game's seed (a random kingdom is part of the game).

    Raises:
        InvalidOptions: unknown card or set, duplicates, or not 10 cards.
    """
    if spec is None or spec == "random":
        return sorted(Rng(seed ^ 0x5EED).sample(KINGDOM_CARDS, 10), key=lambda c: (COST[c], c))
    if isinstance(spec, str):
        if spec not in RECOMMENDED_SETS:
            raise InvalidOptions(f"Unknown kingdom {spec!r}: choose random, 10 cards, or one of "
                                 + ", ".join(RECOMMENDED_SETS) + ".")
        return list(RECOMMENDED_SETS[spec])
    if not isinstance(spec, list | tuple) or not all(isinstance(c, str) for c in spec):
        raise InvalidOptions("A kingdom is a list of 10 card names.")
    unknown = [c for c in spec if c not in KINGDOM_CARDS]
    if unknown:
        raise InvalidOptions("Not kingdom cards of the base set: " + ", ".join(unknown) + ".")
    if len(set(spec)) != len(spec):
        raise InvalidOptions("A kingdom cannot name the same card twice.")
    if len(spec) != 10:
        raise InvalidOptions(f"A kingdom has 10 different cards, not {len(spec)}.")
    return sorted(spec, key=lambda c: (COST[c], c))


def check_players(players: Any) -> int:
    """Return ``players`` if it is 2, 3 or 4; raise ``InvalidOptions`` otherwise (§2)."""
    if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= 4:
        raise InvalidOptions("Dominion is played by 2 to 4 players here (5-6 need Intrigue).")
    return players


def new_state(players: int, kingdom: list[str], seed: int) -> DominionState:
    """Return the starting position (§3): 7 Copper + 3 Estate shuffled, 5 drawn each."""
    check_players(players)
    rng = Rng(seed)
    st = DominionState(
        n=players,
        kingdom=list(kingdom),
        supply=supply_sizes(players, kingdom),
        trash=[],
        hands=[[] for _ in range(players)],
        decks=[],
        discards=[[] for _ in range(players)],
        plays=[[] for _ in range(players)],
        asides=[[] for _ in range(players)],
        turns=[0] * players,
        rng=rng,
    )
    for p in range(players):
        deck = ["Copper"] * 7 + ["Estate"] * 3
        rng.shuffle(deck)
        st.decks.append(deck)
        st.hands[p] = [deck.pop() for _ in range(5)]
    st.start_counts = st.card_counts()
    return st


# ---------------------------------------------------------------------------
# Primitive operations (§6, §7)


def _ev(st: DominionState, kind: str, player: int | None, data: dict[str, Any],
        private_to: int | None = None, redacted: dict[str, Any] | None = None) -> None:
    st.events.append(Event(kind, player, data, private_to, redacted))


def _refill(st: DominionState, p: int) -> bool:
    """Shuffle ``p``'s discard pile into the empty deck; false if there is none.

    §6: only when a card is needed from an empty deck; set-aside and
    revealed cards are elsewhere, so they are never shuffled in.
    """
    disc = st.discards[p]
    if not disc:
        return False
    deck = st.decks[p]
    deck.extend(disc)
    disc.clear()
    st.rng.shuffle(deck)
    if st.record:
        _ev(st, "shuffle", p, {"count": len(deck)})
    return True


def _take_top(st: DominionState, p: int) -> str | None:
    """Remove and return the top card of ``p``'s deck, shuffling if needed."""
    deck = st.decks[p]
    if not deck and not _refill(st, p):
        return None
    return deck.pop()


def _draw(st: DominionState, p: int, n: int) -> None:
    """Draw up to ``n`` cards one at a time (§6: each may shuffle)."""
    deck = st.decks[p]
    hand = st.hands[p]
    got = 0
    for _ in range(n):
        if not deck and not _refill(st, p):
            break
        hand.append(deck.pop())
        got += 1
    if st.record and got:
        _ev(st, "draw", p, {"cards": hand[-got:]}, private_to=p, redacted={"count": got})


def _gain(st: DominionState, p: int, card: str, to: str = "discard") -> bool:
    """Gain ``card`` from the supply to ``to`` ("discard", "hand", "deck"); false if empty."""
    if st.supply.get(card, 0) <= 0:
        return False
    st.supply[card] -= 1
    if to == "discard":
        st.discards[p].append(card)
    elif to == "hand":
        st.hands[p].append(card)
    else:
        st.decks[p].append(card)
    if st.record:
        _ev(st, "gain", p, {"card": card, "to": to})
    return True


def _remove(zone: list[str], cards: list[str]) -> None:
    for c in cards:
        zone.remove(c)


def _trash_from_hand(st: DominionState, p: int, cards: list[str]) -> None:
    _remove(st.hands[p], cards)
    st.trash.extend(cards)
    if st.record and cards:
        _ev(st, "trash", p, {"cards": list(cards)})


def _discard_from_hand(st: DominionState, p: int, cards: list[str]) -> None:
    _remove(st.hands[p], cards)
    st.discards[p].extend(cards)
    if st.record and cards:
        _ev(st, "discard", p, {"cards": list(cards)})


def _others(st: DominionState, p: int) -> list[int]:
    """Every other seat in turn order, starting on ``p``'s left (§7)."""
    return [(p + i) % st.n for i in range(1, st.n)]


def _gainable(st: DominionState, limit: int, treasure_only: bool = False) -> list[str]:
    """Supply piles, non-empty, costing at most ``limit``."""
    return [c for c, k in st.supply.items()
            if k > 0 and COST[c] <= limit and (not treasure_only or c in TREASURES)]


# ---------------------------------------------------------------------------
# Decisions


def _single_answer(options: list[str], lo: int, hi: int) -> list[str] | None:
    """Return the only legal ``choose`` answer, or ``None`` if there are several.

    Compared by card names: choosing k of a multiset has one answer only
    when k is 0, k is the whole multiset, or every card has the same name.
    """
    hi = min(hi, len(options))
    if lo > hi:
        return None
    if lo != hi:
        return None if len(set(options)) else []
    if lo == 0:
        return []
    if lo == len(options):
        return list(options)
    if len(set(options)) == 1:
        return options[:lo]
    return None


def _ask(st: DominionState, decisions: list[Decision], resume: tuple[Any, ...],
         preset: dict[int, Any] | None = None) -> None:
    """Open ``decisions`` as one group; run ``resume`` once all are answered.

    Decisions whose single legal answer is known are answered at once and
    never opened. ``preset`` holds answers already known (seat -> answer).
    """
    answers = dict(preset or {})
    asked = []
    for d in decisions:
        if d.answer == "choose":
            only = _single_answer(d.options, d.min, d.max)
            if only is not None:
                answers[d.player] = only
                continue
        elif d.answer == "gain" and len(d.options) == 1:
            answers[d.player] = d.options[0]
            continue
        asked.append(d)
    if asked:
        st.open = asked
        st.answers = answers
        st.resume = resume
    else:
        _OPS[resume[0]](st, answers, *resume[1:])


def _choose(player: int, kind: str, prompt: str, options: list[str], lo: int, hi: int,
            source: str, out_of_turn: bool = False, **params: Any) -> Decision:
    return Decision(player, kind, prompt, options, lo, min(hi, len(options)), source, params,
                    out_of_turn, "choose")


def _gain_decision(player: int, prompt: str, options: list[str], source: str, **params: Any) -> Decision:
    return Decision(player, "gain", prompt, options, 1, 1, source, params, False, "gain")


def _yes_no(player: int, kind: str, prompt: str, source: str, out_of_turn: bool = False,
            **params: Any) -> Decision:
    return Decision(player, kind, prompt, YES_NO, 1, 1, source, params, out_of_turn, "yes_no")


def _ask_gain(st: DominionState, p: int, limit: int, source: str, to: str = "discard",
              treasure_only: bool = False) -> None:
    """Gain a card costing up to ``limit``: compulsory if any pile qualifies (§8.7)."""
    options = _gainable(st, limit, treasure_only)
    if not options:
        return
    what = "a Treasure" if treasure_only else "a card"
    _ask(st, [_gain_decision(p, f"Gain {what} costing up to ${limit}.", options, source, limit=limit)],
         ("gain_chosen", p, to))


def _op_gain_chosen(st: DominionState, answers: dict[int, Any], p: int, to: str) -> None:
    _gain(st, p, answers[p], to)


# ---------------------------------------------------------------------------
# Playing cards (§5, §8)


def _put_in_play(st: DominionState, p: int, card: str) -> int:
    st.hands[p].remove(card)
    st.plays[p].append(card)
    st.next_id += 1
    return st.next_id


def _resolve(st: DominionState, p: int, card: str, pid: int) -> None:
    """Resolve one play of ``card`` (already in play) completely (§5.1)."""
    if st.record:
        _ev(st, "play", p, {"card": card})
    if card in ATTACKS:
        _attack(st, p, card)
    else:
        _PLAY[card](st, p, pid)


def _op_play(st: DominionState, answers: dict[int, Any], p: int, card: str, pid: int) -> None:
    _resolve(st, p, card, pid)


def _cellar(st: DominionState, p: int, pid: int) -> None:
    st.actions += 1
    hand = st.hands[p]
    _ask(st, [_choose(p, "discard", "Discard any number of cards, then draw as many.",
                      list(hand), 0, len(hand), "Cellar")], ("cellar", p))


def _op_cellar(st: DominionState, answers: dict[int, Any], p: int) -> None:
    cards = answers[p]
    _discard_from_hand(st, p, cards)  # all at once, before drawing (§8.1)
    _draw(st, p, len(cards))


def _chapel(st: DominionState, p: int, pid: int) -> None:
    hand = st.hands[p]
    _ask(st, [_choose(p, "trash", "Trash up to 4 cards from your hand.", list(hand), 0, 4, "Chapel")],
         ("trash_chosen", p))


def _op_trash_chosen(st: DominionState, answers: dict[int, Any], p: int) -> None:
    _trash_from_hand(st, p, answers[p])


def _moat(st: DominionState, p: int, pid: int) -> None:
    _draw(st, p, 2)


def _chancellor(st: DominionState, p: int, pid: int) -> None:
    st.coins += 2
    if st.decks[p]:  # with an empty deck the choice has no effect: skip it (§8.4)
        _ask(st, [_yes_no(p, "chancellor", "Put your deck into your discard pile?", "Chancellor")],
             ("chancellor", p))


def _op_chancellor(st: DominionState, answers: dict[int, Any], p: int) -> None:
    if answers[p] == "yes":
        deck = st.decks[p]
        if st.record:
            _ev(st, "deck_to_discard", p, {"count": len(deck)})
        deck.reverse()  # the pile moves as one block, face down, unreordered
        st.discards[p].extend(deck)
        deck.clear()


def _village(st: DominionState, p: int, pid: int) -> None:
    _draw(st, p, 1)
    st.actions += 2


def _woodcutter(st: DominionState, p: int, pid: int) -> None:
    st.buys += 1
    st.coins += 2


def _workshop(st: DominionState, p: int, pid: int) -> None:
    _ask_gain(st, p, 4, "Workshop")


def _feast(st: DominionState, p: int, pid: int) -> None:
    if pid not in st.gone:  # trash this Feast only if it is still in play (§8.9)
        st.plays[p].remove("Feast")
        st.trash.append("Feast")
        st.gone.append(pid)
        if st.record:
            _ev(st, "trash", p, {"cards": ["Feast"]})
    _ask_gain(st, p, 5, "Feast")  # the gain does not depend on the trash


def _moneylender(st: DominionState, p: int, pid: int) -> None:
    if "Copper" in st.hands[p]:  # compulsory in the first edition (§8.12)
        _trash_from_hand(st, p, ["Copper"])
        st.coins += 3


def _remodel(st: DominionState, p: int, pid: int) -> None:
    hand = st.hands[p]
    if not hand:
        return
    _ask(st, [_choose(p, "trash", "Trash a card from your hand; gain one costing up to $2 more.",
                      list(hand), 1, 1, "Remodel")], ("remodel", p))


def _op_remodel(st: DominionState, answers: dict[int, Any], p: int) -> None:
    card = answers[p][0]
    _trash_from_hand(st, p, [card])
    _ask_gain(st, p, COST[card] + 2, "Remodel")


def _smithy(st: DominionState, p: int, pid: int) -> None:
    _draw(st, p, 3)


def _throne_room(st: DominionState, p: int, pid: int) -> None:
    options = [c for c in st.hands[p] if c in ACTIONS]
    if not options:
        return  # legal, and does nothing (§8.17)
    lo = 1 if COMPULSORY["Throne Room"] else 0
    _ask(st, [_choose(p, "throne", "Choose an Action card to play twice.", options, lo, 1,
                      "Throne Room")], ("throne", p))


def _op_throne(st: DominionState, answers: dict[int, Any], p: int) -> None:
    if not answers[p]:
        return
    card = answers[p][0]
    pid = _put_in_play(st, p, card)
    # Both plays before anything else; neither costs an Action (§8.17).
    st.stack.append(("play", p, card, pid))
    st.stack.append(("play", p, card, pid))


def _council_room(st: DominionState, p: int, pid: int) -> None:
    _draw(st, p, 4)
    st.buys += 1
    for o in _others(st, p):  # not optional, and not an Attack (§8.18)
        _draw(st, o, 1)


def _festival(st: DominionState, p: int, pid: int) -> None:
    st.actions += 2
    st.buys += 1
    st.coins += 2


def _laboratory(st: DominionState, p: int, pid: int) -> None:
    _draw(st, p, 2)
    st.actions += 1


def _library(st: DominionState, p: int, pid: int) -> None:
    _op_library(st, {}, p)


def _op_library(st: DominionState, answers: dict[int, Any], p: int, card: str | None = None) -> None:
    """Draw to 7, asking about each Action as it is drawn (§8.21)."""
    hand = st.hands[p]
    aside = st.asides[p]
    if card is not None and answers.get(p) == "yes":
        hand.remove(card)
        aside.append(card)
        if st.record:
            _ev(st, "set_aside", p, {"cards": [card]})
    while len(hand) < 7:
        c = _take_top(st, p)  # set-aside cards are not in the discard pile
        if c is None:
            break
        hand.append(c)
        if st.record:
            _ev(st, "draw", p, {"cards": [c]}, private_to=p, redacted={"count": 1})
        if c in ACTIONS:
            _ask(st, [_yes_no(p, "library", f"Set aside {c}?", "Library", card=c)], ("library", p, c))
            return
    if aside:
        st.discards[p].extend(aside)
        if st.record:
            _ev(st, "discard", p, {"cards": list(aside)})
        aside.clear()


def _market(st: DominionState, p: int, pid: int) -> None:
    _draw(st, p, 1)
    st.actions += 1
    st.buys += 1
    st.coins += 1


def _mine(st: DominionState, p: int, pid: int) -> None:
    options = [c for c in st.hands[p] if c in TREASURES]
    if not options:
        return
    lo = 1 if COMPULSORY["Mine"] else 0
    _ask(st, [_choose(p, "trash", "Trash a Treasure; gain one costing up to $3 more to your hand.",
                      options, lo, 1, "Mine")], ("mine", p))


def _op_mine(st: DominionState, answers: dict[int, Any], p: int) -> None:
    if not answers[p]:
        return
    card = answers[p][0]
    _trash_from_hand(st, p, [card])
    _ask_gain(st, p, COST[card] + 3, "Mine", to="hand", treasure_only=True)


def _adventurer(st: DominionState, p: int, pid: int) -> None:
    """Reveal until 2 Treasures; the others wait aside, not in the discard (§8.25)."""
    found: list[str] = []
    aside = st.asides[p]
    revealed = []
    while len(found) < 2:
        c = _take_top(st, p)
        if c is None:
            break  # deck and discard both exhausted
        revealed.append(c)
        (found if c in TREASURES else aside).append(c)
    if st.record and revealed:
        _ev(st, "reveal", p, {"cards": revealed})
    st.hands[p].extend(found)
    if aside:
        st.discards[p].extend(aside)
        if st.record:
            _ev(st, "discard", p, {"cards": list(aside)})
        aside.clear()


# Attacks (§7.1): the reaction window opens before any instruction resolves.


def _attack(st: DominionState, p: int, card: str) -> None:
    others = _others(st, p)
    holders = [o for o in others if "Moat" in st.hands[o]]
    if not holders:
        _ATTACK[card](st, p, others)
        return
    decisions = [_yes_no(o, "reveal_moat", f"Reveal Moat to be unaffected by {card}?", "Moat",
                         out_of_turn=True, attack=card) for o in holders]
    _ask(st, decisions, ("window", p, card))


def _op_window(st: DominionState, answers: dict[int, Any], p: int, card: str) -> None:
    victims = []
    for o in _others(st, p):
        if answers.get(o) == "yes":
            if st.record:
                _ev(st, "reveal", o, {"cards": ["Moat"], "reaction": card})
        else:
            victims.append(o)
    _ATTACK[card](st, p, victims)


def _bureaucrat(st: DominionState, p: int, victims: list[int]) -> None:
    _gain(st, p, "Silver", to="deck")
    decisions = []
    for v in victims:
        vic = [c for c in st.hands[v] if c in VICTORIES]  # Curse is not a Victory card
        if vic:
            decisions.append(_choose(v, "topdeck", "Put a Victory card from your hand onto your deck.",
                                     vic, 1, 1, "Bureaucrat", out_of_turn=True))
        elif st.record:
            _ev(st, "reveal", v, {"cards": list(st.hands[v])})
    _ask(st, decisions, ("bureaucrat", p, victims))


def _op_bureaucrat(st: DominionState, answers: dict[int, Any], p: int, victims: list[int]) -> None:
    for v in victims:  # every victim, in turn order (§8.8)
        if v in answers:
            card = answers[v][0]
            st.hands[v].remove(card)
            st.decks[v].append(card)
            if st.record:
                _ev(st, "topdeck", v, {"card": card})


def _militia(st: DominionState, p: int, victims: list[int]) -> None:
    st.coins += 2
    decisions = []
    for v in victims:
        hand = st.hands[v]
        if len(hand) > 3:
            k = len(hand) - 3
            decisions.append(_choose(v, "discard", f"Discard {k} cards (down to 3).", list(hand), k, k,
                                     "Militia", out_of_turn=True))
    _ask(st, decisions, ("militia", victims))


def _op_militia(st: DominionState, answers: dict[int, Any], victims: list[int]) -> None:
    for v in victims:
        if v in answers:
            _discard_from_hand(st, v, answers[v])


def _spy(st: DominionState, p: int, victims: list[int]) -> None:
    _draw(st, p, 1)  # before any reveal (§8.15)
    st.actions += 1
    for who in reversed([p, *victims]):  # the attacker first, then victims in turn order
        st.stack.append(("spy_reveal", p, who))


def _op_spy_reveal(st: DominionState, answers: dict[int, Any], p: int, who: int) -> None:
    deck = st.decks[who]
    if not deck and not _refill(st, who):
        return  # no cards at all: nothing revealed
    card = deck[-1]
    if st.record:
        _ev(st, "reveal", who, {"cards": [card]})
    whose = "your" if who == p else "their"
    _ask(st, [_yes_no(p, "spy", f"Discard {card} from the top of {whose} deck? (no = put it back)",
                      "Spy", card=card, target=who)], ("spy_answer", p, who))


def _op_spy_answer(st: DominionState, answers: dict[int, Any], p: int, who: int) -> None:
    if answers[p] == "yes":
        card = st.decks[who].pop()
        st.discards[who].append(card)
        if st.record:
            _ev(st, "discard", who, {"cards": [card]})


def _thief(st: DominionState, p: int, victims: list[int]) -> None:
    st.next_id += 1
    token = st.next_id
    st.scratch[token] = []
    st.stack.append(("thief_gain", p, token))
    for v in reversed(victims):
        st.stack.append(("thief_victim", p, v, token))


def _op_thief_victim(st: DominionState, answers: dict[int, Any], p: int, v: int, token: int) -> None:
    aside = st.asides[v]
    for _ in range(2):  # one at a time: a shuffle leaves the first card out (§8.16)
        c = _take_top(st, v)
        if c is None:
            break
        aside.append(c)
    if st.record and aside:
        _ev(st, "reveal", v, {"cards": list(aside)})
    treasures = [c for c in aside if c in TREASURES]
    _ask(st, [_choose(p, "thief_trash", "Choose which revealed Treasure is trashed.", treasures, 1, 1,
                      "Thief", victim=v)] if treasures else [], ("thief_trash", p, v, token))


def _op_thief_trash(st: DominionState, answers: dict[int, Any], p: int, v: int, token: int) -> None:
    aside = st.asides[v]
    chosen = answers.get(p) or []
    if chosen:
        aside.remove(chosen[0])
        st.trash.append(chosen[0])
        st.scratch[token].append(chosen[0])
        if st.record:
            _ev(st, "trash", v, {"cards": [chosen[0]]})
    if aside:
        st.discards[v].extend(aside)
        if st.record:
            _ev(st, "discard", v, {"cards": list(aside)})
        aside.clear()


def _op_thief_gain(st: DominionState, answers: dict[int, Any], p: int, token: int) -> None:
    trashed = st.scratch[token]
    if not trashed:
        del st.scratch[token]
        return
    _ask(st, [_choose(p, "thief_gain", "Gain any of the trashed Treasures.", list(trashed), 0,
                      len(trashed), "Thief")], ("thief_take", p, token))


def _op_thief_take(st: DominionState, answers: dict[int, Any], p: int, token: int) -> None:
    del st.scratch[token]
    for c in answers[p]:  # only this play's trashed cards, from the Trash (§7 "gain")
        st.trash.remove(c)
        st.discards[p].append(c)
        if st.record:
            _ev(st, "gain", p, {"card": c, "to": "discard", "from": "trash"})


def _witch(st: DominionState, p: int, victims: list[int]) -> None:
    _draw(st, p, 2)
    for v in victims:  # in turn order while Curses last (§8.24)
        _gain(st, v, "Curse")


_PLAY = {
    "Cellar": _cellar,
    "Chapel": _chapel,
    "Moat": _moat,
    "Chancellor": _chancellor,
    "Village": _village,
    "Woodcutter": _woodcutter,
    "Workshop": _workshop,
    "Feast": _feast,
    "Moneylender": _moneylender,
    "Remodel": _remodel,
    "Smithy": _smithy,
    "Throne Room": _throne_room,
    "Council Room": _council_room,
    "Festival": _festival,
    "Laboratory": _laboratory,
    "Library": _library,
    "Market": _market,
    "Mine": _mine,
    "Adventurer": _adventurer,
}

_ATTACK = {
    "Bureaucrat": _bureaucrat,
    "Militia": _militia,
    "Spy": _spy,
    "Thief": _thief,
    "Witch": _witch,
}

_OPS = {
    "play": _op_play,
    "gain_chosen": _op_gain_chosen,
    "cellar": _op_cellar,
    "trash_chosen": _op_trash_chosen,
    "chancellor": _op_chancellor,
    "remodel": _op_remodel,
    "throne": _op_throne,
    "library": _op_library,
    "mine": _op_mine,
    "window": _op_window,
    "bureaucrat": _op_bureaucrat,
    "militia": _op_militia,
    "spy_reveal": _op_spy_reveal,
    "spy_answer": _op_spy_answer,
    "thief_victim": _op_thief_victim,
    "thief_trash": _op_thief_trash,
    "thief_gain": _op_thief_gain,
    "thief_take": _op_thief_take,
}


def _drain(st: DominionState) -> None:
    """Resolve stacked work until a decision is open or nothing is left."""
    stack = st.stack
    while stack and not st.open:
        frame = stack.pop()
        _OPS[frame[0]](st, {}, *frame[1:])


# ---------------------------------------------------------------------------
# Turn moves (§5) and the end of the game (§9, §10)


def _play_treasures(st: DominionState, p: int, only: str | None = None) -> None:
    st.phase = "buy"
    hand = st.hands[p]
    play = st.plays[p]
    if only is not None:
        hand.remove(only)
        play.append(only)
        st.coins += COINS[only]
        played = [only]
    else:
        keep = []
        played = []
        coins = 0
        for c in hand:
            if c in TREASURES:
                played.append(c)
                coins += COINS[c]
            else:
                keep.append(c)
        hand[:] = keep
        play.extend(played)
        st.coins += coins
    if st.record and played:
        _ev(st, "play", p, {"cards": played})


def _end_turn(st: DominionState, p: int) -> None:
    """Clean-up (§5.3), then the game-end check (§9), then the next turn."""
    disc = st.discards[p]
    disc.extend(st.plays[p])
    st.plays[p].clear()
    disc.extend(st.hands[p])
    st.hands[p].clear()
    st.gone.clear()
    _draw(st, p, 5)
    st.turns[p] += 1
    if st.record:
        _ev(st, "end_turn", p, {"turn": st.turns[p]})
    supply = st.supply
    if supply["Province"] == 0 or sum(1 for k in supply.values() if k == 0) >= 3:
        st.game_over = True
        if st.record:
            res = result(st)
            assert res is not None
            _ev(st, "game_over", None, {"scores": res.scores, "winners": res.winners})
        return
    st.current = (p + 1) % st.n
    st.phase = "action"
    st.actions = 1
    st.buys = 1
    st.coins = 0
    st.bought = False
    if st.record:
        _ev(st, "start_turn", st.current, {"turn": st.turns[st.current] + 1})


def score(st: DominionState, p: int) -> int:
    """Victory points of seat ``p`` now: every card it owns (§10), Gardens included."""
    cards = st.owned(p)
    vp = 0
    gardens = 0
    for c in cards:
        if c in _VP:
            vp += _VP[c]
        elif c == "Gardens":
            gardens += 1
    return vp + gardens * (len(cards) // 10)


_VP = {"Estate": 1, "Duchy": 3, "Province": 6, "Curse": -1}


def result(st: DominionState) -> Result | None:
    """Return scores, ranks and winners once the game is over, else ``None``.

    Tie-break (§10): among equal scores, fewer turns ranks higher; equal
    turns share the rank.
    """
    if not st.game_over:
        return None
    scores = [score(st, p) for p in range(st.n)]
    ranks = ranks_from_keys([(scores[p], -st.turns[p]) for p in range(st.n)])
    winners = [p for p in range(st.n) if ranks[p] == 1]
    return Result(scores, ranks, winners, {"turns": list(st.turns)})


# ---------------------------------------------------------------------------
# Checking and applying moves


def _names(cards: Any) -> list[str] | None:
    if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
        return None
    return cards


def _who(st: DominionState, p: int) -> str:
    return f"player {p + 1}"


def _validate(st: DominionState, p: Any, move: Any) -> tuple[str, Any]:
    """Return ``(kind, payload)`` for a legal move; raise ``IllegalMove`` otherwise.

    Every refusal names the rule in words a player understands. Nothing is
    changed here, so ``apply`` can validate first and then mutate.
    """
    if not isinstance(move, dict) or not isinstance(move.get("act"), str):
        raise IllegalMove("A move is an object with an 'act'.", "malformed")
    if not isinstance(p, int) or isinstance(p, bool) or not 0 <= p < st.n:
        raise IllegalMove("No such player in this game.", "no_such_player")
    if st.game_over:
        raise IllegalMove("The game is over.", "game_over")
    act = move["act"]
    if st.open:
        mine = next((d for d in st.open if d.player == p and p not in st.answers), None)
        if mine is None:
            waiting = ", ".join(_who(st, d.player) for d in st.open if d.player not in st.answers)
            if any(d.player == p for d in st.open):
                raise IllegalMove(f"You have answered already; waiting for {waiting}.", "answered")
            raise IllegalMove(f"It is not your decision: waiting for {waiting}.", "not_your_decision")
        return "answer", (mine, _validate_answer(mine, act, move))
    if p != st.current:
        raise IllegalMove(f"It is not your turn: it is {_who(st, st.current)}'s turn.", "not_your_turn")
    card = move.get("card")
    if act == "play":
        if not isinstance(card, str):
            raise IllegalMove("Say which card to play.", "malformed")
        if card not in st.hands[p]:
            raise IllegalMove(f"You have no {card} in your hand.", "not_in_hand")
        if card in ACTIONS:
            if st.phase != "action":
                raise IllegalMove("Action cards can only be played in the Action phase.", "wrong_phase")
            if st.actions < 1:
                raise IllegalMove(f"You have no Action left to play {card}.", "no_actions")
            return "play_action", card
        if card in TREASURES:
            if st.bought:
                raise IllegalMove("No more Treasures may be played once a card is bought.", "bought")
            return "play_treasure", card
        raise IllegalMove(f"{card} cannot be played.", "not_playable")
    if act == "play_treasures":
        if st.bought:
            raise IllegalMove("No more Treasures may be played once a card is bought.", "bought")
        return "play_treasures", None
    if act == "buy":
        if not isinstance(card, str) or card not in st.supply:
            raise IllegalMove(f"{card} is not a pile in the Supply.", "not_in_supply")
        if st.buys < 1:
            raise IllegalMove("You have no Buy left.", "no_buys")
        if st.supply[card] <= 0:
            raise IllegalMove(f"The {card} pile is empty.", "empty_pile")
        if COST[card] > st.coins:
            raise IllegalMove(f"{card} costs ${COST[card]}; you have ${st.coins}.", "too_expensive")
        return "buy", card
    if act == "end_actions":
        if st.phase != "action":
            raise IllegalMove("You are already in the Buy phase.", "wrong_phase")
        return "end_actions", None
    if act == "end_turn":
        return "end_turn", None
    if act in ("choose", "gain", "yes", "no"):
        raise IllegalMove("Nothing is being asked: play a card, buy, or end your turn.", "no_decision")
    raise IllegalMove(f"Unknown move {act!r}.", "malformed")


def _validate_answer(d: Decision, act: str, move: dict[str, Any]) -> Any:
    if d.answer == "yes_no":
        if act not in ("yes", "no"):
            raise IllegalMove(f"Answer yes or no: {d.prompt}", "wrong_answer")
        return act
    if d.answer == "gain":
        if act != "gain":
            raise IllegalMove(f"Choose a card to gain: {d.prompt}", "wrong_answer")
        card = move.get("card")
        if card not in d.options:
            if isinstance(card, str) and card in COST:
                raise IllegalMove(f"You cannot gain {card} here: {d.prompt}", "not_gainable")
            raise IllegalMove(f"{card} is not a card you can gain here.", "not_gainable")
        return card
    if act != "choose":
        raise IllegalMove(f"Choose cards: {d.prompt}", "wrong_answer")
    cards = _names(move.get("cards"))
    if cards is None:
        raise IllegalMove("'cards' must be a list of card names.", "malformed")
    if not d.min <= len(cards) <= d.max:
        if d.min == d.max:
            need = f"exactly {d.min}"
        else:
            need = f"{d.min} to {d.max}"
        raise IllegalMove(f"Choose {need} card{'s' if d.max != 1 else ''}, not {len(cards)}: {d.prompt}",
                          "wrong_count")
    have = Counter(d.options)
    for c, k in Counter(cards).items():
        if have[c] < k:
            raise IllegalMove(f"{c} is not among the cards you can choose.", "not_an_option")
    return list(cards)


def _apply(st: DominionState, p: int, kind: str, payload: Any) -> None:
    if kind == "answer":
        d, answer = payload
        st.answers[p] = answer
        if any(o.player not in st.answers for o in st.open):
            return
        answers, resume = st.answers, st.resume
        st.open = []
        st.answers = {}
        st.resume = None
        assert resume is not None
        _OPS[resume[0]](st, answers, *resume[1:])
    elif kind == "play_action":
        st.actions -= 1
        pid = _put_in_play(st, p, payload)
        _resolve(st, p, payload, pid)
    elif kind == "play_treasure":
        _play_treasures(st, p, payload)
    elif kind == "play_treasures":
        _play_treasures(st, p)
    elif kind == "buy":
        st.phase = "buy"
        st.buys -= 1
        st.coins -= COST[payload]
        st.bought = True
        st.supply[payload] -= 1
        st.discards[p].append(payload)
        if st.record:
            _ev(st, "buy", p, {"card": payload})
    elif kind == "end_actions":
        st.phase = "buy"
    elif kind == "end_turn":
        _end_turn(st, p)
        return
    _drain(st)


# ---------------------------------------------------------------------------
# Legal moves (one source for pages, bots and tests)


def choose_answers(options: list[str], lo: int, hi: int, cap: int = 4096) -> list[list[str]]:
    """Every distinct multiset of ``options`` with ``lo``..``hi`` cards, at most ``cap``."""
    out: list[list[str]] = []
    seen: set[tuple[str, ...]] = set()
    ordered = sorted(options)
    for k in range(lo, min(hi, len(ordered)) + 1):
        for combo in combinations(ordered, k):
            if combo not in seen:
                seen.add(combo)
                out.append(list(combo))
                if len(out) >= cap:
                    return out
    return out


def turn_moves(st: DominionState) -> list[dict[str, Any]]:
    """The current player's legal turn moves when no decision is open."""
    p = st.current
    hand = st.hands[p]
    moves: list[dict[str, Any]] = []
    if st.phase == "action" and st.actions > 0:
        for c in sorted(set(hand)):
            if c in ACTIONS:
                moves.append({"act": "play", "card": c})
    if not st.bought:
        treasures = sorted({c for c in hand if c in TREASURES})
        for c in treasures:
            moves.append({"act": "play", "card": c})
        if treasures:
            moves.append({"act": "play_treasures"})
    if st.buys > 0:
        for c, k in st.supply.items():
            if k > 0 and COST[c] <= st.coins:
                moves.append({"act": "buy", "card": c})
    if st.phase == "action":
        moves.append({"act": "end_actions"})
    moves.append({"act": "end_turn"})
    return moves


def decision_moves(d: Decision) -> list[dict[str, Any]]:
    """The legal answers to ``d`` as moves."""
    if d.answer == "yes_no":
        return [{"act": "yes"}, {"act": "no"}]
    if d.answer == "gain":
        return [{"act": "gain", "card": c} for c in d.options]
    return [{"act": "choose", "cards": cards} for cards in choose_answers(d.options, d.min, d.max)]


def open_decision(st: DominionState, p: int) -> Decision | None:
    """The decision seat ``p`` must answer now, if any (turn moves excluded)."""
    for d in st.open:
        if d.player == p and p not in st.answers:
            return d
    return None


# ---------------------------------------------------------------------------
# Views (hidden information, §7 "Hidden information")


def _turn_decision(st: DominionState) -> Decision:
    p = st.current
    return Decision(p, "turn", f"Your turn ({st.phase} phase).", [], 0, 0, "",
                    {"phase": st.phase}, False, "move")


def view(st: DominionState, viewer: int | None, reveal_all: bool = False) -> dict[str, Any]:
    """What ``viewer`` (a seat, or ``None`` for a spectator) may know, as JSON data.

    A seat sees its own hand; everyone sees counts of every hand, deck and
    discard pile, the top card of each discard pile, cards in play and set
    aside, the supply, the trash, the turn, scores, and who is being waited
    on. Only the viewer's own open decision carries its legal answers. Once
    the game is over everything is shown, decks included (top first).
    ``reveal_all`` shows everything at any point (replays of finished games).
    """
    over = st.game_over
    show = over or reveal_all
    seats = []
    for p in range(st.n):
        hand = st.hands[p]
        disc = st.discards[p]
        seat: dict[str, Any] = {
            "seat": p,
            "hand": sorted(hand, key=_card_order) if (p == viewer or show) else None,
            "hand_count": len(hand),
            "deck_count": len(st.decks[p]),
            "discard_count": len(disc),
            "discard_top": disc[-1] if disc else None,
            "play": list(st.plays[p]),
            "set_aside": list(st.asides[p]),
            "score": score(st, p),
            "turns": st.turns[p],
            "card_count": len(hand) + len(st.decks[p]) + len(disc) + len(st.plays[p]) + len(st.asides[p]),
        }
        if show:
            seat["deck"] = list(reversed(st.decks[p]))
            seat["discard"] = list(disc)
            seat["owned"] = dict(sorted(Counter(st.owned(p)).items(), key=lambda kv: _card_order(kv[0])))
        seats.append(seat)
    waiting = [d.player for d in st.open if d.player not in st.answers]
    if not st.open and not over:
        waiting = [st.current]
    mine = open_decision(st, viewer) if viewer is not None else None
    res = result(st)
    out: dict[str, Any] = {
        "game": "dominion",
        "viewer": viewer,
        "players": st.n,
        "kingdom": list(st.kingdom),
        "supply": [{"card": c, "count": k, "cost": COST[c], "types": list(CARDS[c].types)}
                   for c, k in st.supply.items()],
        "trash": sorted(st.trash, key=_card_order),
        "turn": {"player": st.current, "phase": st.phase, "actions": st.actions, "buys": st.buys,
                 "coins": st.coins, "number": st.turns[st.current] + (0 if over else 1),
                 "bought": st.bought},
        "seats": seats,
        "waiting_on": waiting,
        "decision": mine.to_dict() if mine else None,
        "legal": [],
        "game_over": over,
        "result": ({"scores": res.scores, "ranks": res.ranks, "winners": res.winners,
                    "turns": list(st.turns)} if res else None),
    }
    if mine is not None:
        out["legal"] = decision_moves(mine) if mine.answer != "choose" else []
    elif viewer == st.current and not st.open and not over:
        out["legal"] = turn_moves(st)
    return out


def _card_order(name: str) -> tuple[int, int, str]:
    kind = 0 if name in ACTIONS else 1 if name in TREASURES else 2
    return (kind, -COST[name] if kind else COST[name], name)


class PlayerView:
    """What one seat may know, as cheap attributes for bots.

    It reads the state on demand instead of building the full ``view``
    dict, so a bot asking for its hand costs one attribute access. It
    exposes nothing a player could not see at the table: the bot's own hand
    and decision, counts, public zones, and the multiset (never the order)
    of the bot's own cards.
    """

    __slots__ = ("_st", "me")

    def __init__(self, st: DominionState, me: int) -> None:
        self._st = st
        self.me = me

    @property
    def hand(self) -> list[str]:
        return list(self._st.hands[self.me])

    @property
    def decision(self) -> Decision | None:
        return open_decision(self._st, self.me)

    @property
    def my_turn(self) -> bool:
        st = self._st
        return st.current == self.me and not st.open and not st.game_over

    @property
    def phase(self) -> str:
        return self._st.phase

    @property
    def actions(self) -> int:
        return self._st.actions

    @property
    def buys(self) -> int:
        return self._st.buys

    @property
    def coins(self) -> int:
        return self._st.coins

    @property
    def bought(self) -> bool:
        return self._st.bought

    @property
    def supply(self) -> dict[str, int]:
        return dict(self._st.supply)

    def pile(self, card: str) -> int:
        """Cards left in a supply pile (0 if not in the game)."""
        return self._st.supply.get(card, 0)

    @property
    def kingdom(self) -> list[str]:
        return list(self._st.kingdom)

    @property
    def players(self) -> int:
        return self._st.n

    @property
    def turn_number(self) -> int:
        return self._st.turns[self.me] + 1

    @property
    def deck_count(self) -> int:
        return len(self._st.decks[self.me])

    def my_cards(self) -> Counter[str]:
        """Every card this seat owns, as counts (a player can track this)."""
        return Counter(self._st.owned(self.me))

    def scores(self) -> list[int]:
        """Every seat's victory points now (public: gains and trashes are public)."""
        return [score(self._st, p) for p in range(self._st.n)]

    def opponents_cards(self) -> list[Counter[str]]:
        """Each other seat's owned cards as counts (public knowledge by tracking)."""
        return [Counter(self._st.owned(p)) for p in _others(self._st, self.me)]

    def turn_moves(self) -> list[dict[str, Any]]:
        """Legal turn moves when it is this seat's turn (else empty)."""
        return turn_moves(self._st) if self.my_turn else []


# ---------------------------------------------------------------------------
# The engine object


class DominionEngine:
    """Dominion behind the shared ``games.engine.core.Engine`` interface.

    Options: ``{"kingdom": [10 names] | "<recommended set>" | "random"}``.
    """

    kind = "dominion"
    version = VERSION
    min_players = 2
    max_players = 4

    @property
    def bots(self) -> dict[str, Any]:
        from games.engine.dominion.bots import BOTS

        return BOTS

    def normalize_options(self, options: dict[str, Any], players: int, seed: int) -> dict[str, Any]:
        """Return options with the kingdom made concrete (10 names); raise ``InvalidOptions``."""
        if not isinstance(options, dict):
            raise InvalidOptions("Options must be an object.")
        check_players(players)
        out = dict(options)
        out["kingdom"] = resolve_kingdom(options.get("kingdom", "random"), seed)
        return out

    def new_game(self, options: dict[str, Any], players: int, seed: int) -> DominionState:
        """Return the starting state; raise ``InvalidOptions`` for options outside the rules."""
        opts = self.normalize_options(options, players, seed)
        return new_state(players, opts["kingdom"], seed)

    def pending(self, st: DominionState) -> list[Decision]:
        """Open decisions, or a single ``turn`` decision for the current player."""
        if st.game_over:
            return []
        if st.open:
            return [d for d in st.open if d.player not in st.answers]
        return [_turn_decision(st)]

    def legal_moves(self, st: DominionState, player: int) -> list[dict[str, Any]]:
        """Every legal move of ``player`` now (choices enumerated up to a cap)."""
        if st.game_over:
            return []
        d = open_decision(st, player)
        if d is not None:
            return decision_moves(d)
        if st.open or player != st.current:
            return []
        return turn_moves(st)

    def check(self, st: DominionState, player: int, move: dict[str, Any]) -> None:
        """Raise ``IllegalMove`` with the reason if ``move`` is not legal now; change nothing."""
        _validate(st, player, move)

    def apply(self, st: DominionState, player: int, move: dict[str, Any]) -> list[Event]:
        """Apply a legal move and return its events; an illegal one raises and changes nothing."""
        kind, payload = _validate(st, player, move)
        st.events = []
        _apply(st, player, kind, payload)
        st.moves += 1
        events, st.events = st.events, []
        return events

    def view(self, st: DominionState, viewer: int | None, reveal_all: bool = False) -> dict[str, Any]:
        """See :func:`view`."""
        return view(st, viewer, reveal_all)

    def player_view(self, st: DominionState, player: int) -> PlayerView:
        """A cheap, read-only :class:`PlayerView` for bots."""
        return PlayerView(st, player)

    def result(self, st: DominionState) -> Result | None:
        """See :func:`result`."""
        return result(st)

    def is_over(self, st: DominionState) -> bool:
        """True once the end-of-turn check has ended the game."""
        return st.game_over


ENGINE = DominionEngine()
