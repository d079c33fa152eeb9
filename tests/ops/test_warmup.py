"""Warm-up before serving: the master compiles what every worker needs; a worker starts even with services down."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

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


@pytest.mark.parametrize("warm", ["1", ""])
def test_make_runs_uvicorn_process_is_warmed_as_it_loads_the_site(warm):
    """`make run` serves with uvicorn, which has no gunicorn hook: HERALD_WARM_UP=1 (the Makefile sets it)
    makes loading website.asgi compile the pages' templates, so the first visitor does not wait for it."""
    probe = (
        "import website.asgi\n"
        "from django.template import engines\n"
        "(outer,) = engines['django'].engine.template_loaders\n"
        "print(sorted(k.split('-')[0] for k in outer.loaders[0].get_template_cache))\n"
    )
    env = {**os.environ, "HERALD_WARM_UP": warm, "DJANGO_SETTINGS_MODULE": "website.settings"}
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-c", probe], env=env, cwd=root, capture_output=True, text=True, check=True)
    assert ("'games/lobby.html'" in out.stdout) == (warm == "1"), out.stdout + out.stderr
    assert "HERALD_WARM_UP=1 $(BIN)/uvicorn" in (root / "Makefile").read_text()
