"""ASGI entry point: what `make run` (uvicorn) and `make serve` (gunicorn's uvicorn workers) serve.

Over ASGI the game pages' and the lobby's streams (Server-Sent Events,
``games/views/live.py``) wait on the event loop, so a process holds
thousands of open pages; ordinary views still run in threads.
``HERALD_ASGI`` tells the settings (``CONN_MAX_AGE`` 0: see
``website/settings.py``).
"""

from __future__ import annotations

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "website.settings")
os.environ.setdefault("HERALD_ASGI", "1")
# The API's long poll waits on the live hub here (api.stream.read), holding no worker: it may always wait.
os.environ.setdefault("HERALD_API_EVENTS_MAX_WAIT", "25")

from django.core.asgi import get_asgi_application  # noqa: E402  (after the environment it reads)

application = get_asgi_application()
