"""gunicorn settings for Herald's web process, from the environment.

``HOST`` and ``PORT`` (default 127.0.0.1:8000: put a proxy or load balancer
in front, or set HOST=0.0.0.0), ``WEB_CONCURRENCY`` (worker processes,
default one per core + 1), ``WEB_WORKER_CLASS`` (default
``uvicorn_worker.UvicornWorker``: ASGI, ``website.asgi``, so a process holds
thousands of open pages' streams on its event loop while ordinary views run
in threads; ``sync`` with ``website.wsgi`` serves without push, and the pages
poll), ``WEB_THREADS`` (threads per sync worker). Gunicorn reads this file
from the working directory by itself; ``GUNICORN_CMD_ARGS`` can still
override any of it.
"""

from __future__ import annotations

import gc
import os

bind = f"{os.environ.get('HOST', '127.0.0.1')}:{os.environ.get('PORT', '8000')}"
worker_class = os.environ.get("WEB_WORKER_CLASS", "uvicorn_worker.UvicornWorker")
# An ASGI worker runs views in threads beside its event loop: one per core (+1) keeps the cores busy, and each
# process renders a pushed move once per view, so more processes would only draw the same moves more often.
workers = int(os.environ.get("WEB_CONCURRENCY", (os.cpu_count() or 1) + 1))
threads = int(os.environ.get("WEB_THREADS", "1"))
# Sync workers: every request is short (a move is a few milliseconds); a slower one is stuck. ASGI workers
# only prove they are alive within it (their streams stay open for hours).
timeout = 30
graceful_timeout = 20
keepalive = 5
# Recycle workers now and then, so slow memory growth never adds up.
max_requests = 5000
max_requests_jitter = 500
# Load the site once before forking: faster starts, shared memory pages.
preload_app = True
# Each request is logged once, by ops.middleware.request_log, as structured JSON.
accesslog = None
errorlog = "-"


def pre_fork(server, worker):
    """Freeze what loading the site allocated before a worker forks (``gc.freeze``).

    The site is loaded once in the master (``preload_app``). Frozen objects
    leave the collector's generations, so a worker's full collections no
    longer walk all of Django (70-80 ms each on the load run's machine, once
    every few hundred requests: a p99 spike), and the pages the workers
    share with the master stay shared instead of being copied when the
    collector touches them. See the ``gc.freeze`` documentation.
    """
    gc.freeze()


def when_ready(server):
    """Once, in the master, with the site loaded: do its per-process lazy work (``website.warmup``)."""
    from website.warmup import warm_process  # gunicorn reads this file before Django is set up

    warm_process()


def post_fork(server, worker):
    """In each worker: open its own connections before it takes a request (``website.warmup``)."""
    from website.warmup import warm_worker  # gunicorn reads this file before Django is set up

    warm_worker()
