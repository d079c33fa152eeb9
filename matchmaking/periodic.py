"""The matchmaking tick: expire seeks, lapse rematch offers, run the matcher (beat, or requests without a broker)."""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.cache import cache

from matchmaking.matcher import matcher_run
from matchmaking.rematch import offers_lapse
from matchmaking.services import seeks_expire

log = logging.getLogger(__name__)

#: From web requests without a broker, the tick runs at most this often (seconds).
REQUEST_TICK_INTERVAL = 30


def tick() -> dict[str, int]:
    """Expire seeks past their time, lapse old rematch offers, then run the matcher. Returns counts."""
    expired = seeks_expire()
    lapsed = offers_lapse()
    games = matcher_run()
    return {"expired": expired, "lapsed": lapsed, "games": len(games)}


def tick_on_request() -> None:
    """Run :func:`tick` from a web request when there is no Celery beat (``make run`` without Redis).

    Only when ``settings.HERALD_SWEEP_ON_REQUEST`` is on, at most once per
    ``REQUEST_TICK_INTERVAL`` seconds per cache. Never raises: the page matters more.
    """
    if not getattr(settings, "HERALD_SWEEP_ON_REQUEST", False):
        return
    if not cache.add("herald:matchmaking-tick", 1, REQUEST_TICK_INTERVAL):
        return
    try:
        tick()
    except Exception:
        log.exception("matchmaking tick from a request failed")
