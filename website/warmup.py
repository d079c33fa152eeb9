"""Warm a web process before it serves, so no player's request pays for the process's first use.

Django and Celery do much work lazily, once per process: the URL resolver,
compiling each template (the cached loader), each language's translation
catalogue, importing the engines, Celery's Redis transport and the broker
connection. Measured on the load machine (2026-12-02): a fresh process's
first lobby took 610 ms against 125 ms for the next, its first game page
96 ms against 45, and its first move's email queueing 180 ms against 2.

What is warmed besides the platform's own pages is each installed app's
business: an app config with a ``warm_up()`` method (``games``: the
installed games' engines and boards) does its part and names the templates
its pages draw on every visit; ``website`` sits below every app and imports
none of them.

gunicorn calls :func:`warm_process` once in the master after loading the
site (``preload_app``), so every worker forks with it done, and
:func:`warm_worker` in each worker after the fork for what cannot be
shared: connections to PostgreSQL, the cache and the broker. Both are best
effort: a service that is down at boot is logged and left to the first
request, as it would be without warming.
"""

from __future__ import annotations

import logging

from django.apps import apps

from website.celery import app

log = logging.getLogger("herald.warmup")

#: Templates the pages draw on every visit (the cached loader compiles each once per process).
TEMPLATES = (
    "base.html",
    "games/lobby.html",
    "games/game.html",
    "games/game.html#live",
    "games/game.html#chat",
    "games/generic_board.html",
    "games/replay.html",
    "games/new.html",
    "accounts/profile.html",
    "ratings/ladder.html",
    "account/login.html",
)


def warm_process() -> None:
    """Do the per-process lazy work that needs no connection (in gunicorn's master, before forking).

    Leaves no connection open: forked workers must not share sockets.
    """
    from django.conf import settings
    from django.db import connections
    from django.template import TemplateDoesNotExist
    from django.template.loader import get_template
    from django.urls import reverse
    from django.utils import translation

    try:
        reverse("games:lobby")  # builds the resolver's reverse tables
        templates = list(TEMPLATES)
        for config in apps.get_app_configs():
            if warm_up := getattr(config, "warm_up", None):
                templates.extend(warm_up())
        for name in templates:
            try:
                get_template(name)
            except TemplateDoesNotExist:
                log.warning("warm-up: no template %s", name)
        for code, _name in settings.LANGUAGES:
            with translation.override(code):
                translation.gettext("Lobby")  # loads the language's catalogues

        app.connection_for_write().transport  # noqa: B018 - imports kombu's Redis transport, connects nothing
        app.amqp.router  # noqa: B018 - Celery's routing and message set-up, also lazy
    except Exception:  # warming must never stop a server from starting
        log.warning("warm-up of the process failed", exc_info=True)
    finally:
        connections.close_all()


def warm_worker() -> None:
    """Open this process's connections to PostgreSQL, the cache and the broker (after the fork)."""
    from django.core.cache import cache
    from django.db import connection

    try:
        connection.ensure_connection()
        cache.get("herald:warmup")
    except Exception:
        log.warning("warm-up: database or cache not reachable", exc_info=True)
    from django.conf import settings

    if settings.CELERY_TASK_ALWAYS_EAGER:
        return
    try:
        with app.producer_or_acquire() as producer:
            producer.connection.ensure_connection(max_retries=1)
            for queue in app.amqp.queues.values():
                producer.maybe_declare(queue)
    except Exception:
        log.warning("warm-up: broker not reachable", exc_info=True)
