"""Dominion card effects (base set, first edition) as a resumable state machine.

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

from collections.abc import Callable
from typing import Any

from games.engine.core import Decision, Event
from games.engine.dominion.cards import ACTIONS, ATTACKS, COST, TREASURES, VICTORIES
from games.engine.dominion.state import DominionState

# First edition: these three instructions are compulsory (§12 suggests a
# per-card flag so a second-edition variant is a configuration change).
COMPULSORY = {"Throne Room": True, "Mine": True, "Moneylender": True}

YES_NO = ["yes", "no"]


# ---------------------------------------------------------------------------
# Primitive operations (§6, §7)


def _ev(
    st: DominionState,
    kind: str,
    player: int | None,
    data: dict[str, Any],
    private_to: int | None = None,
    redacted: dict[str, Any] | None = None,
) -> None:
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
    if 0 < n <= len(deck):
        # Enough cards, so no shuffle: take the top n at once, in the order popping gives.
        top = deck[-n:]
        del deck[-n:]
        top.reverse()
        hand.extend(top)
        got = n
    else:
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
    return [c for c, k in st.supply.items() if k > 0 and COST[c] <= limit and (not treasure_only or c in TREASURES)]


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


def _ask(
    st: DominionState, decisions: list[Decision], resume: tuple[Any, ...], preset: dict[int, Any] | None = None
) -> None:
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


def _choose(
    player: int,
    kind: str,
    prompt: str,
    options: list[str],
    lo: int,
    hi: int,
    source: str,
    out_of_turn: bool = False,
    **params: Any,
) -> Decision:
    return Decision(player, kind, prompt, options, lo, min(hi, len(options)), source, params, out_of_turn, "choose")


def _gain_decision(player: int, prompt: str, options: list[str], source: str, **params: Any) -> Decision:
    return Decision(player, "gain", prompt, options, 1, 1, source, params, False, "gain")


def _yes_no(player: int, kind: str, prompt: str, source: str, out_of_turn: bool = False, **params: Any) -> Decision:
    return Decision(player, kind, prompt, YES_NO, 1, 1, source, params, out_of_turn, "yes_no")


def _ask_gain(
    st: DominionState, p: int, limit: int, source: str, to: str = "discard", treasure_only: bool = False
) -> None:
    """Gain a card costing up to ``limit``: compulsory if any pile qualifies (§8.7)."""
    options = _gainable(st, limit, treasure_only)
    if not options:
        return
    if st.version >= 3 and "Curse" in options and curses_undecided(st):
        # Whether Curse is an option (and so the question itself) depends on
        # owed Moat answers: the gain waits for them (see "Version 3").
        st.stack.append(("ask_gain", p, limit, source, to, treasure_only))
        return
    what = "a Treasure" if treasure_only else "a card"
    _ask(
        st,
        [_gain_decision(p, f"Gain {what} costing up to ${limit}.", options, source, limit=limit)],
        ("gain_chosen", p, to),
    )


def _op_ask_gain(
    st: DominionState, answers: dict[int, Any], p: int, limit: int, source: str, to: str, treasure_only: bool
) -> None:
    _ask_gain(st, p, limit, source, to, treasure_only)


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
        if st.version >= 3:
            _attack_v3(st, p, card)
        else:
            _attack(st, p, card)
    else:
        _PLAY[card](st, p, pid)


def _op_play(st: DominionState, answers: dict[int, Any], p: int, card: str, pid: int) -> None:
    _resolve(st, p, card, pid)


def _cellar(st: DominionState, p: int, pid: int) -> None:
    st.actions += 1
    hand = st.hands[p]
    _ask(
        st,
        [_choose(p, "discard", "Discard any number of cards, then draw as many.", list(hand), 0, len(hand), "Cellar")],
        ("cellar", p),
    )


def _op_cellar(st: DominionState, answers: dict[int, Any], p: int) -> None:
    cards = answers[p]
    _discard_from_hand(st, p, cards)  # all at once, before drawing (§8.1)
    _draw(st, p, len(cards))


def _chapel(st: DominionState, p: int, pid: int) -> None:
    hand = st.hands[p]
    _ask(
        st,
        [_choose(p, "trash", "Trash up to 4 cards from your hand.", list(hand), 0, 4, "Chapel")],
        ("trash_chosen", p),
    )


def _op_trash_chosen(st: DominionState, answers: dict[int, Any], p: int) -> None:
    _trash_from_hand(st, p, answers[p])


def _moat(st: DominionState, p: int, pid: int) -> None:
    _draw(st, p, 2)


def _chancellor(st: DominionState, p: int, pid: int) -> None:
    st.coins += 2
    if st.decks[p]:  # with an empty deck the choice has no effect: skip it (§8.4)
        _ask(st, [_yes_no(p, "chancellor", "Put your deck into your discard pile?", "Chancellor")], ("chancellor", p))


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
    coppers = [c for c in st.hands[p] if c == "Copper"]
    if not coppers:
        return  # "if you do": no Copper, no +$3 (§8.12)
    if COMPULSORY["Moneylender"]:  # first edition: the trash is not optional
        _op_moneylender(st, {p: ["Copper"]}, p)
        return
    # Second-edition variant (§12): "you may trash a Copper".
    _ask(
        st,
        [_choose(p, "trash", "You may trash a Copper for +$3.", coppers[:1], 0, 1, "Moneylender")],
        ("moneylender", p),
    )


def _op_moneylender(st: DominionState, answers: dict[int, Any], p: int) -> None:
    if answers[p]:
        _trash_from_hand(st, p, ["Copper"])
        st.coins += 3


def _remodel(st: DominionState, p: int, pid: int) -> None:
    hand = st.hands[p]
    if not hand:
        return
    _ask(
        st,
        [
            _choose(
                p, "trash", "Trash a card from your hand; gain one costing up to $2 more.", list(hand), 1, 1, "Remodel"
            )
        ],
        ("remodel", p),
    )


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
    _ask(
        st, [_choose(p, "throne", "Choose an Action card to play twice.", options, lo, 1, "Throne Room")], ("throne", p)
    )


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
    _ask(
        st,
        [_choose(p, "trash", "Trash a Treasure; gain one costing up to $3 more to your hand.", options, lo, 1, "Mine")],
        ("mine", p),
    )


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
    decisions = [
        _yes_no(o, "reveal_moat", f"Reveal Moat to be unaffected by {card}?", "Moat", out_of_turn=True, attack=card)
        for o in holders
    ]
    _ask(st, decisions, ("window", p, card))


def _reaction_question(st: DominionState, o: int, card: str, by: int | None = None) -> Decision:
    """The Moat question for seat ``o``; a hand without Moat may only answer "no" (no reaction).

    ``by``: the attacker's seat, named in the question's params when the answer may be owed after the
    attacker's turn has moved on (version 3), so the victim's page can say whose attack it is.
    """
    options = YES_NO if "Moat" in st.hands[o] else ["no"]
    return Decision(
        o,
        "reveal_moat",
        f"Reveal Moat to be unaffected by {card}?",
        list(options),
        1,
        1,
        "Moat",
        {"attack": card} if by is None else {"attack": card, "by": by},
        True,
        "yes_no",
    )


def _asked_reaction(st: DominionState, o: int) -> bool:
    """Version 3: whether seat ``o`` is asked the Moat question: a Moat holder always; with
    hidden reactions (``st.ask_all``) every victim whenever Moat is in the game."""
    if "Moat" in st.hands[o]:
        return True
    return st.ask_all and "Moat" in st.supply


def _attack_strict(st: DominionState, p: int, card: str) -> None:
    """Version 3's attack in the rulebook order, the attacker waiting: Spy and Thief (the
    attacker's own decisions depend on what each victim reveals), and a Witch when the
    Curses may run out (who gets the last ones depends on every answer)."""
    others = _others(st, p)
    asked = [o for o in others if _asked_reaction(st, o)]
    if not asked:
        _ATTACK[card](st, p, others)
        return
    _ask(st, [_reaction_question(st, o, card) for o in asked], ("window", p, card))


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
            decisions.append(
                _choose(
                    v,
                    "topdeck",
                    "Put a Victory card from your hand onto your deck.",
                    vic,
                    1,
                    1,
                    "Bureaucrat",
                    out_of_turn=True,
                )
            )
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
            decisions.append(
                _choose(v, "discard", f"Discard {k} cards (down to 3).", list(hand), k, k, "Militia", out_of_turn=True)
            )
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
    _ask(
        st,
        [
            _yes_no(
                p,
                "spy",
                f"Discard {card} from the top of {whose} deck? (no = put it back)",
                "Spy",
                card=card,
                target=who,
            )
        ],
        ("spy_answer", p, who),
    )


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
    _ask(
        st,
        [_choose(p, "thief_trash", "Choose which revealed Treasure is trashed.", treasures, 1, 1, "Thief", victim=v)]
        if treasures
        else [],
        ("thief_trash", p, v, token),
    )


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
    _ask(
        st,
        [_choose(p, "thief_gain", "Gain any of the trashed Treasures.", list(trashed), 0, len(trashed), "Thief")],
        ("thief_take", p, token),
    )


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


# ---------------------------------------------------------------------------
# Version 3: the attacker does not wait for answers its turn does not need
#
# Why the attacker may go on. A victim's answer to Militia (which cards to
# discard), to Bureaucrat (which Victory card to put on the deck) and to the
# Moat question (reveal or not) consumes no randomness and touches only that
# victim's hand, discard pile and top of deck; after a Witch it also decides
# whether one Curse leaves the Curse pile for that victim. Everything the
# attacker does next touches its own zones, the supply and the trash, so the
# answer and the attacker's later effects commute: doing them in either order
# leaves exactly the state the rulebook order leaves. The victims' answers
# are kept in ``st.owed`` (one per seat at most) and the attacker goes on.
#
# Which later effects depend on which owed answers, and so wait
# (``frame_waits``) until every owed answer is in:
#
# * a card that makes another seat draw (Council Room): the victim must
#   discard from the hand it had when attacked, before drawing;
# * any Attack while some other seat owes an answer: its Moat question reads
#   the victim's hand, Militia and Bureaucrat read it too, Spy and Thief
#   read the victim's deck, whose top an owed Bureaucrat answer may change
#   and which may need the discard pile an owed Militia answer fills;
# * the end of the game (the end-of-turn check when the game would end):
#   the scores count every card, Curses still owed included;
# * while the Curse pile's emptiness depends on owed Moat answers after a
#   Witch (``curses_undecided``: ``st.reserved`` >= the Curses left), only
#   what reads it: buying a Curse (refused and left out of the legal moves;
#   End turn is then no forced move while a Buy is left, since the Curse
#   buy may yet be legal); a gain that could be a Curse (Workshop, Feast,
#   Remodel: whether Curse is an option, and so the question and whether it
#   is asked at all, depends on the answers; it waits as an ``ask_gain``
#   frame; Mine gains only Treasures); and the end-of-turn check when the
#   Curse pile would be the third empty one (``game_would_end`` with
#   ``no_curses``). A Curse bought while more are left than reserved needs
#   no answer: one is left whatever the victims answer.
#
# What never waits: the attacker's own draws, shuffles, plays, buys and
# gains (other than the cases above), its clean-up and the next player's
# turn up to one of the effects above; a victim must answer before its own
# turn.
# Spy and Thief keep the rulebook order (the attacker's own questions are
# about what each victim reveals, so it must wait for the Moat answers), and
# so does a Witch when some Curses but fewer than it has victims are left
# (who gets the last Curses depends on every answer); with none left, its
# victims' answers change nothing and nothing waits for them.

#: Attacks whose victims answer while the attacker goes on.
DEFERRED_ATTACKS = ("Militia", "Bureaucrat", "Witch")


def owed_entry(st: DominionState, p: int) -> list[Any] | None:
    """The ``[Decision, resume]`` seat ``p`` owes as an attack's victim (version 3), or None."""
    for entry in st.owed:
        if entry[0].player == p:
            return entry
    return None


def curses_undecided(st: DominionState) -> bool:
    """True while owed Moat answers decide whether the Curse pile is empty (see above)."""
    return st.reserved > 0 and st.supply.get("Curse", 0) <= st.reserved


def game_would_end(st: DominionState, no_curses: bool = False) -> bool:
    """The end-of-turn check (§9) on the supply as it stands (``no_curses``: with the Curse pile empty)."""
    supply = st.supply
    empty = sum(1 for c, k in supply.items() if k == 0 or (no_curses and c == "Curse"))
    return supply["Province"] == 0 or empty >= 3


def curse_buy_waits(st: DominionState) -> bool:
    """Version 3: buying a Curse waits for owed Moat answers (whether one is left depends on them)."""
    return st.version >= 3 and curses_undecided(st)


def frame_waits(st: DominionState, frame: tuple[Any, ...]) -> bool:
    """Whether the work ``frame`` must wait for owed answers (the list above)."""
    if not st.owed:
        return False
    op = frame[0]
    if op == "play":
        return frame[2] in ATTACKS or frame[2] == "Council Room"
    if op == "ask_gain":
        return curses_undecided(st)
    if op == "end_turn":
        # The Curse pile may still empty (or not) with the owed Moat answers.
        return game_would_end(st) or (curses_undecided(st) and game_would_end(st, no_curses=True))
    return False


def paused(st: DominionState) -> bool:
    """Version 3: the current turn waits for owed answers (nothing for its player to do)."""
    if st.version < 3 or st.open:
        return False
    return bool(st.stack and frame_waits(st, st.stack[-1]))


def _owe(st: DominionState, d: Decision, resume: tuple[Any, ...]) -> None:
    """Ask victim ``d.player`` without making the attacker wait.

    Without hidden reactions a choice with a single legal answer is made at
    once (the notation's rule); with them it is asked like any other, so
    that being asked tells nothing about the hand (standing answers make
    it for players who want that).
    """
    if not st.ask_all and d.answer == "choose":
        only = _single_answer(d.options, d.min, d.max)
        if only is not None:
            _OPS[resume[0]](st, {d.player: only}, *resume[1:])
            return
    st.owed.append([d, resume])


def _attack_v3(st: DominionState, p: int, card: str) -> None:
    others = _others(st, p)
    curses = st.supply["Curse"] - st.reserved  # not promised to an earlier Witch's victims
    if card not in DEFERRED_ATTACKS or (card == "Witch" and 0 < curses < len(others)):
        _attack_strict(st, p, card)
        return
    # With no Curse left, a Witch's victims gain nothing whatever they answer.
    reserve = card == "Witch" and curses > 0
    # The attacker's own part first: it touches none of the victims' zones.
    if card == "Militia":
        st.coins += 2
    elif card == "Bureaucrat":
        _gain(st, p, "Silver", to="deck")
    else:
        _draw(st, p, 2)
    for o in others:
        if _asked_reaction(st, o):
            if reserve:
                st.reserved += 1  # enough Curses are left for every victim
            _owe(st, _reaction_question(st, o, card, by=p), ("react", p, card, o, reserve))
        else:
            _VICTIM[card](st, p, o)


def _op_react(st: DominionState, answers: dict[int, Any], p: int, card: str, o: int, reserved: bool) -> None:
    if reserved:
        st.reserved -= 1
    if answers[o] == "yes":
        if st.record:
            _ev(st, "reveal", o, {"cards": ["Moat"], "reaction": card})
        return
    _VICTIM[card](st, p, o)


def _victim_militia(st: DominionState, p: int, v: int) -> None:
    hand = st.hands[v]
    if len(hand) > 3:
        k = len(hand) - 3
        d = _choose(
            v, "discard", f"Discard {k} cards (down to 3).", list(hand), k, k, "Militia", out_of_turn=True, by=p
        )
        _owe(st, d, ("v_militia", v))


def _op_v_militia(st: DominionState, answers: dict[int, Any], v: int) -> None:
    _discard_from_hand(st, v, answers[v])


def _victim_bureaucrat(st: DominionState, p: int, v: int) -> None:
    vic = [c for c in st.hands[v] if c in VICTORIES]  # Curse is not a Victory card
    if vic:
        prompt = "Put a Victory card from your hand onto your deck."
    elif st.ask_all:
        prompt = "You have no Victory card: reveal your hand."
    else:
        if st.record:
            _ev(st, "reveal", v, {"cards": list(st.hands[v])})
        return
    k = 1 if vic else 0
    _owe(st, _choose(v, "topdeck", prompt, vic, k, k, "Bureaucrat", out_of_turn=True, by=p), ("v_bureaucrat", v))


def _op_v_bureaucrat(st: DominionState, answers: dict[int, Any], v: int) -> None:
    if answers[v]:
        card = answers[v][0]
        st.hands[v].remove(card)
        st.decks[v].append(card)
        if st.record:
            _ev(st, "topdeck", v, {"card": card})
    elif st.record:
        _ev(st, "reveal", v, {"cards": list(st.hands[v])})


def _victim_witch(st: DominionState, p: int, v: int) -> None:
    _gain(st, v, "Curse")


_VICTIM = {"Militia": _victim_militia, "Bureaucrat": _victim_bureaucrat, "Witch": _victim_witch}


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

# Every op takes (state, answers, *args) and returns nothing; the args are the stacked tuple's rest.
_OPS: dict[str, Callable[..., None]] = {
    "play": _op_play,
    "ask_gain": _op_ask_gain,
    "gain_chosen": _op_gain_chosen,
    "cellar": _op_cellar,
    "trash_chosen": _op_trash_chosen,
    "chancellor": _op_chancellor,
    "remodel": _op_remodel,
    "throne": _op_throne,
    "library": _op_library,
    "mine": _op_mine,
    "moneylender": _op_moneylender,
    "window": _op_window,
    "bureaucrat": _op_bureaucrat,
    "militia": _op_militia,
    "spy_reveal": _op_spy_reveal,
    "spy_answer": _op_spy_answer,
    "thief_victim": _op_thief_victim,
    "thief_trash": _op_thief_trash,
    "thief_gain": _op_thief_gain,
    "thief_take": _op_thief_take,
    "react": _op_react,
    "v_militia": _op_v_militia,
    "v_bureaucrat": _op_v_bureaucrat,
}


def _drain(st: DominionState) -> None:
    """Resolve stacked work until a decision is open or nothing is left."""
    stack = st.stack
    while stack and not st.open:
        if st.version >= 3 and frame_waits(st, stack[-1]):
            return  # version 3: this work waits for owed answers (see above)
        frame = stack.pop()
        _OPS[frame[0]](st, {}, *frame[1:])
