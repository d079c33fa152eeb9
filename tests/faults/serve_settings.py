"""Settings of the processes that tests/faults/test_redis_restarts.py starts: the site's own, static files aside.

Everything comes from ``website.settings`` and the environment (production
defaults: DEBUG off, fail-soft cache, Celery on Redis), except that static
files are named plainly instead of from the manifest that ``make serve``
builds with ``collectstatic``, which would write into the checkout and take
most of the test's time.
"""

from __future__ import annotations

from tests.settings import *  # noqa: F403 - the tests' settings (the site's, with the counter game), but for static file names

STORAGES = {**STORAGES, "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}  # noqa: F405
