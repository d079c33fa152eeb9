"""The Domaine board drawing and the log sentences, from hand-made views and events."""

from __future__ import annotations

from games.domaine.board import CELL, RIM, draw, edge_diamond, edge_line, parse_square
from games.domaine.eventtext import describe as describe_domaine


def small_view(**over):
    view = {
        "board": ["." * 12] * 11 + ["F" * 11 + "R"],
        "castles": {"A1": 0, "C1": 1, "L12": "neutral"},
        "knights": {"A2": 0},
        "borders": ["B1-C1", "B2-C2"],
        "domains": [
            {"castle": "A1", "owner": 0, "squares": ["A1", "A2", "B1", "B2"], "knights": 1},
            {"castle": "C1", "owner": 1, "squares": ["C1", "C2"], "knights": 0},
        ],
        "alliances": [["A1", "C1"]],
    }
    view.update(over)
    return view


def test_squares_and_edges_have_their_places():
    assert parse_square("A1") == (0, 0) and parse_square("L12") == (11, 11)
    assert parse_square("M1") is None and parse_square("A13") is None and parse_square("A") is None
    # C7-C8: one above the other, so a horizontal segment on row 8's top side
    assert edge_line("C7-C8") == (RIM + 2 * CELL, RIM + 7 * CELL, RIM + 3 * CELL, RIM + 7 * CELL)
    assert edge_line("C7-D7") == (RIM + 3 * CELL, RIM + 6 * CELL, RIM + 3 * CELL, RIM + 7 * CELL)
    assert edge_line("C7-E7") is not None  # not checked here: the engine decides what is an edge
    assert edge_diamond("nonsense") == "" and edge_line("A1") is None


def test_the_drawing_shows_terrain_pieces_domains_and_alliances():
    d = draw(small_view())
    assert len(d.squares) == 144
    assert {s["terrain"] for s in d.squares} == {"meadow", "forest", "royal"}
    assert len(d.shading) == 6
    assert len(d.borders) == 2
    # the alliance is drawn on the border the two domains share
    assert d.alliance_edges == [edge_line("B1-C1"), edge_line("B2-C2")]
    castles = {c["name"]: c for c in d.castles}
    assert castles["A1"]["domain"] and castles["A1"]["allied"] and castles["A1"]["mark"] == "1"
    assert not castles["L12"]["domain"] and castles["L12"]["mark"] == "N"
    assert [k["name"] for k in d.knights] == ["A2"]
    assert [c for c, _ in d.col_labels] == list("ABCDEFGHIJKL")


def test_only_the_engines_choices_become_links():
    d = draw(small_view(), targets={"part": "borders", "choices": ["D5-D6", "D5-E5"]}, link=lambda c: f"/x?pick={c}")
    assert [t.name for t in d.edge_targets] == ["D5-D6", "D5-E5"]
    assert d.square_targets == []
    assert d.edge_targets[0].url == "/x?pick=D5-D6"
    d = draw(
        small_view(), targets={"part": "knights", "choices": ["B3"]}, draft={"act": "play", "knights": ["A3"]}, link=str
    )
    assert [t.name for t in d.square_targets] == ["B3"]
    assert [s["name"] for s in d.draft_squares] == ["A3"]
    assert draw(small_view(), targets={"part": None}, link=str).square_targets == []


def test_log_sentences():
    assert (
        describe_domaine(
            {"kind": "play", "player": 1, "card": "B3", "option": 0, "action": "knights", "knights": ["E5", "E6"]},
            "Bob",
        )
        == "Bob played 2 Knights (B): E5, E6."
    )
    assert (
        describe_domaine({"kind": "play", "card": "A2", "option": 0, "action": "borders", "borders": []}, "Bob")
        == "Bob played 2 Borders (A) without effect."
    )
    # a card with a choice says which action was used
    assert (
        describe_domaine({"kind": "play", "card": "A4", "option": 1, "action": "borders", "borders": ["A1-A2"]}, "Bob")
        == "Bob played 1 Knight or 2 Borders (A) as 2 borders: A1-A2."
    )
    assert describe_domaine({"kind": "take", "from": "deck"}, "Ann") == "Ann drew a card from the deck."
    assert (
        describe_domaine({"kind": "take", "from": "deck", "card": "C1"}, "Ann")
        == "Ann drew 3 Borders (C) from the deck."
    )
    assert (
        describe_domaine({"kind": "take", "from": "display", "card": "C1"}, "Ann")
        == "Ann took 3 Borders (C) from the display."
    )
    assert describe_domaine({"kind": "sell", "card": "A1", "gold": 1}, "Ann") == "Ann sold 1 Border (A) for 1 gold."
    assert "castle on C3 and a knight on C4 (1 gold)" in describe_domaine(
        {"kind": "place_castle", "at": "C3", "knight": "C4", "paid": 1}, "Ann"
    )
    assert "D5 takes E5, E6" in describe_domaine(
        {"kind": "play", "card": "B4", "option": 0, "action": "expand", "domain": "D5", "squares": ["E5", "E6"]}, "Ann"
    )
    assert "the knight on H8 deserts to E6" in describe_domaine(
        {"kind": "play", "card": "B5", "option": 0, "action": "desertion", "remove": "H8", "knight": "E6"}, "Ann"
    )
    assert "C3 allies with H9" in describe_domaine(
        {"kind": "play", "card": "B6", "option": 0, "action": "alliance", "domain": "C3", "with": "H9"}, "Ann"
    )
    assert describe_domaine({"kind": "scores", "scores": [1, 2]}, "x") == ""
    assert "gold, silver" in describe_domaine({"kind": "income", "gold": 2, "mines": ["gold", "silver"]}, "Ann")


def test_the_boards_hints_say_choose_on_a_phone_and_a_computer_alike():
    """A hint says neither "Click" (wrong on a phone) nor "Tap" (wrong with a mouse)."""
    from games.domaine.templatetags.domaine_tags import part_prompt

    parts = [None, "at", "borders", "knights", "domain", "squares", "remove", "with", "knight", "other"]
    hints = [part_prompt(part, act, 2) for part in parts for act in ("place_castle", "play")]
    for hint in hints:
        assert not hint.startswith(("Click", "Tap")) and " click" not in hint.lower(), hint
    assert "Choose a highlighted square for the castle." in hints
