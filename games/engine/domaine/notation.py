"""Domaine moves in their canonical form: the parts each act (and each card action) uses, with their types.

A game is its log forever, so the site stores a move only in this form
(``canonical_move``, applied on the way in by ``games.moves``): a part the
move cannot have, or a value of the wrong type, is refused with a reason;
what the notation lets a move say in two ways is written one way. The
notation is ``shared/rules/domaine-moves.md``.

Canonicalising is not a rule: it never runs in a replay, and a move the
engine accepts means the same in its canonical form (the engine reads it
the same way), so stored games replay exactly as before and no engine
version changes. ``tests/golden`` holds only canonical moves (a test says so).

Pure Python: no Django, no I/O.
"""

from __future__ import annotations

from typing import Any

from games.engine.core import IllegalMove
from games.engine.domaine.board import EDGE_NAME, SQ_NAME, parse_edge, parse_square
from games.engine.domaine.cards import ACTION_KEYS, ALLIANCE, CARDS, DESERTION, EXPAND


def canonical_move(move: Any) -> dict[str, Any]:
    """Return ``move`` (a Domaine move without ``player``) in its canonical form.

    The forms (squares as "C7", edges as "C7-C8", the smaller square first):

    * ``{"act": "place_castle", "at": sq, "knight": sq}``, ``{"act": "place_neutral", "at": sq}``;
    * ``{"act": "sell", "card": id}``;
    * ``{"act": "take", "from": "deck"}`` or ``{"act": "take", "card": id}`` (from the
      display; ``"from": "display"`` is dropped);
    * ``{"act": "play", "card": id, "option": n}`` (``option`` always written, 0 by
      default) plus the parts of that option's action: ``borders`` (edges) or
      ``knights`` (squares), left out when empty; ``domain`` and ``squares`` (squares
      written whenever domain is, even empty); ``remove`` and ``knight``; ``domain``
      and ``with``. A play that names no part (the page confirms such a play) has
      only card and option.

    Whether the move is legal now is the engine's to say; this checks only
    its shape, so a canonical move comes back equal to itself.

    Returns:
        A new dict.

    Raises:
        IllegalMove: not an object with a known ``act`` (code ``bad_move``);
            a part the act or action does not have, a missing one, or a
            value of the wrong type (``bad_part``); not a square
            (``bad_square``), an edge (``bad_edge``), a card (``bad_card``)
            or one of the card's options (``bad_option``).
    """
    if not isinstance(move, dict):
        raise IllegalMove("A move is a JSON object.", "bad_move")
    act = move.get("act")
    if act == "place_castle":
        _only(move, ("at", "knight"), "A placement names only 'at' and 'knight'.")
        if "knight" not in move:
            raise IllegalMove("Place the castle's first knight in the same move.", "bad_part")
        return {"act": act, "at": _square(move.get("at")), "knight": _square(move["knight"])}
    if act == "place_neutral":
        _only(move, ("at",), "A neutral castle comes without a knight.")
        return {"act": act, "at": _square(move.get("at"))}
    if act == "sell":
        _only(move, ("card",), "A sale names only the card.")
        return {"act": act, "card": _card(move.get("card"))}
    if act == "take":
        return _take(move)
    if act == "play":
        return _play(move)
    raise IllegalMove(f"Unknown move {act!r}: play, sell, take, place_castle or place_neutral.", "bad_move")


def _only(move: dict[str, Any], parts: tuple[str, ...], reason: str) -> None:
    if any(k != "act" and k not in parts for k in move):
        raise IllegalMove(reason, "bad_part")


def _square(value: Any) -> str:
    return SQ_NAME[parse_square(value)]  # raises bad_square


def _card(value: Any) -> str:
    if not isinstance(value, str) or value not in CARDS:
        raise IllegalMove(f"{value!r} is not a card.", "bad_card")
    return value


def _take(move: dict[str, Any]) -> dict[str, Any]:
    source = move.get("from", "display" if "card" in move else None)
    _only(move, ("card", "from"), "Take names either {'from': 'deck'} or a display card.")
    if source == "deck" and "card" not in move:
        return {"act": "take", "from": "deck"}
    if source == "display" and "card" in move:
        return {"act": "take", "card": _card(move["card"])}
    raise IllegalMove("Take names either {'from': 'deck'} or a display card.", "bad_part")


def _play(move: dict[str, Any]) -> dict[str, Any]:
    cid = _card(move.get("card"))
    card = CARDS[cid]
    option = move.get("option", 0)
    if not isinstance(option, int) or isinstance(option, bool) or not 0 <= option < len(card.actions):
        raise IllegalMove(f"{cid} has no option {option!r}.", "bad_option")
    kind = card.actions[option].kind
    extra = sorted(str(k) for k in move if k not in {"act", "card", "option", *ACTION_KEYS[kind]})
    if extra:
        raise IllegalMove(f"The {kind} action of {cid} has no part {extra[0]!r}.", "bad_part")
    out: dict[str, Any] = {"act": "play", "card": cid, "option": option}
    if kind == EXPAND:
        squares = _list(move, "squares", _square)
        if "domain" in move:
            out.update(domain=_square(move["domain"]), squares=squares)
        elif squares:
            raise IllegalMove("Name the domain that expands (its castle's square).", "bad_part")
    elif kind == DESERTION:
        why = "A desertion names both the knight removed and the new knight's square."
        out.update(_pair(move, "remove", "knight", why))
    elif kind == ALLIANCE:
        out.update(_pair(move, "domain", "with", "An alliance names both castles."))
    else:  # borders or knights: a list, left out when empty
        key = ACTION_KEYS[kind][0]
        items = _list(move, key, _edge if key == "borders" else _square)
        if items:
            out[key] = items
    return out


def _edge(value: Any) -> str:
    return EDGE_NAME[parse_edge(value)]  # raises bad_edge; "C8-C7" is written "C7-C8"


def _list(move: dict[str, Any], key: str, each: Any) -> list[str]:
    items = move.get(key, [])
    if not isinstance(items, list):
        raise IllegalMove(f"'{key}' must be a list.", "bad_part")
    return [each(v) for v in items]


def _pair(move: dict[str, Any], first: str, second: str, reason: str) -> dict[str, str]:
    if (first in move) != (second in move):
        raise IllegalMove(reason, "bad_part")
    if first not in move:
        return {}
    return {first: _square(move[first]), second: _square(move[second])}
