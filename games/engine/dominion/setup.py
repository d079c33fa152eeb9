"""Setting up a Dominion game: supply sizes, the kingdom and the deal (rules §2, §3)."""

from __future__ import annotations

from typing import Any

from games.engine.core import InvalidOptions, Rng
from games.engine.dominion.cards import COST, KINGDOM_CARDS, RECOMMENDED_SETS, VICTORIES
from games.engine.dominion.state import VERSION, DominionState

# ---------------------------------------------------------------------------
# Set-up (§2, §3)


def supply_sizes(players: int, kingdom: list[str]) -> dict[str, int]:
    """Return pile -> starting count for ``players`` (2-4) and a kingdom (§2).

    Computed per game from the player count, never kept as global state.
    """
    victory = 8 if players == 2 else 12
    sizes = {
        "Copper": 60 - 7 * players,
        "Silver": 40,
        "Gold": 30,
        "Estate": victory,
        "Duchy": victory,
        "Province": victory,
        "Curse": 10 * (players - 1),
    }
    for name in sorted(kingdom, key=lambda c: (COST[c], c)):
        sizes[name] = victory if name in VICTORIES else 10
    return sizes


def resolve_kingdom(spec: Any, seed: int) -> list[str]:
    """Turn a kingdom option into 10 card names.

    Args:
        spec: a list of 10 kingdom card names; the name of a recommended
            set ("First Game"); or ``"random"`` / ``None`` for 10 cards drawn
            from the 25 with the game's seed.
        seed: the game's seed (a random kingdom is part of the game).

    Raises:
        InvalidOptions: unknown card or set, duplicates, or not 10 cards.
    """
    if spec is None or spec == "random":
        return sorted(Rng(seed ^ 0x5EED).sample(KINGDOM_CARDS, 10), key=lambda c: (COST[c], c))
    if isinstance(spec, str):
        if spec not in RECOMMENDED_SETS:
            raise InvalidOptions(
                f"Unknown kingdom {spec!r}: choose random, 10 cards, or one of " + ", ".join(RECOMMENDED_SETS) + "."
            )
        return list(RECOMMENDED_SETS[spec])
    if not isinstance(spec, list | tuple) or not all(isinstance(c, str) for c in spec):
        raise InvalidOptions("A kingdom is a list of 10 card names.")
    unknown = [c for c in spec if c not in KINGDOM_CARDS]
    if unknown:
        raise InvalidOptions("Not kingdom cards of the base set: " + ", ".join(unknown) + ".")
    if len(set(spec)) != len(spec):
        raise InvalidOptions("A kingdom cannot name the same card twice.")
    if len(spec) != 10:
        raise InvalidOptions(f"A kingdom has 10 different cards, not {len(spec)}.")
    return sorted(spec, key=lambda c: (COST[c], c))


def check_players(players: Any) -> int:
    """Return ``players`` if it is 2, 3 or 4; raise ``InvalidOptions`` otherwise (§2)."""
    if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= 4:
        raise InvalidOptions("Dominion is played by 2 to 4 players here (5-6 need Intrigue).")
    return players


def new_state(players: int, kingdom: list[str], seed: int, version: int = VERSION) -> DominionState:
    """Return the starting position (§3): 7 Copper + 3 Estate shuffled, 5 drawn each.

    ``version`` is the rules version the game is played by (the deal is the
    same in every version); the engine passes its own, default the current.
    """
    check_players(players)
    rng = Rng(seed)
    st = DominionState(
        n=players,
        kingdom=list(kingdom),
        supply=supply_sizes(players, kingdom),
        trash=[],
        hands=[[] for _ in range(players)],
        decks=[],
        discards=[[] for _ in range(players)],
        plays=[[] for _ in range(players)],
        asides=[[] for _ in range(players)],
        turns=[0] * players,
        rng=rng,
        version=version,
    )
    for p in range(players):
        deck = ["Copper"] * 7 + ["Estate"] * 3
        rng.shuffle(deck)
        st.decks.append(deck)
        st.hands[p] = [deck.pop() for _ in range(5)]
    st.start_counts = st.card_counts()
    return st
