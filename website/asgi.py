"""ASGI entry point: what `make run` (uvicorn) and `make serve` (gunicorn's uvicorn workers) serve.

Over ASGI the game pages' and the lobby's streams (Server-Sent Events,
``games/views/live.py``) wait on the event loop, so a process holds
thousands of open pages; ordinary views still run in threads.
``HERALD_ASGI`` tells the settings (``CONN_MAX_AGE`` 0: see
``website/settings.py``). ``HERALD_WARM_UP=1`` (set by ``make run``) warms the
process as it loads (``website.warmup.warm_process``).
"""

from __future__ import annotations

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "website.settings")
os.environ.setdefault("HERALD_ASGI", "1")
# The API's long poll waits on the live hub here (api.stream.read), holding no worker: it may always wait.
os.environ.setdefault("HERALD_API_EVENTS_MAX_WAIT", "25")

from django.core.asgi import get_asgi_application  # noqa: E402  (after the environment it reads)

application = get_asgi_application()

if os.environ.get("HERALD_WARM_UP") == "1":
    # `make run` serves with uvicorn alone, which has no hook like gunicorn's (gunicorn.conf.py warms its
    # master): warm this process here, or the first visitor pays for it (website/warmup.py).
    from website.warmup import warm_process

    warm_process()
