"""Dominion moves in their canonical form: the parts each act uses, with their types, and nothing else.

A game is its log forever, so the site stores a move only in this form
(``canonical_move``, applied on the way in by ``games.moves``): a client's
extra parts or odd values are refused with a reason, never stored. The
notation is ``shared/rules/dominion-moves.md``.

Canonicalising is not a rule: it never runs in a replay, and every move of
every act the engine accepts keeps its meaning (the engine reads only these
parts), so stored games replay exactly as before and no engine version
changes. ``tests/golden`` holds only canonical moves (a test says so).

Pure Python: no Django, no I/O.
"""

from __future__ import annotations

from typing import Any

from games.engine.core import IllegalMove

#: Each act of the notation -> the parts it carries besides ``act``.
PARTS: dict[str, tuple[str, ...]] = {
    "play": ("card",),
    "play_treasures": (),
    "buy": ("card",),
    "end_actions": (),
    "end_turn": (),
    "choose": ("cards",),
    "gain": ("card",),
    "yes": (),
    "no": (),
}

#: The refusal of a missing or non-text ``card``, per act (the engine's own sentences).
_SAY_WHICH = {act: f"Say which card to {act}." for act in ("play", "buy", "gain")}


def canonical_move(move: Any) -> dict[str, Any]:
    """Return ``move`` (a Dominion move without ``player``) in its canonical form.

    The form: ``{"act": A}`` plus the parts ``A`` uses (:data:`PARTS`),
    ``card`` a text and ``cards`` a list of texts, in the order given (an
    order can matter: cards put back on the deck). Whether those cards are
    legal now is the engine's to say (``DominionEngine.check``).

    Returns:
        A new dict; a canonical move comes back equal to itself.

    Raises:
        IllegalMove: not an object with a known ``act`` (code ``malformed``),
            a part the act does not have (``bad_part``), or a part that is
            missing or of the wrong type (``malformed``).
    """
    if not isinstance(move, dict) or not isinstance(move.get("act"), str):
        raise IllegalMove("A move is an object with an 'act'.", "malformed")
    act = move["act"]
    parts = PARTS.get(act)
    if parts is None:
        raise IllegalMove(f"Unknown move {act!r}.", "malformed")
    extra = sorted(str(k) for k in move if k != "act" and k not in parts)
    if extra:
        raise IllegalMove(f"The move {act!r} has no part {extra[0]!r}.", "bad_part")
    out: dict[str, Any] = {"act": act}
    if "card" in parts:
        card = move.get("card")
        if not isinstance(card, str):
            raise IllegalMove(_SAY_WHICH[act], "malformed")
        out["card"] = card
    if "cards" in parts:
        cards = move.get("cards")
        if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
            raise IllegalMove("'cards' must be a list of card names.", "malformed")
        out["cards"] = list(cards)
    return out
