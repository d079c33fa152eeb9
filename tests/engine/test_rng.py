"""The game's random source: ``core.Rng`` deals exactly what the library would.

Stored games replay through ``Rng``; its shuffle is written out for speed, so
these tests hold it to ``random.Random``'s own shuffle, draw for draw.
"""

from __future__ import annotations

import random

from games.engine.core import Rng


def test_shuffle_is_the_librarys_shuffle_of_the_same_seed():
    """Every deck size a game can shuffle, many seeds: the same order as ``random.Random.shuffle``."""
    for seed in (0, 1, 7, 2**20 + 3, 2**40 + 11):
        rng = Rng(seed)
        for size in range(0, 70):
            for _ in range(3):
                ours = [f"c{i}" for i in range(size)]
                rng.shuffle(ours)
                theirs = [f"c{i}" for i in range(size)]
                random.Random((seed << 24) ^ rng.counter).shuffle(theirs)
                assert ours == theirs, (seed, size, rng.counter)


def test_each_shuffle_takes_the_next_draw():
    """A shuffle uses one draw of the counter, like ``randrange`` and ``sample``: later draws do not move."""
    a, b = Rng(5), Rng(5)
    a.shuffle(list(range(10)))
    b.randrange(3)
    assert a.counter == b.counter == 1
    assert a.randrange(1000) == b.randrange(1000)
