"""The rating model's arithmetic: openskill's Plackett-Luce as configured, a stored belief, inactivity, display.

Pure functions of numbers and settings (no rows): ``ratings.services`` rates
games with them and re-exports them; the module docstring there gives the
formulas.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cache

from django.conf import settings
from openskill.models import PlackettLuce

SECONDS_PER_DAY = 86400.0


@cache
def model() -> PlackettLuce:
    """Return the Plackett-Luce model configured by ``settings.RATING_*`` (one per process)."""
    return PlackettLuce(
        mu=settings.RATING_MU,
        sigma=settings.RATING_SIGMA,
        beta=settings.RATING_BETA,
        tau=settings.RATING_TAU,
    )


@dataclass(frozen=True, slots=True)
class Belief:
    """A rating as stored: ``mu``, ``sigma`` right after ``last_played`` (None: never played)."""

    mu: float
    sigma: float
    games: int = 0
    last_played: datetime | None = None

    @classmethod
    def new(cls) -> Belief:
        """Return a newcomer's belief (``RATING_MU``, ``RATING_SIGMA``)."""
        return cls(mu=settings.RATING_MU, sigma=settings.RATING_SIGMA)

    def sigma_at(self, when: datetime) -> float:
        """Return sigma grown for inactivity up to ``when`` (see :func:`inflate_sigma`)."""
        return inflate_sigma(self.sigma, self.last_played, when)

    def display_at(self, when: datetime) -> int:
        """Return the displayed rating at ``when``."""
        return display_rating(self.mu, self.sigma_at(when))

    @property
    def provisional(self) -> bool:
        """True until ``settings.RATING_PROVISIONAL_GAMES`` rated games."""
        return self.games < settings.RATING_PROVISIONAL_GAMES


def inflate_sigma(sigma: float, last_played: datetime | None, when: datetime) -> float:
    """Return ``sigma`` grown for the inactivity between ``last_played`` and ``when``.

    ``max(sigma, min(RATING_SIGMA, sqrt(sigma**2 + RATING_IDLE_TAU**2 * days)))``:
    uncertainty grows like a random walk, never beyond a newcomer's, and
    never shrinks here. ``last_played`` None (or later than ``when``) means
    no growth. Both datetimes must be aware.
    """
    if last_played is None or when <= last_played:
        return sigma
    days = (when - last_played).total_seconds() / SECONDS_PER_DAY
    grown = math.sqrt(sigma * sigma + settings.RATING_IDLE_TAU**2 * days)
    return max(sigma, min(settings.RATING_SIGMA, grown))


def display_rating(mu: float, sigma: float) -> int:
    """Return the displayed rating for a belief: conservative, on a 1500-based scale."""
    z = settings.RATING_DISPLAY_Z
    newcomer = settings.RATING_MU - z * settings.RATING_SIGMA
    ordinal = mu - z * sigma  # openskill's ordinal(z); inlined: the ladder computes thousands
    return round(settings.RATING_DISPLAY_BASE + settings.RATING_DISPLAY_SCALE * (ordinal - newcomer))


def rate_field(before: Sequence[tuple[float, float]], ranks: Sequence[int]) -> list[tuple[float, float]]:
    """Rate one finished game: each seat's ``(mu, sigma)`` before, and its rank (1 = first; ties share one).

    Returns each seat's ``(mu, sigma)`` after, in the same order. The only call of openskill, shared by
    the players' ladders (``ratings.services``: the live update and the recompute) and the bots' ladder
    (``ratings.botladder``), so they cannot drift apart.
    """
    m = model()
    teams = [[m.create_rating([mu, sigma])] for mu, sigma in before]
    after = m.rate(teams, ranks=[float(rank) for rank in ranks])
    return [(team[0].mu, team[0].sigma) for team in after]
