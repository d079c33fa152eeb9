"""The reveal-all view (replays of finished games, moderators) is part of the shared interface."""

from __future__ import annotations

from games.engine.registry import get_engine


def test_reveal_all_shows_every_hand_and_the_deck_while_the_plain_view_hides_them():
    engine = get_engine("domaine")
    state = engine.new_game({}, 2, seed=3)
    plain = engine.view(state, 0)
    everything = engine.view(state, 0, reveal_all=True)
    assert "deck" not in plain and "deck" in everything
    assert str(everything).count("'hand'") > str(plain).count("'hand'")
