"""Adversarial review of version 3 (deferral, hidden reactions, standing answers): each test
here is a finding, written to fail before its fix."""

from __future__ import annotations

from games.engine.dominion.engine import ENGINE
from tests.engine.dominion.helpers import position

C, E, S = "Copper", "Estate", "Silver"
KINGDOM = ["Militia", "Market", "Council Room", "Witch", "Moat", "Bureaucrat", "Spy", "Thief", "Library", "Village"]


def test_every_legal_move_of_a_victim_without_moat_is_accepted():
    """``legal_moves`` is the one source of legal moves for pages, bots and the API: asked the
    Moat question without a Moat (hidden reactions), it offered "yes", which the engine refuses."""
    st = position({"hand": ["Militia", C]}, {"hand": [C, C, C, C, E]}, kingdom=KINGDOM)
    st.ask_all = True
    ENGINE.apply(st, 0, {"act": "play", "card": "Militia"})
    legal = ENGINE.legal_moves(st, 1)
    for move in legal:
        ENGINE.check(st, 1, move)
    assert legal == [{"act": "no"}]
    assert ENGINE.view(st, 1)["legal"] == [{"act": "no"}]
