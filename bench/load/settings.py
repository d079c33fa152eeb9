"""Settings for the load run: the site's own, plus a bare view to compare against.

Used only by ``bench/load/run.py`` (``DJANGO_SETTINGS_MODULE=bench.load.settings``);
everything else, production defaults included, comes from the environment
through ``website.settings``.
"""

from __future__ import annotations

from website.settings import *  # noqa: F403 - the site's settings, unchanged but for the URLconf

ROOT_URLCONF = "bench.load.urls"
