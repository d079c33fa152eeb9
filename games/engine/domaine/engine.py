"""The Domaine engine: setup, turns, the end, views; the ``ENGINE`` object.

Decision kinds (``pending``): ``"setup"`` (place a castle and its knight,
or a neutral castle: ``params["neutral"]``), ``"play"`` (play or sell a
card), ``"take"`` (take a card from the deck or the display). There is at
most one decision at a time: the player to move.

Event kinds (language-free; pages render them): ``place_castle``,
``place_neutral``, ``turn``, ``income``, ``sell``, ``play``, ``take``
(private when from the deck: others see only ``{"from": "deck"}``),
``scores``, ``game_over``.

Versions (see "Versions" in ``games.engine.core``): ``VERSIONS`` are the
rules this module plays, each a ``rules.Ruleset``; a state keeps the version
it was dealt under and every function here reads ``state.rules``, so a
version-1 game goes on by version-1 rules on any engine object.
``DomaineEngine(version)`` only chooses what ``new_game`` deals.
"""

from __future__ import annotations

from typing import Any

from games.engine import registry, undo
from games.engine.core import (
    Decision,
    Event,
    IllegalMove,
    InvalidOptions,
    Result,
    Rng,
    UnsupportedVersion,
    VersionedEngine,
    ranks_from_keys,
)
from games.engine.domaine import actions as A
from games.engine.domaine import notation, rules
from games.engine.domaine.board import (
    EDGE_NAME,
    NEDGES,
    NEIGHBOURS,
    NSQ,
    SQ_NAME,
    Board,
    colour_name,
    deal_terrain,
    parse_square,
    terrain_rows,
)
from games.engine.domaine.cards import CARDS, full_deck_by_letter
from games.engine.domaine.state import OVER, PLAY, SETUP, TAKE, PlayerState, State

#: The version new games are dealt under.
VERSION = rules.CURRENT_VERSION
#: Every version this code replays and plays, oldest first.
VERSIONS: tuple[int, ...] = tuple(sorted(rules.RULESETS))


# --- Building ------------------------------------------------------------------


def new_state(players: int, seed: int, version: int = VERSION) -> State:
    """Deal a new game: board and deck from ``seed``, 7 gold and 3 cards each.

    Rules: centre tile in the centre, outer tiles shuffled and turned; deck
    A on top to D at the bottom, each letter shuffled; seat 0 places first.
    The deal is the same in every version; ``version`` names the rules the
    game is then played by.

    Raises:
        InvalidOptions: player count outside 2-4 or a bad seed.
        UnsupportedVersion: ``version`` is not one of ``VERSIONS``.
    """
    if not isinstance(players, int) or not 2 <= players <= 4:
        raise InvalidOptions("Domaine is for 2 to 4 players.")
    if version not in rules.RULESETS or isinstance(version, bool):
        raise UnsupportedVersion("domaine", version, VERSIONS)
    rng = Rng(seed)
    terrain = deal_terrain(rng)
    by_letter = full_deck_by_letter()
    deck: list[str] = []
    for letter in sorted(by_letter):
        pile = by_letter[letter]
        rng.shuffle(pile)
        deck.extend(pile)
    ps = []
    for _ in range(players):
        ps.append(PlayerState(rules.START_GOLD, deck[: rules.HAND_SIZE]))
        del deck[: rules.HAND_SIZE]
    return State(
        n=players,
        board=Board(terrain),
        players=ps,
        deck=deck,
        display=[],
        alliances=[],
        turn_player=0,
        step=SETUP,
        rng=rng,
        seed=seed,
        target=rules.TARGET_SCORE[players],
        castles_per_player=rules.CASTLES_PER_PLAYER[players],
        last_own_placer=players - 1,
        version=version,
    )


# --- Setup flow ----------------------------------------------------------------


def castles_left(state: State, colour: int) -> int:
    """Castles ``colour`` has still to place."""
    total = rules.NEUTRAL_CASTLES if colour == rules.NEUTRAL else state.castles_per_player
    return total - state.board.castles_on_board(colour)


def setup_colour(state: State) -> int:
    """The colour the current placement is for: the placer's own, or neutral
    (only in a two-player game: with 3 or 4 players there is no neutral colour)."""
    if castles_left(state, state.turn_player) > 0 or state.n != 2:
        return state.turn_player
    return rules.NEUTRAL


def _after_placement(state: State, events: list[Event]) -> None:
    """Pass the placement on, or begin play (rule: rounds in seat order, then
    the neutral castles with two players, then play in reverse order)."""
    n = state.n
    p = state.turn_player
    for i in range(1, n + 1):
        q = (p + i) % n
        if castles_left(state, q) > 0:
            state.turn_player = q
            return
    if n == 2 and castles_left(state, rules.NEUTRAL) > 0:
        placed = rules.NEUTRAL_CASTLES - castles_left(state, rules.NEUTRAL)
        state.turn_player = rules.NEUTRAL_PLACERS[placed % len(rules.NEUTRAL_PLACERS)]
        return
    _start_turn(state, state.last_own_placer, events)


def _apply_setup(state: State, player: int, move: dict[str, Any], events: list[Event]) -> None:
    colour = setup_colour(state)
    act = move.get("act")
    board = state.board
    rs = state.rules
    gold = state.players[player].gold
    if colour == rules.NEUTRAL:
        if act != "place_neutral":
            raise IllegalMove("Place a neutral castle now (act place_neutral).", "wrong_act")
        if set(move) - {"act", "at"}:
            raise IllegalMove("A neutral castle comes without a knight.", "bad_part")
        s = parse_square(move.get("at"))
        A._refuse(A.setup_castle_refusal(board, rules.NEUTRAL, s, None, rs))
        board.set_castle(s, rules.NEUTRAL)
        events.append(Event("place_neutral", player, {"at": SQ_NAME[s]}))
    else:
        if act != "place_castle":
            raise IllegalMove("Place one of your castles and its knight now (act place_castle).", "wrong_act")
        if set(move) - {"act", "at", "knight"}:
            raise IllegalMove("A placement names only 'at' and 'knight'.", "bad_part")
        s = parse_square(move.get("at"))
        if "knight" not in move:
            raise IllegalMove("Place the castle's first knight in the same move.", "bad_part")
        k = parse_square(move.get("knight"))
        A._refuse(A.setup_castle_refusal(board, colour, s, gold, rs))
        A._refuse(A.setup_knight_refusal(board, s, k, gold, rs))
        paid = A.setup_surcharge(board, k, rs)
        board.set_castle(s, colour)
        board.set_knight(k, colour)
        state.players[player].gold -= paid
        if castles_left(state, colour) == 0 and all(castles_left(state, q) == 0 for q in range(state.n)):
            state.last_own_placer = player
        events.append(Event("place_castle", player, {"at": SQ_NAME[s], "knight": SQ_NAME[k], "paid": paid}))
    _after_placement(state, events)


# --- Turn flow ------------------------------------------------------------------


def _start_turn(state: State, p: int, events: list[Event]) -> None:
    """Begin seat ``p``'s turn: income (1 gold per mine kind in its domains)."""
    state.turn_player = p
    state.step = PLAY
    state.sold = None
    state.turns += 1
    d = state.board.derived()
    income = d.income(p)
    state.players[p].gold += income
    events.append(Event("turn", p, {"turn": state.turns}))
    if income:
        kinds = sorted(rules.MINE_NAMES[m] for m, v in d.mines[p].items() if v)
        events.append(Event("income", p, {"gold": income, "mines": kinds}))


def _end_turn(state: State, events: list[Event]) -> None:
    """End the turn: the game ends on a target score or when the cards have
    run out; otherwise the next seat in reverse order moves (rule), skipping
    empty hands once the deck is empty (house).

    From version 2 a target reached by a placement has ended the game at
    once (see ``_apply``), so here the target can only end a game whose
    position began at the target (a hand-made scenario)."""
    scores = state.board.derived().scores[: state.n]
    exhausted = not state.deck and not any(p.hand for p in state.players)
    target = any(s >= state.target for s in scores)
    if target and (rules.TARGET_END_BEFORE_GOLD_BONUS or not exhausted):
        _finish(state, "target", [0] * state.n, events)
        return
    if exhausted:
        _finish(state, "cards", gold_bonuses([p.gold for p in state.players]), events)
        return
    n = state.n
    for i in range(1, n + 1):
        q = (state.turn_player - i) % n
        if state.deck or state.players[q].hand or not rules.SKIP_EMPTY_HANDS:
            _start_turn(state, q, events)
            return


def gold_bonuses(golds: list[int]) -> list[int]:
    """Return the end-of-cards gold bonus per seat.

    Rule: the most gold scores 5 (all tied at the most); if exactly one had
    the most, the second most scores 3 (all tied there); no gold, no bonus.
    """
    out = [0] * len(golds)
    top = max(golds)
    if top <= 0:
        return out
    firsts = [i for i, g in enumerate(golds) if g == top]
    for i in firsts:
        out[i] = rules.GOLD_BONUS_FIRST
    if len(firsts) == 1:
        rest = [g for g in golds if g < top]
        second = max(rest) if rest else 0
        if second > 0:
            for i, g in enumerate(golds):
                if g == second:
                    out[i] = rules.GOLD_BONUS_SECOND
    return out


def _finish(state: State, why: str, bonuses: list[int], events: list[Event]) -> None:
    state.step = OVER
    state.end = why
    state.bonuses = bonuses
    res = _outcome(state)
    events.append(
        Event("game_over", None, {"end": why, "scores": res.scores, "bonuses": bonuses, "winners": res.winners})
    )


def result(state: State) -> Result | None:
    """Return the outcome once the game is over, else ``None``.

    Rule: highest score wins; on a tie more gold; on a further tie the
    tied players share the victory.
    """
    if state.step != OVER:
        return None
    return _outcome(state)


def _outcome(state: State) -> Result:
    """The outcome of a game that is over (``result``'s rule), scored from ``state`` as it stands."""
    scores = state.scores()
    golds = [p.gold for p in state.players]
    ranks = ranks_from_keys([(scores[i], golds[i]) for i in range(state.n)])
    winners = [i for i, r in enumerate(ranks) if r == 1]
    return Result(
        scores, ranks, winners, {"end": state.end, "gold": golds, "bonuses": list(state.bonuses), "turns": state.turns}
    )


# --- Moves -----------------------------------------------------------------------


def _must_be_turn(state: State, player: int) -> None:
    if state.step == OVER:
        raise IllegalMove("The game is over.", "game_over")
    if player != state.turn_player:
        raise IllegalMove(f"It is seat {state.turn_player}'s move, not seat {player}'s.", "not_your_turn")


def _apply(state: State, player: int, move: dict[str, Any]) -> list[Event]:
    """Apply a move in place; on IllegalMove, ``state`` is unchanged."""
    if not isinstance(move, dict):
        raise IllegalMove("A move is a JSON object.", "bad_move")
    _must_be_turn(state, player)
    events: list[Event] = []
    act = move.get("act")
    if state.step == SETUP:
        _apply_setup(state, player, move, events)
        return events
    if state.step == PLAY:
        p = state.players[player]
        before = state.board.derived().scores[: state.n]
        if act == "sell":
            if set(move) - {"act", "card"}:
                raise IllegalMove("A sale names only the card.", "bad_part")
            cid = move.get("card")
            if cid not in p.hand:
                raise IllegalMove(f"You have no {cid} in hand.", "not_in_hand")
            p.hand.remove(cid)
            p.gold += CARDS[cid].sale
            state.display.append(cid)
            state.sold = cid
            events.append(Event("sell", player, {"card": cid, "gold": CARDS[cid].sale}))
        elif act == "play":
            out = A.resolve_play(state, player, move)
            p.hand.remove(out.card.id)
            p.gold -= out.cost + out.extra
            state.board = out.board
            if out.alliance:
                state.alliances.append(out.alliance)
                state.alliances.sort()
            events.append(
                Event(
                    "play",
                    player,
                    {
                        "card": out.card.id,
                        "option": move.get("option", 0),
                        "action": out.action.kind,
                        "cost": out.cost,
                        "extra": out.extra,
                        **out.parts,
                    },
                )
            )
            after = state.board.derived().scores[: state.n]
            if after != before:
                events.append(Event("scores", None, {"scores": after}))
            if out.won:
                # Rule (version 2): the first to reach the target wins at once;
                # the play stops at that placement and no card is taken.
                _finish(state, "target", [0] * state.n, events)
                return events
        else:
            raise IllegalMove("Play or sell a card now (act play or sell).", "wrong_act")
        if state.deck:
            state.step = TAKE
        else:
            # Rule: once the deck is empty no card may be taken, from the deck or the display.
            _end_turn(state, events)
        return events
    if state.step == TAKE:
        if act != "take":
            raise IllegalMove("Take a card now, from the deck or the display (act take).", "wrong_act")
        if not state.deck:
            # Rule: once the deck is empty no card may be taken, from the deck or the display.
            # The engine never stops at "take" with an empty deck; a scenario's setup can.
            raise IllegalMove("The deck is empty: no card may be taken, from the deck or the display.", "deck_empty")
        p = state.players[player]
        if move.get("from") == "deck" and "card" not in move:
            if set(move) - {"act", "from"}:
                raise IllegalMove("Take from the deck names nothing else.", "bad_part")
            cid = state.deck.pop(0)
            p.hand.append(cid)
            events.append(
                Event("take", player, {"from": "deck", "card": cid}, private_to=player, redacted={"from": "deck"})
            )
        elif "card" in move and set(move) <= {"act", "card", "from"} and move.get("from", "display") == "display":
            cid = move["card"]
            available = state.display.count(cid) - (1 if cid == state.sold else 0)
            if available <= 0:
                if cid == state.sold:
                    raise IllegalMove(f"{cid} was sold this turn and may not be taken back now.", "just_sold")
                raise IllegalMove(f"There is no {cid} in the display.", "not_in_display")
            state.display.remove(cid)
            p.hand.append(cid)
            events.append(Event("take", player, {"from": "display", "card": cid}))
        else:
            raise IllegalMove("Take names either {'from': 'deck'} or a display card.", "bad_part")
        _end_turn(state, events)
        return events
    raise IllegalMove("The game is over.", "game_over")


def check(state: State, player: int, move: dict[str, Any]) -> None:
    """Raise IllegalMove if ``player`` may not make ``move`` now."""
    _apply(state.copy(), player, move)


def apply(state: State, player: int, move: dict[str, Any]) -> list[Event]:
    """Apply ``move`` for ``player``; atomic: an illegal move changes nothing.

    Every branch of ``_apply`` finishes its rule checks before its first
    change (a ``play`` is worked out on a copy of the board and committed
    whole), so no copy of the state is needed here; the property tests
    check that refused moves leave the state untouched.
    """
    return _apply(state, player, move)


# --- Questions ---------------------------------------------------------------------


def pending(state: State) -> list[Decision]:
    """Return the one open decision (the seat to move), or [] when over."""
    p = state.turn_player
    if state.step == OVER:
        return []
    if state.step == SETUP:
        colour = setup_colour(state)
        neutral = colour == rules.NEUTRAL
        gold = None if neutral else state.players[p].gold
        squares = A.setup_castle_squares(state.board, colour, gold, state.rules)
        return [
            Decision(
                p,
                "setup",
                "Place a neutral castle." if neutral else "Place a castle and its first knight.",
                options=[SQ_NAME[s] for s in squares],
                min=1,
                max=1,
                params={"neutral": neutral, "distance": A.setup_distance(state.board, colour, gold, state.rules)},
            )
        ]
    if state.step == PLAY:
        pl = state.players[p]
        playable = sorted({c for c in pl.hand if CARDS[c].cost <= pl.gold})
        return [
            Decision(
                p,
                "play",
                "Play or sell a card.",
                options=list(pl.hand),
                min=1,
                max=1,
                params={"gold": pl.gold, "playable": playable},
            )
        ]
    options = ["deck"] + sorted(
        {c for c in state.display if state.display.count(c) - (1 if c == state.sold else 0) > 0}
    )
    return [
        Decision(
            p,
            "take",
            "Take a card from the deck or the display.",
            options=options,
            min=1,
            max=1,
            params={"deck_size": len(state.deck), "sold": state.sold},
        )
    ]


def legal_moves(state: State, player: int) -> list[dict[str, Any]]:
    """Return the legal moves of ``player`` now.

    A full ``play`` can combine up to 3 borders out of some 200 edges, so
    plays are listed by their first part only: for every card and option,
    the empty play and each play with a single part (one border, one
    knight, one square, one desertion, one alliance). Build longer plays
    with ``targets``. Sells, takes and setup placements are listed whole.
    """
    if state.step == OVER or player != state.turn_player:
        return []
    board = state.board
    rs = state.rules
    if state.step == SETUP:
        colour = setup_colour(state)
        if colour == rules.NEUTRAL:
            return [{"act": "place_neutral", "at": SQ_NAME[s]} for s in A.setup_castle_squares(board, colour, None, rs)]
        gold = state.players[player].gold
        places = []
        for s in A.setup_castle_squares(board, colour, gold, rs):
            for k in sorted(NEIGHBOURS[s]):
                if A.setup_knight_refusal(board, s, k, gold, rs) is None:
                    places.append({"act": "place_castle", "at": SQ_NAME[s], "knight": SQ_NAME[k]})
        return places
    if state.step == TAKE:
        return [{"act": "take", "from": "deck"}] + [{"act": "take", "card": c} for c in pending(state)[0].options[1:]]
    pl = state.players[player]
    out: list[dict[str, Any]] = [{"act": "sell", "card": c} for c in sorted(set(pl.hand))]
    for cid in sorted(set(pl.hand)):
        card = CARDS[cid]
        if card.cost > pl.gold:
            continue
        for option, action in enumerate(card.actions):
            base: dict[str, Any] = {"act": "play", "card": cid, "option": option}
            out.append(dict(base))
            out.extend(_single_part_plays(state, player, base, action.kind))
    return out


def _single_part_plays(state: State, player: int, base: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    board = state.board
    gold_left = state.players[player].gold - CARDS[base["card"]].cost
    if kind == "borders":
        return [{**base, "borders": [EDGE_NAME[e]]} for e in A.legal_border_edges(board)]
    if kind == "knights":
        return [{**base, "knights": [SQ_NAME[s]]} for s in A.knight_squares(board, player, gold_left)]
    if kind == "expand":
        return [
            {**base, "domain": SQ_NAME[c], "squares": [SQ_NAME[s]]}
            for c in A.own_domains(board, player)
            for s in A.expand_squares(board, state.alliances, player, c)
        ]
    if kind == "desertion":
        return [
            {**base, "remove": SQ_NAME[r], "knight": SQ_NAME[k]}
            for r in A.desertion_removals(board, player, state.rules)
            for k in A.desertion_squares(board, player, r, gold_left, state.rules)
        ]
    if kind == "alliance":
        return [
            {**base, "domain": SQ_NAME[c], "with": SQ_NAME[w]}
            for c in A.own_domains(board, player)
            for w in A.alliance_partners(board, state.alliances, player, c)
        ]
    return []


def targets(state: State, player: int, partial: dict[str, Any]) -> dict[str, Any]:
    """Return what may come next in a partial move, for highlighting.

    Args:
        partial: a move under construction: ``{"act": "place_castle"}``,
            ``{"act": "place_castle", "at": "C3"}``, or a ``play`` with its
            card, option and the parts chosen so far.

    Returns:
        ``{"part": key, "choices": [...], "remaining": n}`` naming the move
        key to fill next and its legal values (squares, edges or castle
        squares), or ``{"part": None}`` when nothing more can be added.

    Raises:
        IllegalMove: it is not ``player``'s move, or the partial move already
            breaks a rule (the reason says which).
    """
    _must_be_turn(state, player)
    act = partial.get("act")
    if state.step == SETUP:
        colour = setup_colour(state)
        gold = None if colour == rules.NEUTRAL else state.players[player].gold
        if "at" not in partial:
            return {
                "part": "at",
                "remaining": 1,
                "choices": [SQ_NAME[s] for s in A.setup_castle_squares(state.board, colour, gold, state.rules)],
            }
        s = parse_square(partial["at"])
        A._refuse(A.setup_castle_refusal(state.board, colour, s, gold, state.rules))
        if colour == rules.NEUTRAL or "knight" in partial:
            return {"part": None}
        return {
            "part": "knight",
            "remaining": 1,
            "choices": [
                SQ_NAME[k]
                for k in sorted(NEIGHBOURS[s])
                if A.setup_knight_refusal(state.board, s, k, gold, state.rules) is None
            ],
        }
    if state.step == PLAY and act == "play":
        return A.next_choices(state, player, partial)
    if state.step == PLAY and act == "sell":
        return {"part": "card", "remaining": 1, "choices": sorted(set(state.players[player].hand))}
    if state.step == TAKE:
        return {"part": "card", "remaining": 1, "choices": pending(state)[0].options}
    raise IllegalMove("Nothing to build now.", "wrong_act")


# --- Views ------------------------------------------------------------------------


def public_position(state: State) -> dict[str, Any]:
    """Return the board and everything derived from it, in notation order."""
    board = state.board
    setup = state.step == SETUP
    d = board.derived()
    domains = (
        []
        if setup
        else [
            {
                "castle": SQ_NAME[c],
                "owner": colour_name(dom.owner),
                "squares": [SQ_NAME[s] for s in dom.squares],
                "knights": dom.knights,
            }
            for c, dom in sorted(d.domains.items())
        ]
    )
    zones = [] if setup else [[SQ_NAME[s] for s in z] for z in d.neutral_zones()]
    return {
        "board": terrain_rows(board.terrain),
        "castles": {SQ_NAME[s]: colour_name(board.castle[s]) for s in range(NSQ) if board.castle[s] >= 0},
        "knights": {SQ_NAME[s]: colour_name(board.knight[s]) for s in range(NSQ) if board.knight[s] >= 0},
        "borders": [EDGE_NAME[e] for e in range(NEDGES) if board.border[e]],
        "borders_left": rules.BORDER_MARKERS - board.borders_on_board,
        "domains": domains,
        "neutral_zones": zones,
        "alliances": [[SQ_NAME[a], SQ_NAME[b]] for a, b in sorted(state.alliances)],
    }


def view(state: State, viewer: int | None, reveal_all: bool = False) -> dict[str, Any]:
    """Return what ``viewer`` (a seat, or None for a spectator) may see.

    Hands are secret except the viewer's own; the deck's order is secret
    (its size is public); everything is visible once the game is over.
    ``reveal_all`` shows hands and the deck at any point (replays of finished
    games, moderators).
    """
    over = state.step == OVER
    show = over or reveal_all
    scores = state.scores()
    out = public_position(state)
    res = result(state)
    out.update(
        {
            "kind": "domaine",
            "version": state.version,
            "viewer": viewer,
            "players": [
                {
                    "seat": i,
                    "gold": p.gold,
                    "score": scores[i],
                    "hand_size": len(p.hand),
                    **({"hand": sorted(p.hand)} if show or viewer == i else {}),
                    "knights_left": rules.KNIGHTS_PER_COLOUR - state.board.knights_on_board(i),
                    "castles_left": castles_left(state, i),
                    "income": 0 if state.step == SETUP else state.board.derived().income(i),
                }
                for i, p in enumerate(state.players)
            ],
            "neutral": {"castles_left": castles_left(state, rules.NEUTRAL)} if state.n == 2 else None,
            "display": list(state.display),
            "deck_size": len(state.deck),
            "sold_this_turn": state.sold,
            "target": state.target,
            "turn": {"player": state.turn_player, "step": state.step, "number": state.turns},
            "pending": [_decision_for_viewer(dec, viewer, show) for dec in pending(state)],
            "game_over": over,
            "winners": res.winners if res else [],
            "bonuses": list(state.bonuses) if over else [],
        }
    )
    if show:
        out["deck"] = list(state.deck)
    return out


def _decision_for_viewer(dec: Decision, viewer: int | None, show: bool) -> dict[str, Any]:
    """Return ``dec`` as JSON-ready data for ``viewer``.

    Rule: a hand is secret. The ``play`` decision lists the mover's hand as
    its options and the cards it can afford, so for anyone else (and
    spectators) those are left out; the hand's size is public elsewhere.
    Other decisions (setup squares, the deck and the display) are public.
    """
    out = dec.to_dict()
    if dec.kind == "play" and not show and viewer != dec.player:
        out["options"] = []
        out["params"] = {k: v for k, v in out["params"].items() if k != "playable"}
    return out


class PlayerView:
    """What a bot may read: a copy of the state with secrets replaced.

    Other hands become ``"?"`` placeholders of the right size and the deck
    becomes placeholders too (its size is public, its order secret), so a
    bot can call every rules function on ``state`` without seeing anything
    its seat cannot see.
    """

    __slots__ = ("player", "state")

    def __init__(self, state: State, player: int) -> None:
        self.player = player
        st = state.copy()
        if st.step != OVER:
            st.deck = ["?"] * len(st.deck)
            for i, p in enumerate(st.players):
                if i != player:
                    p.hand = ["?"] * len(p.hand)
            # The seed deals the deck: a bot that knew it could rebuild the deck's order.
            st.seed = 0
        st.rng = Rng(0)
        self.state = st


# --- The engine object -------------------------------------------------------------


class DomaineEngine(VersionedEngine):
    """The Engine protocol for Domaine (see ``games.engine.core``).

    ``DomaineEngine(v)`` deals version-``v`` games in ``new_game``; every
    other method follows the version of the state it is given.

    Raises:
        UnsupportedVersion: ``version`` is not one of ``VERSIONS``.
    """

    kind = "domaine"
    versions = VERSIONS
    min_players = 2
    max_players = 4
    #: The acts that may answer a question outside a turn (``games.engine.undo``): none, Domaine asks none.
    answer_acts: frozenset[str] = frozenset()

    def __init__(self, version: int = VERSION) -> None:
        if version not in rules.RULESETS or isinstance(version, bool):
            raise UnsupportedVersion(self.kind, version, VERSIONS)
        self.version = version

    @property
    def bots(self) -> dict[str, Any]:
        """Bot name -> function ``(view, rng) -> move`` (``registry.bots_of``: the bots use this module)."""
        return registry.bots_of(self.kind)

    def normalize_options(self, options: dict[str, Any], players: int, seed: int) -> dict[str, Any]:
        """Validate options (Domaine has none yet) and the player count.

        Raises:
            InvalidOptions: an unknown option or 2-4 players not respected.
        """
        if not isinstance(players, int) or not self.min_players <= players <= self.max_players:
            raise InvalidOptions("Domaine is for 2 to 4 players.")
        options = dict(options or {})
        if options:
            raise InvalidOptions(f"Unknown Domaine option: {sorted(options)[0]}.")
        Rng(seed)  # raises InvalidOptions for a bad seed
        return {}

    def new_game(self, options: dict[str, Any], players: int, seed: int) -> State:
        """Return a new game dealt from ``seed`` under this engine's version (see ``new_state``)."""
        self.normalize_options(options, players, seed)
        return new_state(players, seed, self.version)

    def pending(self, state: State) -> list[Decision]:
        """Return the open decision (see module docstring for kinds)."""
        return pending(state)

    def legal_moves(self, state: State, player: int) -> list[dict[str, Any]]:
        """Return ``player``'s legal moves (plays by their first part; see ``legal_moves``)."""
        return legal_moves(state, player)

    def forced_move(self, state: State) -> tuple[int, dict[str, Any]] | None:
        """The take step's only legal move, when there is just one (see ``core.Engine``).

        Only the take step is looked at: a play has far too many forms to
        list, and whenever a card can be played there is a choice anyway.
        """
        if state.step != TAKE:
            return None
        moves = legal_moves(state, state.turn_player)
        return (state.turn_player, moves[0]) if len(moves) == 1 else None

    def canonical_move(self, move: Any) -> dict[str, Any]:
        """``move`` in its canonical form, the form the site stores (``notation.canonical_move``).

        Raises:
            IllegalMove: a part the act or action does not have, a missing one, or a value of the wrong type.
        """
        return notation.canonical_move(move)

    def check(self, state: State, player: int, move: dict[str, Any]) -> None:
        """Raise IllegalMove(reason, code) if ``move`` is not legal now."""
        check(state, player, move)

    def apply(self, state: State, player: int, move: dict[str, Any]) -> list[Event]:
        """Apply ``move`` atomically and return its events."""
        return apply(state, player, move)

    def targets(self, state: State, player: int, partial: dict[str, Any]) -> dict[str, Any]:
        """Return the legal next part of a partial move (see ``targets``)."""
        return targets(state, player, partial)

    def view(self, state: State, viewer: int | None, reveal_all: bool = False) -> dict[str, Any]:
        """Return the JSON-ready view for ``viewer`` (None = spectator); see :func:`view`."""
        return view(state, viewer, reveal_all)

    def player_view(self, state: State, player: int) -> PlayerView:
        """Return what ``player``'s bot may read."""
        return PlayerView(state, player)

    def result(self, state: State) -> Result | None:
        """Return the result once the game is over."""
        return result(state)

    def is_over(self, state: State) -> bool:
        """True once the game has ended."""
        return state.step == OVER

    def turn_player(self, state: State) -> int | None:
        """The seat whose turn it is past the set-up (else None): only they may take moves back."""
        return state.turn_player if state.step in (PLAY, TAKE) else None

    def undo_barrier(self, player: int, events: list[Event]) -> str | None:
        """Whether a move with these ``events`` may be taken back freely (``games.engine.undo``).

        A turn is a play (or a sale) and then a take, which ends it
        (``undo.TURN``), as does each set-up placement. So the one move a
        player can take back is the play or the sale, before the take: the
        board and the display are public, and a play reveals nothing. A
        card taken from the deck is hidden (``undo.REVEALED``), but it also
        ends the turn.
        """
        return undo.barrier_of(player, events, turn=_UNDO_TURN, open_kinds=_UNDO_OPEN, shared=frozenset())


_UNDO_TURN = frozenset({"turn", "game_over", "place_castle", "place_neutral"})
_UNDO_OPEN = frozenset({"play", "sell", "scores"})


#: Version -> engine object; ``ENGINE`` is the current one.
_ENGINES: dict[int, DomaineEngine] = {v: DomaineEngine(v) for v in VERSIONS}
DomaineEngine.by_version = _ENGINES
ENGINE = _ENGINES[VERSION]
