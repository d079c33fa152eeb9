"""Dominion rules (base set, first edition): turns, legality, views and the engine object.

Every rule cited as "§N" is a section of ``shared/rules/dominion.md``; the
move notation is ``shared/rules/dominion-moves.md``. How cards resolve
(effects, decisions, the work stack) is in ``effects``; the set-up in
``setup``. This module checks a move completely before changing anything,
so an illegal move leaves the state exactly as it was.

Versions (see "Versions" in ``games.engine.core``); a state keeps the
version it was dealt under and the rules below read ``st.version``:

* 1: the first release.
* 2: ``play_treasures`` with no Treasure in hand is refused, as
  ``legal_moves`` always said (version 1 accepted it and moved to the Buy
  phase; a stored log may hold such a move, so version-1 games keep that).
* 3: the attacker does not wait for its victims' answers (Moat, Militia,
  Bureaucrat, Witch's Curses) until a later effect depends on them: see
  "Version 3" in ``effects`` for which effects wait and why. The results
  are those of the rulebook order (``tests/engine/dominion/test_deferral.py``
  compares them on thousands of games), but more logs are legal (the
  attacker's moves may come before a victim's answer), so it is a new
  version. New games also take the option ``hidden_reactions`` (default
  on): every victim is asked the Moat question, and every Bureaucrat victim
  is asked, whatever the hand, so that whom the game waits on tells nothing
  about a hand (see ``docs/rules-notes.md``); a question whose only answer is
  known is then asked too. Standing answers (``standing``) answer them for
  the players who want that.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from games.engine import registry, undo
from games.engine.core import (
    Decision,
    Event,
    IllegalMove,
    InvalidOptions,
    Result,
    UnsupportedVersion,
    VersionedEngine,
    ranks_from_keys,
)
from games.engine.dominion.cards import ACTIONS, CARDS, COINS, COST, TREASURES
from games.engine.dominion.effects import (
    _OPS,
    _drain,
    _draw,
    _ev,
    _others,
    _put_in_play,
    _resolve,
    curse_buy_waits,
    owed_entry,
    paused,
)
from games.engine.dominion.notation import canonical_move
from games.engine.dominion.setup import check_players, new_state, resolve_kingdom, supply_sizes
from games.engine.dominion.standing import standing_answer
from games.engine.dominion.state import VERSION, VERSIONS, DominionState

__all__ = [
    "ENGINE",
    "VERSION",
    "VERSIONS",
    "DominionEngine",
    "PlayerView",
    "check_players",
    "choose_answers",
    "decision_moves",
    "new_state",
    "next_mover",
    "open_decision",
    "resolve_kingdom",
    "result",
    "score",
    "supply_sizes",
    "turn_moves",
    "view",
]


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
        # Two comprehensions and a C sum: quicker than one Python loop over the hand.
        played = [c for c in hand if c in TREASURES]
        hand[:] = [c for c in hand if c not in TREASURES]
        play.extend(played)
        st.coins += sum(map(COINS.__getitem__, played))
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
    # ``0 in`` first: it runs in C and is false on most turns (no pile empty yet).
    if supply["Province"] == 0 or (0 in supply.values() and list(supply.values()).count(0) >= 3):
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
    act = move.get("act") if isinstance(move, dict) else None
    if not isinstance(act, str):
        raise IllegalMove("A move is an object with an 'act'.", "malformed")
    # ``type(p) is int`` first: the usual seat number skips the two ``isinstance`` calls.
    if (type(p) is not int and (not isinstance(p, int) or isinstance(p, bool))) or not 0 <= p < st.n:
        raise IllegalMove("No such player in this game.", "no_such_player")
    if st.game_over:
        raise IllegalMove("The game is over.", "game_over")
    if st.owed and st.version >= 3:  # nothing owed (most moves): no seat to look up
        entry = owed_entry(st, p)
        if entry is not None:
            return "owed", (entry, _validate_answer(entry[0], act, move))
    if st.open:
        mine = next((d for d in st.open if d.player == p and p not in st.answers), None)
        if mine is None:
            waiting = ", ".join(_who(st, d.player) for d in _waiting_decisions(st))
            if any(d.player == p for d in st.open):
                raise IllegalMove(f"You have answered already; waiting for {waiting}.", "answered")
            raise IllegalMove(f"It is not your decision: waiting for {waiting}.", "not_your_decision")
        return "answer", (mine, _validate_answer(mine, act, move))
    if p != st.current:
        raise IllegalMove(f"It is not your turn: it is {_who(st, st.current)}'s turn.", "not_your_turn")
    if st.owed and paused(st):  # only owed answers pause a turn
        waiting = ", ".join(_who(st, d.player) for d in _waiting_decisions(st))
        raise IllegalMove(f"Your turn goes on once {waiting} has answered.", "waiting")
    if act == "end_turn":  # the commonest move; always legal in one's open turn
        return "end_turn", None
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
        # Version 2: one source of legality; ``turn_moves`` lists this only with a Treasure in hand.
        if st.version >= 2 and TREASURES.isdisjoint(st.hands[p]):
            # The site translates refusals by code; this one reads as "You have no <card> in hand."
            raise IllegalMove("You have no Treasure in hand.", "not_in_hand")
        return "play_treasures", None
    if act == "buy":
        if not isinstance(card, str):
            raise IllegalMove("Say which card to buy.", "malformed")
        if card not in st.supply:
            raise IllegalMove(f"{card} is not a pile in the Supply.", "not_in_supply")
        if st.buys < 1:
            raise IllegalMove("You have no Buy left.", "no_buys")
        if card == "Curse" and curse_buy_waits(st):
            waiting = ", ".join(_who(st, d.player) for d in _waiting_decisions(st))
            raise IllegalMove(
                f"Whether a Curse is left depends on answers still owed ({waiting}): buy one once they are in.",
                "curse_waits",
            )
        if st.supply[card] <= 0:
            raise IllegalMove(f"The {card} pile is empty.", "empty_pile")
        if COST[card] > st.coins:
            raise IllegalMove(f"{card} costs ${COST[card]}; you have ${st.coins}.", "too_expensive")
        return "buy", card
    if act == "end_actions":
        if st.phase != "action":
            raise IllegalMove("You are already in the Buy phase.", "wrong_phase")
        return "end_actions", None
    if act in ("choose", "gain", "yes", "no"):
        raise IllegalMove("Nothing is being asked: play a card, buy, or end your turn.", "no_decision")
    raise IllegalMove(f"Unknown move {act!r}.", "malformed")


def _validate_answer(d: Decision, act: str, move: dict[str, Any]) -> Any:
    if d.answer == "yes_no":
        if act not in ("yes", "no"):
            raise IllegalMove(f"Answer yes or no: {d.prompt}", "wrong_answer")
        if act not in d.options:  # version 3: a hand without Moat may only answer "no"
            raise IllegalMove("You have no Moat to reveal.", "not_an_option")
        return act
    if d.answer == "gain":
        if act != "gain":
            raise IllegalMove(f"Choose a card to gain: {d.prompt}", "wrong_answer")
        card = move.get("card")
        if not isinstance(card, str):
            raise IllegalMove("Say which card to gain.", "malformed")
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
        need = f"exactly {d.min}" if d.min == d.max else f"{d.min} to {d.max}"
        raise IllegalMove(f"Choose {need} card{'s' if d.max != 1 else ''}, not {len(cards)}: {d.prompt}", "wrong_count")
    have = Counter(d.options)
    for c, k in Counter(cards).items():
        if have[c] < k:
            raise IllegalMove(f"{c} is not among the cards you can choose.", "not_an_option")
    return list(cards)


def _waiting_decisions(st: DominionState) -> list[Decision]:
    """Open decisions not yet answered: the group in ``st.open``, then owed ones (version 3)."""
    return [d for d in st.open if d.player not in st.answers] + [e[0] for e in st.owed]


def _op_end_turn(st: DominionState, answers: dict[int, Any], p: int) -> None:
    _end_turn(st, p)


_OPS["end_turn"] = _op_end_turn


def _apply(st: DominionState, p: int, kind: str, payload: Any) -> None:
    # The kinds exclude each other; the turn's usual moves are tested first (most moves are these).
    if kind == "end_turn":
        if st.version >= 3 and (st.stack or st.owed):
            st.stack.append(("end_turn", p))  # the game's end waits for owed answers
        else:
            # Version 3 with nothing stacked or owed: ``_drain`` would pop the frame at once.
            _end_turn(st, p)
            return
    elif kind == "buy":
        st.phase = "buy"
        st.buys -= 1
        st.coins -= COST[payload]
        st.bought = True
        st.supply[payload] -= 1
        st.discards[p].append(payload)
        if st.record:
            _ev(st, "buy", p, {"card": payload})
    elif kind == "play_treasures":
        _play_treasures(st, p)
    elif kind == "play_action":
        st.actions -= 1
        pid = _put_in_play(st, p, payload)
        if st.version >= 3 and (st.stack or st.owed):
            st.stack.append(("play", p, payload, pid))  # may wait for owed answers
        else:
            # Version 3 with nothing stacked or owed: ``_drain`` would pop the frame at once.
            _resolve(st, p, payload, pid)
    elif kind == "owed":
        entry, answer = payload
        st.owed.remove(entry)
        resume = entry[1]
        _OPS[resume[0]](st, {p: answer}, *resume[1:])
        _drain(st)  # work that waited for this answer goes on
        return
    elif kind == "answer":
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
    elif kind == "play_treasure":
        _play_treasures(st, p, payload)
    elif kind == "end_actions":
        st.phase = "buy"
    if st.stack:  # the usual move leaves nothing to drain: skip the call
        _drain(st)


# ---------------------------------------------------------------------------
# Legal moves (one source for pages, bots and tests)


def choose_answers(options: list[str], lo: int, hi: int, cap: int = 4096) -> list[list[str]]:
    """Every distinct multiset of ``options`` with ``lo``..``hi`` cards, at most ``cap``.

    Built from the count of each card name, so a hand of 25 Coppers yields
    26 answers at once instead of walking 2**25 combinations.
    """
    counts = sorted(Counter(options).items())
    out: list[list[str]] = []

    def build(i: int, left: int, chosen: list[str]) -> bool:
        if left == 0:
            out.append(list(chosen))
            return len(out) >= cap
        if i == len(counts):
            return False
        name, have = counts[i]
        for take in range(min(have, left), -1, -1):
            chosen.extend([name] * take)
            full = build(i + 1, left - take, chosen)
            del chosen[len(chosen) - take :]
            if full:
                return True
        return False

    for k in range(lo, min(hi, len(options)) + 1):
        if build(0, k, []):
            break
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
        held = curse_buy_waits(st)  # version 3: a Curse may be bought once owed Moat answers are in
        for c, k in st.supply.items():
            if k > 0 and COST[c] <= st.coins and not (held and c == "Curse"):
                moves.append({"act": "buy", "card": c})
    if st.phase == "action":
        moves.append({"act": "end_actions"})
    moves.append({"act": "end_turn"})
    return moves


def decision_moves(d: Decision) -> list[dict[str, Any]]:
    """The legal answers to ``d`` as moves."""
    if d.answer == "yes_no":
        # Version 3: a hand without Moat, asked the Moat question, may only answer "no".
        return [{"act": a} for a in ("yes", "no") if a in d.options]
    if d.answer == "gain":
        return [{"act": "gain", "card": c} for c in d.options]
    return [{"act": "choose", "cards": cards} for cards in choose_answers(d.options, d.min, d.max)]


def open_decision(st: DominionState, p: int) -> Decision | None:
    """The decision seat ``p`` must answer now, if any (turn moves excluded)."""
    if not st.owed and not st.open:
        return None  # most of the time: nothing is asked of anyone
    entry = owed_entry(st, p)
    if entry is not None:
        owed: Decision = entry[0]
        return owed
    for d in st.open:
        if d.player == p and p not in st.answers:
            return d
    return None


# ---------------------------------------------------------------------------
# Views (hidden information, §7 "Hidden information")


def turn_open(st: DominionState) -> bool:
    """Whether the current player may make a turn move now (no decision open, nothing owed by
    that player, the turn not waiting for owed answers, the game not over)."""
    if st.game_over or st.open:
        return False
    # Only owed answers (version 3) pause a turn or hold its player.
    return not (st.owed and st.version >= 3 and (paused(st) or owed_entry(st, st.current) is not None))


def pending_decisions(st: DominionState) -> list[Decision]:
    """Every decision the game waits on now, the turn included (see ``DominionEngine.pending``)."""
    if st.game_over:
        return []
    out = [d for d in st.open if d.player not in st.answers]
    if turn_open(st):
        out.append(_turn_decision(st))
    out.extend(e[0] for e in st.owed)
    return out


def next_mover(st: DominionState) -> int:
    """The seat of ``pending_decisions(st)[0]`` (the open group's first unanswered seat, then the
    turn's player, then the first owed answer) without building the list: for bot games' loops.

    Raises:
        IndexError: nobody is to move (the game is over).
    """
    if not st.open and not st.owed and not st.game_over:
        return st.current  # the usual case, which ``turn_open`` would confirm
    for d in st.open:
        if d.player not in st.answers:
            return d.player
    if turn_open(st):
        return st.current
    owed: int = st.owed[0][0].player
    return owed


def _turn_decision(st: DominionState) -> Decision:
    p = st.current
    return Decision(p, "turn", f"Your turn ({st.phase} phase).", [], 0, 0, "", {"phase": st.phase}, False, "move")


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
    if st.version >= 3:
        waiting = list(dict.fromkeys(d.player for d in pending_decisions(st)))
    else:
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
        "supply": [
            {"card": c, "count": k, "cost": COST[c], "types": list(CARDS[c].types)} for c, k in st.supply.items()
        ],
        "trash": sorted(st.trash, key=_card_order),
        "turn": {
            "player": st.current,
            "phase": st.phase,
            "actions": st.actions,
            "buys": st.buys,
            "coins": st.coins,
            "number": st.turns[st.current] + (0 if over else 1),
            "bought": st.bought,
        },
        "seats": seats,
        "waiting_on": waiting,
        "decision": mine.to_dict() if mine else None,
        "legal": [],
        "game_over": over,
        "result": (
            {"scores": res.scores, "ranks": res.ranks, "winners": res.winners, "turns": list(st.turns)} if res else None
        ),
    }
    if mine is not None:
        out["legal"] = decision_moves(mine) if mine.answer != "choose" else []
    elif viewer == st.current and turn_open(st):
        out["legal"] = turn_moves(st)
    if st.version >= 3:
        out["paused"] = paused(st)  # the turn waits for owed answers
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
        st = self._st
        if not st.owed and not st.open:
            return None  # asked before every bot move: skip the call when nothing is asked
        return open_decision(st, self.me)

    @property
    def my_turn(self) -> bool:
        st = self._st
        return st.current == self.me and turn_open(st)

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

    # What a search bot needs to rebuild a position it could be in (``determinize``):
    # public zones and counts, and what this seat saw go into its own discard pile.

    @property
    def version(self) -> int:
        """The rules version the game is played by (public: stored with the game)."""
        return self._st.version

    @property
    def hidden_reactions(self) -> bool:
        """The game's ``hidden_reactions`` option (public: chosen when the game was made)."""
        return self._st.ask_all

    @property
    def current(self) -> int:
        """The seat whose turn it is."""
        return self._st.current

    @property
    def trash(self) -> list[str]:
        """The Trash (public)."""
        return list(self._st.trash)

    def turns(self) -> list[int]:
        """Turns each seat has completed (public)."""
        return list(self._st.turns)

    def counts(self, p: int) -> tuple[int, int, int]:
        """Seat ``p``'s hand, deck and discard pile sizes (public)."""
        st = self._st
        return len(st.hands[p]), len(st.decks[p]), len(st.discards[p])

    def discard_top(self, p: int) -> str | None:
        """The face-up top card of seat ``p``'s discard pile (public)."""
        disc = self._st.discards[p]
        return disc[-1] if disc else None

    def in_play(self, p: int) -> list[str]:
        """Seat ``p``'s cards in play (public)."""
        return list(self._st.plays[p])

    def set_aside(self, p: int) -> list[str]:
        """Seat ``p``'s cards set aside (public)."""
        return list(self._st.asides[p])

    def my_discard(self) -> Counter[str]:
        """The cards of this seat's own discard pile, as counts (never their order).

        A player can know this by memory: every card that reaches their own
        discard pile was in their hand or in play, was gained or bought
        (public), or was revealed; a deck put there whole (Chancellor) was a
        multiset they knew.
        """
        return Counter(self._st.discards[self.me])


# ---------------------------------------------------------------------------
# The engine object


class DominionEngine(VersionedEngine):
    """Dominion behind the shared ``games.engine.core.Engine`` interface.

    Options: ``{"kingdom": [10 names] | "<recommended set>" | "random"}``; from version 3
    also ``"hidden_reactions": true | false`` (default true; see the module docstring).
    """

    kind = "dominion"
    versions = VERSIONS
    min_players = 2
    max_players = 4
    #: The acts that may answer a question (``games.engine.undo``): a turn move (play, buy, ...) never does.
    answer_acts = frozenset({"yes", "no", "choose", "gain"})

    def __init__(self, version: int = VERSION) -> None:
        """Make the engine whose ``new_game`` deals version-``version`` games.

        Raises:
            UnsupportedVersion: not one of ``VERSIONS``.
        """
        if version not in VERSIONS or isinstance(version, bool):
            raise UnsupportedVersion(self.kind, version, VERSIONS)
        self.version = version

    @property
    def bots(self) -> dict[str, Any]:
        """Bot name -> function ``(view, rng) -> move`` (``registry.bots_of``: the bots use this module)."""
        return registry.bots_of(self.kind)

    def normalize_options(self, options: dict[str, Any], players: int, seed: int) -> dict[str, Any]:
        """Return options with the kingdom made concrete (10 names); raise ``InvalidOptions``."""
        if not isinstance(options, dict):
            raise InvalidOptions("Options must be an object.")
        check_players(players)
        out = dict(options)
        out["kingdom"] = resolve_kingdom(options.get("kingdom", "random"), seed)
        if "hidden_reactions" in out and not isinstance(out["hidden_reactions"], bool):
            raise InvalidOptions("hidden_reactions must be true or false.")
        return out

    def new_game(self, options: dict[str, Any], players: int, seed: int) -> DominionState:
        """Return the starting state; raise ``InvalidOptions`` for options outside the rules."""
        opts = self.normalize_options(options, players, seed)
        st = new_state(players, opts["kingdom"], seed, self.version)
        if self.version >= 3:
            st.ask_all = bool(opts.get("hidden_reactions", True))
        return st

    def pending(self, st: DominionState) -> list[Decision]:
        """Open decisions, or a single ``turn`` decision for the current player."""
        if st.game_over:
            return []
        if st.version >= 3:
            return pending_decisions(st)
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
        if player != st.current or not turn_open(st):
            return []
        return turn_moves(st)

    def forced_move(self, st: DominionState) -> tuple[int, dict[str, Any]] | None:
        """The one legal move of the only player to act, if there is just one (see ``core.Engine``).

        In practice End turn once a card is bought and no Buy is left: with a
        card bought no Treasure may be played, so nothing else is legal.
        Decisions with a single answer never get here (the engine resolves
        them without asking); yes/no questions always have two.
        """
        if st.version >= 3:
            # Only the turn's own End turn: an owed answer is never made for a
            # player (a "no" with no Moat must look like any other answer).
            if not turn_open(st):
                return None
            if st.buys > 0 and curse_buy_waits(st):
                return None  # a Curse buy may yet be legal: End turn is not the only move
            moves = turn_moves(st)
            return (st.current, moves[0]) if len(moves) == 1 else None
        pend = self.pending(st)
        if len(pend) != 1:
            return None
        moves = self.legal_moves(st, pend[0].player)
        return (pend[0].player, moves[0]) if len(moves) == 1 else None

    def standing_move(self, st: DominionState, player: int, settings: Any) -> dict[str, Any] | None:
        """The move ``player``'s standing answers make for its open decision, or None (ask the player).

        See ``standing`` for the settings and their rules; ``settings`` may be
        any JSON (unknown or bad entries take the defaults).
        """
        d = open_decision(st, player)
        if d is None or st.game_over:
            return None
        return standing_answer(player, d, settings, st.actions)

    def move_basis(self, st: DominionState, player: int, move: Any) -> dict[str, Any]:
        """What ``player``'s ``move`` rests on, as JSON data (see ``core.move_basis``): the site applies a move
        made on an older page when this is the same then and now (``games.crossing``).

        The seat's open decisions; its own hand, cards in play and set aside;
        in its own turn, the turn's phase, actions, buys, coins, whether it
        bought and whether it waits for answers, and how many Supply piles are
        empty (the three-pile end); for a move naming a Supply card (a buy, a
        gain), that pile's count. Not the rest of the Supply, the others'
        piles or the log: a victim's answer changes those (Witch's Curse),
        and nothing a player does in their turn depends on them otherwise.
        """
        decisions = [d.to_dict() for d in self.pending(st) if d.player == player]
        basis: dict[str, Any] = {
            "decisions": decisions,
            "hand": sorted(st.hands[player]),
            "play": list(st.plays[player]),
            "set_aside": list(st.asides[player]),
        }
        if any(d["kind"] == "turn" for d in decisions):
            basis["turn"] = [st.phase, st.actions, st.buys, st.coins, st.bought, paused(st)]
            basis["empty_piles"] = sum(1 for k in st.supply.values() if k == 0)
        card = move.get("card") if isinstance(move, dict) else None
        if isinstance(card, str) and card in st.supply:
            basis["pile"] = [card, st.supply[card]]
        return basis

    def canonical_move(self, move: Any) -> dict[str, Any]:
        """``move`` in its canonical form, the form the site stores (``notation.canonical_move``).

        Raises:
            IllegalMove: a part the act does not have, a missing one, or a value of the wrong type.
        """
        return canonical_move(move)

    def check(self, st: DominionState, player: int, move: dict[str, Any]) -> None:
        """Raise ``IllegalMove`` with the reason if ``move`` is not legal now; change nothing."""
        _validate(st, player, move)

    def apply(self, st: DominionState, player: int, move: dict[str, Any]) -> list[Event]:
        """Apply a legal move and return its events; an illegal one raises and changes nothing."""
        kind, payload = _validate(st, player, move)
        if not st.record:
            # Every event is built under ``st.record``, so none can come: no lists to swap (simulations).
            if st.events:
                st.events = []
            _apply(st, player, kind, payload)
            st.moves += 1
            return []
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

    def turn_player(self, st: DominionState) -> int | None:
        """The seat whose turn it is (None once the game is over): only they may take moves back."""
        return None if st.game_over else st.current

    def undo_barrier(self, player: int, events: list[Event]) -> str | None:
        """Whether a move with these ``events`` may be taken back freely (``games.engine.undo``).

        Clean-up ends the turn (``undo.TURN``). Free to take back: playing
        cards from one's hand, buying, gaining from the Supply or the Trash
        (public piles), trashing and discarding from one's hand, and any
        player gaining from the Supply (Witch's Curse). Anything else shows
        what was hidden (``undo.REVEALED``): a draw, a shuffle, a reveal, a
        card set aside from the deck, a deck put into the discard pile, or
        cards of another player's hand.
        """
        return undo.barrier_of(player, events, turn=_UNDO_TURN, open_kinds=_UNDO_OPEN, shared=_UNDO_SHARED)


_UNDO_TURN = frozenset({"end_turn", "start_turn", "game_over"})
_UNDO_OPEN = frozenset({"play", "buy", "gain", "trash", "discard"})
_UNDO_SHARED = frozenset({"gain"})


#: Version -> engine object; ``ENGINE`` is the current one.
_ENGINES: dict[int, DominionEngine] = {v: DominionEngine(v) for v in VERSIONS}
DominionEngine.by_version = _ENGINES
ENGINE = _ENGINES[VERSION]
