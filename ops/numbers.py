"""Where the apps above ``ops`` hand it their numbers for the staff page ``/ops/stats/`` (``ops.selectors``).

``ops`` sits below the apps whose numbers it shows, so it imports none of
them: each app registers a function that takes its own numbers, in its
``AppConfig.ready``. This module imports no models, so an app config may
import it at the top.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any

#: ``source(now) -> {name: value}``: one app's numbers at ``now`` (UTC).
NumbersSource = Callable[[datetime], Mapping[str, Any]]

_sources: list[NumbersSource] = []


def register(source: NumbersSource) -> None:
    """Add ``source`` to the functions whose numbers the staff page shows (idempotent).

    Each name a source answers must be its own (``ops.selectors.site_stats`` refuses a name answered twice).
    """
    if source not in _sources:
        _sources.append(source)


def sources() -> list[NumbersSource]:
    """The registered sources, in the order registered."""
    return list(_sources)
