"""The rules of each action, on a board: borders, knights, expand, desertion,
alliance, and setup placement.

Each rule has a *refusal* function returning ``None`` when the step is legal
or ``(reason, code)`` naming the rule it breaks, and an effect that changes
a board. ``resolve_play`` runs a whole ``play`` move on a copy of the board,
so the caller commits it only when every part is legal (a play is atomic).
The same refusal functions list the legal next parts of a partial play
(``next_choices``), so highlighting and checking can never disagree.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import reduce
from itertools import compress
from operator import or_
from typing import Any

from games.engine.core import IllegalMove
from games.engine.domaine import rules
from games.engine.domaine.board import (
    ADJ,
    EDGE_NAME,
    EDGES,
    NEIGHBOURS,
    NSQ,
    SQ_NAME,
    Board,
    Derived,
    Domain,
    colour_name,
    parse_edge,
    parse_square,
)
from games.engine.domaine.cards import (
    ACTION_KEYS,
    ALLIANCE,
    BORDERS,
    CARDS,
    DESERTION,
    EXPAND,
    KNIGHTS,
    Action,
    Card,
)
from games.engine.domaine.state import State

Refusal = tuple[str, str] | None

_PIECE_NAMES = ("castle", "knight")


def _who(colour: int) -> str:
    return "the neutral colour" if colour == rules.NEUTRAL else f"seat {colour}"


# --- Borders -------------------------------------------------------------------


def border_refusal(board: Board, e: int) -> Refusal:
    """Why a border may not go on edge ``e`` now, or ``None``.

    Rules: the edge has no border yet; a marker is left in the supply; the
    edge is not inside a domain (both squares in the same domain); the two
    squares do not both hold pieces (castle or knight) of the same colour.
    """
    name = EDGE_NAME[e]
    if board.border[e]:
        return f"{name} already has a border.", "border_taken"
    if board.borders_on_board >= rules.BORDER_MARKERS:
        return f"All {rules.BORDER_MARKERS} border markers are on the board.", "no_markers"
    a, b = EDGES[e]
    d = board.derived()
    c = d.domain_at[a]
    if c >= 0:
        # No border between a and b, so they share an area: the edge lies inside that domain.
        return f"{name} lies inside the domain of the castle on {SQ_NAME[c]}.", "border_in_domain"
    ca, ka = board.castle[a], board.knight[a]
    cb, kb = board.castle[b], board.knight[b]
    for pa, colour_a in enumerate((ca, ka)):
        if colour_a < 0:
            continue
        for pb, colour_b in enumerate((cb, kb)):
            if colour_a == colour_b:
                return (
                    f"{name} lies between two pieces of the same colour ({_PIECE_NAMES[pa]} on "
                    f"{SQ_NAME[a]}, {_PIECE_NAMES[pb]} on {SQ_NAME[b]}, both {_who(colour_a)}).",
                    "border_same_colour",
                )
    return None


def legal_border_edges(board: Board) -> list[int]:
    """Return every edge a border may go on now (any player: the border rule
    does not depend on who places it)."""
    border = board.border
    if board.borders_on_board >= rules.BORDER_MARKERS:
        return []
    d = board.derived()
    domain_at = d.domain_at
    castle = board.castle
    knight = board.knight
    out = []
    for e, (a, b) in enumerate(EDGES):
        if border[e] or domain_at[a] >= 0:
            continue
        ca, ka, cb, kb = castle[a], knight[a], castle[b], knight[b]
        # Same colour on both squares (castle or knight on either side).
        if (ca >= 0 and ca in (cb, kb)) or (ka >= 0 and ka in (cb, kb)):
            continue
        out.append(e)
    return out


#: Per square, its edges as an int bit mask (bit e for edge e).
SQ_EDGE_MASK: list[int] = [sum(1 << e for _, e in ADJ[s]) for s in range(NSQ)]
#: Every edge of the board, as a bit mask.
ALL_EDGES_MASK = (1 << len(EDGES)) - 1
#: Bytes 0 and 1 to the digits "0" and "1": a list of flags read as a binary number (see ``edge_mask``).
BIT_DIGITS = bytes.maketrans(b"\x00\x01", b"01")


def edge_mask(border: bytearray) -> int:
    """The bordered edges as an int bit mask (bit e set when edge e has a marker).

    ``border`` holds 0 or 1 per edge; reversed and read as binary digits it is
    the mask, converted in C rather than bit by bit."""
    return int(bytes(border[::-1]).translate(BIT_DIGITS), 2)


def legal_border_mask(board: Board) -> int:
    """``legal_border_edges`` as an int bit mask (bit e set when a border may go on edge e).

    The same rule, worked out from masks: the edges the pieces and domains
    forbid do not depend on the borders once the areas are known, so they
    are found once per ``Derived`` (its ``cache``); then each call only
    removes the bordered edges. An edge without a border touching a domain
    square lies inside that domain (its two squares share the area).
    """
    if board.borders_on_board >= rules.BORDER_MARKERS:
        return 0
    d = board.derived()
    forbidden = d.cache.get("no_border")
    if forbidden is None:
        # The edges of the squares in a domain (domain_at >= 0), selected and joined in C.
        forbidden = reduce(or_, compress(SQ_EDGE_MASK, map((-1).__lt__, d.domain_at)), 0)
        castle, knight = board.castle, board.knight
        for a in sorted({*board.castle_squares(), *(s for s, k in enumerate(knight) if k >= 0)}):
            ca, ka = castle[a], knight[a]
            for b, e in ADJ[a]:
                if b > a:
                    cb, kb = castle[b], knight[b]
                    if (ca >= 0 and ca in (cb, kb)) or (ka >= 0 and ka in (cb, kb)):
                        forbidden |= 1 << e
        d.cache["no_border"] = forbidden
    return ALL_EDGES_MASK & ~edge_mask(board.border) & ~forbidden


# --- Knights -------------------------------------------------------------------


def knight_refusal(board: Board, player: int, s: int, gold_left: int | None = None) -> Refusal:
    """Why a knight of ``player`` may not go on square ``s`` now, or ``None``.

    Rules: a free meadow, or a free forest for 1 more gold (checked only when
    ``gold_left`` is given); orthogonally next to a castle or knight of the
    player with no border between the two; at most 15 knights per colour.
    """
    name = SQ_NAME[s]
    if board.castle[s] >= 0:
        return f"{name} is not free: a castle stands on it.", "square_taken"
    if board.knight[s] >= 0:
        return f"{name} is not free: a knight stands on it.", "square_taken"
    t = board.terrain[s]
    if t not in rules.KNIGHT_TERRAIN:
        what = {"V": "a village", "R": "the royal city"}.get(t, "a mine")
        return f"A knight may not stand on {what} ({name}).", "knight_terrain"
    if not board.linked_to_own_piece(s, player):
        return (
            f"{name} is not next to a castle or knight of yours without a border between them.",
            "knight_not_linked",
        )
    if board.knights_on_board(player) >= rules.KNIGHTS_PER_COLOUR:
        return f"All {rules.KNIGHTS_PER_COLOUR} of your knights are on the board.", "no_knights"
    if gold_left is not None and t == rules.FOREST and gold_left < rules.FOREST_KNIGHT_SURCHARGE:
        return f"A knight on the forest {name} costs 1 more gold, which you do not have.", "no_gold"
    return None


def knight_squares(board: Board, player: int, gold_left: int | None = None) -> list[int]:
    """Return every square where a knight of ``player`` may go now (the
    free meadows and forests linked to one of the player's pieces)."""
    if board.knights_on_board(player) >= rules.KNIGHTS_PER_COLOUR:
        return []
    castle, knight, terrain, border = board.castle, board.knight, board.terrain, board.border
    cand = set()
    # The player's pieces: its castles among the dozen castle squares, then its knights.
    for s in [s for s in board.castle_squares() if castle[s] == player] + [
        s for s, k in enumerate(knight) if k == player
    ]:
        for t, e in ADJ[s]:
            if not border[e]:
                cand.add(t)
    out = []
    forest_ok = gold_left is None or gold_left >= rules.FOREST_KNIGHT_SURCHARGE
    for s in sorted(cand):
        if castle[s] < 0 and knight[s] < 0:
            kind = terrain[s]
            if kind in rules.KNIGHT_TERRAIN and (kind != rules.FOREST or forest_ok):
                out.append(s)
    return out


def surcharge(board: Board, s: int) -> int:
    """Gold a knight on ``s`` costs on top of the card (forest: 1)."""
    return rules.FOREST_KNIGHT_SURCHARGE if board.terrain[s] == rules.FOREST else 0


# --- Expand --------------------------------------------------------------------


def expand_refusal(board: Board, state_alliances: list[tuple[int, int]], player: int, castle: int, s: int) -> Refusal:
    """Why the domain of ``castle`` may not take square ``s`` now, or ``None``.

    Rules: ``s`` is next to the domain as it stands; it holds no castle; it
    is not in one of the player's own domains; from another colour's domain
    only when the expanding domain has strictly more knights, the two are
    not allied, and (house) ``s`` holds no knight of that colour; open land
    and neutral zones always; enough border markers for the moved borders.
    """
    d = board.derived()
    dom = d.domains.get(castle)
    if dom is None or dom.owner != player:
        return f"{SQ_NAME[castle]} is not the castle of one of your domains.", "not_your_domain"
    return _expand_refusal(board, d, dom, state_alliances, player, castle, s)


def _expand_refusal(
    board: Board, d: Derived, dom: Domain, state_alliances: list[tuple[int, int]], player: int, castle: int, s: int
) -> Refusal:
    """``expand_refusal`` once the expanding domain ``dom`` (of ``castle``, the player's) is looked up."""
    name = SQ_NAME[s]
    label = d.label
    if label[s] == dom.area:
        return f"{name} already belongs to the domain of the castle on {SQ_NAME[castle]}.", "already_in_domain"
    if dom.area not in map(label.__getitem__, NEIGHBOURS[s]):
        return f"{name} is not next to the domain of the castle on {SQ_NAME[castle]}.", "not_adjacent"
    if board.castle[s] >= 0:
        return f"{name} holds a castle and cannot be taken.", "square_has_castle"
    other = d.domain_at[s]
    if other >= 0:
        od = d.domains[other]
        if od.owner == player:
            return f"{name} belongs to your other domain (castle on {SQ_NAME[other]}).", "own_domain"
        pair = (castle, other) if castle < other else (other, castle)
        if pair in state_alliances:
            return (
                f"The domains of the castles on {SQ_NAME[pair[0]]} and {SQ_NAME[pair[1]]} are allied: "
                f"neither may expand into the other.",
                "allied",
            )
        if rules.EXPAND_BLOCKED_BY_DEFENDING_KNIGHT and board.knight[s] == od.owner:
            return f"{name} holds a knight of the domain's owner ({_who(od.owner)}).", "defended_square"
        if dom.knights <= od.knights:
            return (
                f"{name} lies in the domain of the castle on {SQ_NAME[other]}, which has {od.knights} "
                f"knight(s); the domain of the castle on {SQ_NAME[castle]} has {dom.knights} and needs "
                f"more.",
                "not_enough_knights",
            )
    if board.borders_on_board + 2 <= rules.BORDER_MARKERS:
        # At least one border goes (s is next to the domain across one) and at most three come:
        # the supply cannot run short.
        return None
    removed, added = _moved_borders(board, d, dom, s)
    if board.borders_on_board - len(removed) + len(added) > rules.BORDER_MARKERS:
        free = rules.BORDER_MARKERS - board.borders_on_board + len(removed)
        return (f"Taking {name} needs {len(added)} border markers; the supply holds {free}.", "no_markers")
    return None


def _moved_borders(board: Board, d: Derived, dom: Domain, s: int) -> tuple[list[int], list[int]]:
    """Borders that move when ``s`` joins ``dom``: (removed, added).

    Rule: every border between the new square and the domain goes back to
    the supply; a border is added on each other side that has none (the
    rim needs none).
    """
    removed, added = [], []
    for t, e in ADJ[s]:
        if d.label[t] == dom.area:
            if board.border[e]:
                removed.append(e)
        elif not board.border[e]:
            added.append(e)
    return removed, added


def take_square(board: Board, castle: int, s: int) -> None:
    """Add square ``s`` to the domain of ``castle`` (already checked legal)."""
    d = board.derived()
    removed, added = _moved_borders(board, d, d.domains[castle], s)
    board.move_square(s, removed, added)


def expand_squares(board: Board, alliances: list[tuple[int, int]], player: int, castle: int) -> list[int]:
    """Return every square the domain of ``castle`` may take next."""
    d = board.derived()
    dom = d.domains.get(castle)
    if dom is None or dom.owner != player:
        return []
    label, area = d.label, dom.area
    cand = {t for s in dom.squares for t in NEIGHBOURS[s] if label[t] != area}
    return sorted(s for s in cand if _expand_refusal(board, d, dom, alliances, player, castle, s) is None)


def own_domains(board: Board, player: int) -> list[int]:
    """Return the castle squares of ``player``'s domains, sorted."""
    return sorted(c for c, dom in board.derived().domains.items() if dom.owner == player)


def domains_share_edge(d: Derived, c1: int, c2: int) -> bool:
    """True if the domains of castles c1 and c2 touch along at least one edge.

    Kept per ``Derived`` (``cache``): the answer follows from the domains
    alone, and desertion asks it for every knight on the board."""
    memo: dict[tuple[int, int], bool] = d.cache.setdefault("share", {})
    got = memo.get((c1, c2))
    if got is None:
        label = d.label
        a2 = d.domains[c2].area
        got = memo[c1, c2] = any(label[t] == a2 for s in d.domains[c1].squares for t in NEIGHBOURS[s])
    return got


# --- Desertion -----------------------------------------------------------------


def desertion_remove_refusal(board: Board, player: int, r: int, rs: rules.Ruleset) -> Refusal:
    """Why the knight on ``r`` may not be made to desert, or ``None``.

    Rules: a knight of another player (not the neutral colour) standing in a
    domain of its owner, that domain sharing an edge with a domain of the
    player (version 1: one which already holds one of the player's knights;
    from version 2 any, ``rs.desertion_needs_own_knight``).
    """
    name = SQ_NAME[r]
    kc = board.knight[r]
    if kc < 0:
        return f"No knight stands on {name}.", "no_knight"
    if kc == player:
        return f"The knight on {name} is yours.", "own_knight"
    d = board.derived()
    oc = d.domain_at[r]
    if oc < 0 or d.domains[oc].owner != kc:
        return f"The knight on {name} does not stand in a domain of its owner.", "knight_not_in_domain"
    if not _receiving_domains(d, player, oc, rs):
        if rs.desertion_needs_own_knight:
            return (
                f"The domain of the castle on {SQ_NAME[oc]} shares no edge with a domain of yours that "
                f"holds one of your knights.",
                "no_receiving_domain",
            )
        # Worded apart from version 1's sentence: the site's translation of that one names
        # version 1's condition, so readers of other languages get the general refusal for now.
        return (
            f"No domain of yours shares an edge with the domain of the castle on {SQ_NAME[oc]}.",
            "no_receiving_domain",
        )
    if board.knights_on_board(player) >= rules.KNIGHTS_PER_COLOUR:
        return f"All {rules.KNIGHTS_PER_COLOUR} of your knights are on the board.", "no_knights"
    return None


def _receiving_domains(d: Derived, player: int, other_castle: int, rs: rules.Ruleset) -> list[int]:
    """The player's domains that may receive the new knight of a desertion
    from the domain of ``other_castle`` (sharing an edge with it; version 1:
    holding one of the player's knights already)."""
    least = 1 if rs.desertion_needs_own_knight else 0
    return [
        c
        for c, dom in d.domains.items()
        if dom.owner == player and dom.knights >= least and domains_share_edge(d, c, other_castle)
    ]


def desertion_knight_refusal(
    board: Board, player: int, r: int, k: int, gold_left: int | None, rs: rules.Ruleset
) -> Refusal:
    """Why, after the knight on ``r`` deserted, the player's new knight may not
    go on ``k``, or ``None``. ``board`` is the board *before* the removal.

    Rules: ``k`` is in a domain of the player that shares an edge with the
    deserter's domain (version 1: and already holds one of the player's
    knights); the new knight follows the knight rules (a forest costs 1 more
    gold).
    """
    d = board.derived()
    oc = d.domain_at[r]
    rc = d.domain_at[k]
    if rc < 0 or d.domains[rc].owner != player:
        return f"{SQ_NAME[k]} is not in one of your domains.", "not_your_domain"
    if rs.desertion_needs_own_knight and d.domains[rc].knights < 1:
        return (f"The domain of the castle on {SQ_NAME[rc]} holds none of your knights yet.", "no_knight_in_domain")
    if not domains_share_edge(d, rc, oc):
        return (
            f"The domain of the castle on {SQ_NAME[rc]} shares no edge with the domain of the castle on {SQ_NAME[oc]}.",
            "no_shared_edge",
        )
    b2 = board.copy()
    b2.set_knight(r, -1)
    return knight_refusal(b2, player, k, gold_left)


# --- Alliance ------------------------------------------------------------------


def alliance_refusal(board: Board, alliances: list[tuple[int, int]], player: int, c1: int, c2: int) -> Refusal:
    """Why the domains of castles c1 (the player's) and c2 may not ally, or None.

    Rules: c1 names a domain of the player, c2 a domain of another player
    (house: not the neutral colour); the two share at least one edge; they
    are not allied already.
    """
    d = board.derived()
    dom = d.domains.get(c1)
    if dom is None or dom.owner != player:
        return f"{SQ_NAME[c1]} is not the castle of one of your domains.", "not_your_domain"
    other = d.domains.get(c2)
    if other is None:
        return f"{SQ_NAME[c2]} is not the castle of a domain.", "not_a_domain"
    if other.owner == player:
        return f"The domain of the castle on {SQ_NAME[c2]} is yours.", "own_domain"
    if other.owner == rules.NEUTRAL and not rules.NEUTRAL_CAN_ALLY:
        return "The neutral colour makes no alliances.", "neutral"
    if not domains_share_edge(d, c1, c2):
        return (f"The domains of the castles on {SQ_NAME[c1]} and {SQ_NAME[c2]} share no border.", "no_shared_edge")
    pair = (c1, c2) if c1 < c2 else (c2, c1)
    # The rules are silent on allying twice; it would change nothing, so it is refused
    # rather than letting a player pay 5 gold for no effect by mistake.
    if pair in alliances:
        return f"The castles on {SQ_NAME[pair[0]]} and {SQ_NAME[pair[1]]} are already allied.", "already_allied"
    return None


# --- A whole play --------------------------------------------------------------


@dataclass(slots=True)
class PlayOutcome:
    """What a legal play does, computed on a copy of the board.

    Attributes:
        card: the card played; action: the chosen action.
        board: the board after the play.
        cost: the card's cost; extra: forest surcharges.
        alliance: a new allied pair, or None.
        parts: the play's parts in notation (for the event log): the parts
            made, which from version 2 may stop short of the move's.
        won: version 2 only: a placement of this play brought a player to
            the target score, so the game ends there (the later parts are not
            made, and no card is taken).
    """

    card: Card
    action: Action
    board: Board
    cost: int
    extra: int = 0
    alliance: tuple[int, int] | None = None
    parts: dict[str, Any] = field(default_factory=dict)
    won: bool = False


def _refuse(refusal: Refusal) -> None:
    if refusal is not None:
        raise IllegalMove(*refusal)


def card_action(move: dict[str, Any], hand: list[str]) -> tuple[Card, Action]:
    """Return the card and chosen action of a play or partial play.

    Raises:
        IllegalMove: unknown card, card not in hand, bad option, or a part
            that the chosen action does not have.
    """
    cid = move.get("card")
    if not isinstance(cid, str) or cid not in CARDS:
        raise IllegalMove(f"{cid!r} is not a card.", "bad_card")
    if cid not in hand:
        raise IllegalMove(f"You have no {cid} in hand.", "not_in_hand")
    card = CARDS[cid]
    option = move.get("option", 0)
    if not isinstance(option, int) or isinstance(option, bool) or not 0 <= option < len(card.actions):
        raise IllegalMove(f"{cid} has no option {option!r}.", "bad_option")
    action = card.actions[option]
    allowed = set(ACTION_KEYS[action.kind]) | {"act", "card", "option"}
    extra = sorted(set(move) - allowed)
    if extra:
        raise IllegalMove(f"The {action.kind} action of {cid} has no part {extra[0]!r}.", "bad_part")
    return card, action


def _as_list(move: dict[str, Any], key: str, limit: int, what: str) -> list[Any]:
    items = move.get(key, [])
    if not isinstance(items, list):
        raise IllegalMove(f"'{key}' must be a list.", "bad_part")
    if len(items) > limit:
        raise IllegalMove(f"This card gives at most {limit} {what}.", "too_many")
    return items


def _target_reached(state: State, board: Board) -> bool:
    """Version 2: True if ``board`` puts a player at or over the target score.

    Rule (version 2): the first player to reach the target wins at once;
    scores are recomputed after every single placement. Only borders and
    expanded squares are checked: a knight (placed or removed) never changes
    a score, since scores count the squares of domains and domains follow
    from castles and borders alone.
    """
    target = state.target
    scores = board.derived().scores
    return any(scores[i] >= target for i in range(state.n))


def resolve_play(state: State, player: int, move: dict[str, Any], partial: bool = False) -> PlayOutcome:
    """Check a ``play`` move and compute its effect on a board copy.

    Version 1 checks and makes the whole play. From version 2 the target is
    checked after every border and every expanded square: the placement
    that brings a player to the target ends the play there (``won``), and
    the later parts are neither made nor checked
    (``rules.TARGET_STOPS_THE_PLAY_UNCHECKED``); the move's shape (its keys,
    how many parts) is checked whole in every version.

    Args:
        state: the position (not changed).
        player: the seat playing.
        move: the play in notation (without "player").
        partial: allow an unfinished desertion/alliance/expand (for ``targets``).

    Returns:
        The outcome; the caller commits it.

    Raises:
        IllegalMove: with the rule the move breaks; nothing is changed.
    """
    hand = state.players[player].hand
    gold = state.players[player].gold
    card, action = card_action(move, hand)
    if card.cost > gold:
        raise IllegalMove(f"{card.id} costs {card.cost} gold; you have {gold}.", "no_gold")
    board = state.board.copy()
    out = PlayOutcome(card, action, board, card.cost)
    kind = action.kind
    at_once = state.rules.target_wins_at_once
    if kind == BORDERS:
        edges = _as_list(move, "borders", action.n, "borders")
        made = []
        for text in edges:
            e = parse_edge(text)
            _refuse(border_refusal(board, e))
            board.add_border(e)
            made.append(EDGE_NAME[e])
            if at_once and _target_reached(state, board):
                out.won = True
                break
        out.parts = {"borders": made}
    elif kind == KNIGHTS:
        squares = _as_list(move, "knights", action.n, "knights")
        for text in squares:
            s = parse_square(text)
            _refuse(knight_refusal(board, player, s, gold - card.cost - out.extra))
            out.extra += surcharge(board, s)
            board.set_knight(s, player)
        out.parts = {"knights": [SQ_NAME[parse_square(t)] for t in squares]}
    elif kind == EXPAND:
        squares = _as_list(move, "squares", action.n, "squares")
        if "domain" not in move:
            if squares:
                raise IllegalMove("Name the domain that expands (its castle's square).", "bad_part")
        else:
            castle = parse_square(move["domain"])
            dom = board.derived().domains.get(castle)
            if dom is None or dom.owner != player:
                raise IllegalMove(f"{SQ_NAME[castle]} is not the castle of one of your domains.", "not_your_domain")
            made = []
            for text in squares:
                s = parse_square(text)
                _refuse(expand_refusal(board, state.alliances, player, castle, s))
                take_square(board, castle, s)
                made.append(SQ_NAME[s])
                if at_once and _target_reached(state, board):
                    out.won = True
                    break
            out.parts = {"domain": SQ_NAME[castle], "squares": made}
    elif kind == DESERTION:
        has_r, has_k = "remove" in move, "knight" in move
        if has_r != has_k and not (partial and has_r):
            raise IllegalMove("A desertion names both the knight removed and the new knight's square.", "bad_part")
        if has_r:
            r = parse_square(move["remove"])
            _refuse(desertion_remove_refusal(board, player, r, state.rules))
            out.parts = {"remove": SQ_NAME[r]}
            if has_k:
                k = parse_square(move["knight"])
                _refuse(desertion_knight_refusal(board, player, r, k, gold - card.cost, state.rules))
                owner = board.knight[r]
                board.set_knight(r, -1)
                out.extra += surcharge(board, k)
                board.set_knight(k, player)
                out.parts.update({"knight": SQ_NAME[k], "owner": owner})
    elif kind == ALLIANCE:
        has_a, has_w = "domain" in move, "with" in move
        if has_a != has_w and not (partial and has_a):
            raise IllegalMove("An alliance names both castles.", "bad_part")
        if has_a and has_w:
            c1, c2 = parse_square(move["domain"]), parse_square(move["with"])
            _refuse(alliance_refusal(board, state.alliances, player, c1, c2))
            out.alliance = (c1, c2) if c1 < c2 else (c2, c1)
            out.parts = {"domain": SQ_NAME[c1], "with": SQ_NAME[c2]}
        elif has_a:
            c1 = parse_square(move["domain"])
            dom = board.derived().domains.get(c1)
            if dom is None or dom.owner != player:
                raise IllegalMove(f"{SQ_NAME[c1]} is not the castle of one of your domains.", "not_your_domain")
    total = card.cost + out.extra
    if total > gold:
        raise IllegalMove(
            f"This play costs {total} gold ({card.cost} for {card.id}, {out.extra} for knights "
            f"on forests); you have {gold}.",
            "no_gold",
        )
    return out


def next_choices(state: State, player: int, move: dict[str, Any]) -> dict[str, Any]:
    """Return the legal next part of a partial play.

    Returns ``{"part": key, "choices": [names], "remaining": n}``, where
    ``part`` is the move key to fill next ("borders", "knights", "domain",
    "squares", "remove", "knight", "with"), or ``{"part": None}`` when the
    play is complete. Raises IllegalMove if the partial play is illegal.
    """
    out = resolve_play(state, player, move, partial=True)
    if out.won:
        # Version 2: the game ends at this placement; nothing more is made.
        return {"part": None}
    board = out.board
    gold_left = state.players[player].gold - out.cost - out.extra
    kind, n = out.action.kind, out.action.n
    if kind == BORDERS:
        left = n - len(move.get("borders", []))
        if left <= 0:
            return {"part": None}
        return {"part": "borders", "remaining": left, "choices": [EDGE_NAME[e] for e in legal_border_edges(board)]}
    if kind == KNIGHTS:
        left = n - len(move.get("knights", []))
        if left <= 0:
            return {"part": None}
        return {
            "part": "knights",
            "remaining": left,
            "choices": [SQ_NAME[s] for s in knight_squares(board, player, gold_left)],
        }
    if kind == EXPAND:
        if "domain" not in move:
            return {"part": "domain", "remaining": 1, "choices": [SQ_NAME[c] for c in own_domains(board, player)]}
        left = n - len(move.get("squares", []))
        if left <= 0:
            return {"part": None}
        castle = parse_square(move["domain"])
        return {
            "part": "squares",
            "remaining": left,
            "choices": [SQ_NAME[s] for s in expand_squares(board, state.alliances, player, castle)],
        }
    if kind == DESERTION:
        if "remove" not in move:
            return {
                "part": "remove",
                "remaining": 1,
                "choices": [SQ_NAME[s] for s in desertion_removals(board, player, state.rules)],
            }
        if "knight" in move:
            return {"part": None}
        r = parse_square(move["remove"])
        return {
            "part": "knight",
            "remaining": 1,
            "choices": [SQ_NAME[k] for k in desertion_squares(board, player, r, gold_left, state.rules)],
        }
    if kind == ALLIANCE:
        if "domain" not in move:
            return {
                "part": "domain",
                "remaining": 1,
                "choices": [
                    SQ_NAME[c]
                    for c in own_domains(board, player)
                    if alliance_partners(board, state.alliances, player, c)
                ],
            }
        if "with" in move:
            return {"part": None}
        c1 = parse_square(move["domain"])
        return {
            "part": "with",
            "remaining": 1,
            "choices": [SQ_NAME[c] for c in alliance_partners(board, state.alliances, player, c1)],
        }
    return {"part": None}


def desertion_removals(board: Board, player: int, rs: rules.Ruleset) -> list[int]:
    """Return the squares of knights that ``player`` may make desert (rules of ``rs``)."""
    knight = board.knight
    return [
        s
        for s in range(NSQ)
        if knight[s] >= 0 and knight[s] != player and desertion_remove_refusal(board, player, s, rs) is None
    ]


def desertion_squares(board: Board, player: int, r: int, gold_left: int | None, rs: rules.Ruleset) -> list[int]:
    """Return the squares where the player's new knight may go after the knight on ``r`` deserts."""
    d = board.derived()
    oc = d.domain_at[r]
    if oc < 0:
        return []
    receiving = _receiving_domains(d, player, oc, rs)
    b2 = board.copy()
    b2.set_knight(r, -1)
    out = []
    for rc in receiving:
        for k in d.domains[rc].squares:
            if knight_refusal(b2, player, k, gold_left) is None:
                out.append(k)
    return sorted(out)


def alliance_partners(board: Board, alliances: list[tuple[int, int]], player: int, c1: int) -> list[int]:
    """Return the castles whose domains the domain of ``c1`` may ally with."""
    d = board.derived()
    return sorted(c for c in d.domains if alliance_refusal(board, alliances, player, c1, c) is None)


# --- Setup ---------------------------------------------------------------------


def _far_enough(board: Board, colour: int, s: int, dist: int, own: list[int] | None = None) -> bool:
    """True if ``s`` is at least ``dist`` squares (|dx|+|dy|) from every castle of ``colour``."""
    sc, sr = divmod(s, rules.SIZE)
    if own is None:
        own = [c for c, col in enumerate(board.castle) if col == colour]
    for c in own:
        cc, cr = divmod(c, rules.SIZE)
        if abs(cc - sc) + abs(cr - sr) < dist:
            return False
    return True


def _castle_square_ok(board: Board, colour: int, s: int, gold: int | None, rs: rules.Ruleset) -> bool:
    if board.occupied(s) or board.terrain[s] not in rules.CASTLE_TERRAIN:
        return False
    if colour == rules.NEUTRAL or not rules.CASTLE_NEEDS_KNIGHT_SQUARE:
        return True
    return any(setup_knight_refusal(board, s, k, gold, rs) is None for k in NEIGHBOURS[s])


def _setup_candidates(board: Board, colour: int, gold: int | None, rs: rules.Ruleset) -> tuple[list[int], list[int]]:
    """The squares passing ``_castle_square_ok`` (before the distance rule), and ``colour``'s castles.

    The same test as ``_castle_square_ok``, square by square, with what it
    asks of every square (free? meadow? a knight square as
    ``setup_knight_refusal`` allows?) worked out once per square instead of
    once per neighbour: setup asks this of all 144 squares on every placement.
    """
    castle, knight, terrain = board.castle, board.knight, board.terrain
    own = [c for c in board.castle_squares() if castle[c] == colour]
    free = [c < 0 and k < 0 for c, k in zip(castle, knight, strict=True)]
    meadows = [free[s] and terrain[s] in rules.CASTLE_TERRAIN for s in range(NSQ)]
    if colour == rules.NEUTRAL or not rules.CASTLE_NEEDS_KNIGHT_SQUARE:
        return [s for s in range(NSQ) if meadows[s]], own
    # setup_knight_refusal(board, s, k, gold, rs) is None for a neighbour k of s exactly when:
    paid = rs.setup_forest_costs and gold is not None and gold < rules.FOREST_KNIGHT_SURCHARGE
    knight_ok = [
        free[k] and terrain[k] in rules.KNIGHT_TERRAIN and not (paid and terrain[k] == rules.FOREST) for k in range(NSQ)
    ]
    ok = knight_ok.__getitem__
    return [s for s in range(NSQ) if meadows[s] and any(map(ok, NEIGHBOURS[s]))], own


def setup_distance(board: Board, colour: int, gold: int | None, rs: rules.Ruleset) -> int:
    """Return the distance rule in force for ``colour``'s next castle.

    Rule: ``rs.castle_distance`` squares (|dx|+|dy|) from every castle of the
    same colour (version 1: 7; version 2: 6, the original's); if the colour
    has no legal square at that distance, ``rs.castle_fallback`` (1: 6;
    2: 5); then (house) lower still, one at a time, down to
    ``rules.CASTLE_DISTANCE_FLOOR``.
    """
    cands, own = _setup_candidates(board, colour, gold, rs)
    return _distance_for(board, colour, cands, own, rs)


def _distance_for(board: Board, colour: int, cands: list[int], own: list[int], rs: rules.Ruleset) -> int:
    dist = rs.castle_distance
    while dist > rules.CASTLE_DISTANCE_FLOOR:
        if any(_far_enough(board, colour, s, dist, own) for s in cands):
            return dist
        dist = rs.castle_fallback if dist == rs.castle_distance else dist - 1
    return rules.CASTLE_DISTANCE_FLOOR


def setup_castle_squares(board: Board, colour: int, gold: int | None, rs: rules.Ruleset) -> list[int]:
    """Return the squares where ``colour``'s next castle may go (rules of ``rs``)."""
    cands, own = _setup_candidates(board, colour, gold, rs)
    dist = _distance_for(board, colour, cands, own, rs)
    return [s for s in cands if _far_enough(board, colour, s, dist, own)]


def setup_castle_refusal(board: Board, colour: int, s: int, gold: int | None, rs: rules.Ruleset) -> Refusal:
    """Why ``colour``'s next castle may not go on ``s``, or ``None``.

    Rules: a free meadow; the distance rule among castles of the same colour
    (see ``setup_distance``); castles of other colours do not matter.
    """
    name = SQ_NAME[s]
    if board.occupied(s):
        return f"{name} is not free.", "square_taken"
    if board.terrain[s] not in rules.CASTLE_TERRAIN:
        return f"A castle must stand on a meadow; {name} is not one.", "castle_terrain"
    if not _castle_square_ok(board, colour, s, gold, rs):
        return f"No free meadow or forest next to {name} for the castle's first knight.", "no_knight_square"
    dist = setup_distance(board, colour, gold, rs)
    if not _far_enough(board, colour, s, dist):
        near = [SQ_NAME[c] for c in range(NSQ) if board.castle[c] == colour and not _far_enough_pair(c, s, dist)]
        return (
            f"{name} is closer than {dist} squares to the castle of the same colour on {near[0]}.",
            "castle_too_close",
        )
    return None


def _far_enough_pair(c: int, s: int, dist: int) -> bool:
    cc, cr = divmod(c, rules.SIZE)
    sc, sr = divmod(s, rules.SIZE)
    return abs(cc - sc) + abs(cr - sr) >= dist


def setup_knight_refusal(board: Board, castle: int, k: int, gold: int | None, rs: rules.Ruleset) -> Refusal:
    """Why the first knight of a castle being placed on ``castle`` may not go
    on ``k``, or ``None``. Rule: a free meadow or forest orthogonally next to
    the castle; version 1: a forest costs 1 gold (so needs it); from version
    2 it is free (``rs.setup_forest_costs``)."""
    name = SQ_NAME[k]
    if k not in NEIGHBOURS[castle]:
        return f"The castle's knight must stand next to it; {name} is not.", "knight_not_adjacent"
    if board.occupied(k):
        return f"{name} is not free.", "square_taken"
    t = board.terrain[k]
    if t not in rules.KNIGHT_TERRAIN:
        return f"A knight must stand on a meadow or a forest; {name} is neither.", "knight_terrain"
    if rs.setup_forest_costs and gold is not None and t == rules.FOREST and gold < rules.FOREST_KNIGHT_SURCHARGE:
        return f"A knight on the forest {name} costs 1 gold, which you do not have.", "no_gold"
    return None


def setup_surcharge(board: Board, k: int, rs: rules.Ruleset) -> int:
    """Gold the first knight of a setup placement on ``k`` costs: the forest
    surcharge under version 1, nothing from version 2 (free on a forest too)."""
    return surcharge(board, k) if rs.setup_forest_costs else 0


def colour_label(colour: int) -> int | str:
    """Return a colour as the notation names it (seat or "neutral")."""
    return colour_name(colour)
