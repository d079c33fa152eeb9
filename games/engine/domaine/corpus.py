"""Domaine's part of the golden corpus (``games.engine.golden``): its recording bot and its games.

``python -m games.engine.golden record --kind domaine`` plays the games
:data:`CORPORA` lists and writes them under ``tests/golden/domaine``. The
recorder finds this module beside the engine, so it names no game itself.
"""

from __future__ import annotations

import random
from typing import Any

from games.engine.domaine.bots import greedy_bot
from games.engine.domaine.engine import legal_moves
from games.engine.golden import Spec

KIND = "domaine"


def _domaine_eager(view: Any, rng: random.Random) -> dict[str, Any]:
    """A greedy Domaine player that makes a desertion or an alliance whenever it can
    (the shipped bots seldom do), so the corpus holds every action."""
    st, me = view.state, view.player
    if st.step == "play":
        rare = [m for m in legal_moves(st, me) if m["act"] == "play" and ("remove" in m or "with" in m)]
        if rare:
            return rare[rng.randrange(len(rare))]
    return greedy_bot(view, rng)


#: Bots used only to make recorded games (not offered to players); the engine's own bots play too.
BOTS = {"domaine_eager": _domaine_eager}


def versions_corpus() -> list[Spec]:
    """The Domaine games: versions 1 and 2, 2-4 players, greedy, random and mixed bots,
    finished and stopped mid-game (in setup and in play)."""
    out: list[Spec] = []
    for version in (1, 2):
        for players in (2, 3, 4):
            base = 70_000 + 1000 * version + 100 * players
            styles = [
                ("greedy", ["greedy"] * players, None),
                ("random", ["random"] * players, None),
                ("mixed", ["greedy", "random", "greedy", "random"][:players], None),
                ("mixed", ["random", "greedy", "random", "greedy"][:players], None),
                ("eager", ["domaine_eager"] * players, None),
                ("stopped-setup", ["greedy", "random", "random", "greedy"][:players], 3),
                ("stopped", ["greedy"] * players, 60),
                ("stopped", ["random", "greedy", "greedy", "random"][:players], 90),
                ("stopped", ["domaine_eager", "random", "greedy", "domaine_eager"][:players], 140),
            ]
            for i, (style, bots, stop) in enumerate(styles):
                seed = base + i
                out.append((KIND, version, {}, bots, seed, stop, f"domaine-v{version}-{players}p-{style}-{seed}.json"))
    return out


#: Corpus name -> the games it records. The one named after the kind is part of ``record --kind all``.
CORPORA = {KIND: versions_corpus}
