"""Warm-up before serving: the master compiles what every worker needs; a worker starts even with services down."""

from __future__ import annotations

import pytest
from django.template import engines

from website import warmup

pytestmark = pytest.mark.django_db


def _cached_loader():
    """The cached template loader, inside django-template-partials' wrapper."""
    (outer,) = engines["django"].engine.template_loaders
    return outer.loaders[0]


def test_the_master_warm_up_compiles_the_pages_templates():
    cached = _cached_loader()
    cached.reset()
    warmup.warm_process()
    compiled = {key.split("-")[0] for key in cached.get_template_cache}
    assert {"games/game.html", "games/lobby.html", "dominion/board.html", "base.html"} <= compiled, compiled


def test_a_worker_warm_up_survives_a_broker_that_is_down(settings, monkeypatch):
    """A broker down at boot must not stop a worker from starting; the first request meets it as it would."""
    settings.CELERY_TASK_ALWAYS_EAGER = False
    from website.celery import app

    def down():
        raise OSError("broker down")

    monkeypatch.setattr(app, "producer_or_acquire", down)
    warmup.warm_worker()  # logs, does not raise
