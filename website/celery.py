"""The Celery application for Herald.

Configuration comes from Django settings under the ``CELERY_`` prefix
(``CELERY_BROKER_URL``, ``CELERY_TASK_ALWAYS_EAGER``, ...); tasks are found in
each installed app's ``tasks.py``. Run a worker with
``celery -A website worker -l info``.
"""

from __future__ import annotations

import os

from celery import Celery
from celery.signals import setup_logging

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "website.settings")

app = Celery("website")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@setup_logging.connect
def config_loggers(*args: object, **kwargs: object) -> None:
    """Use Django's LOGGING instead of letting Celery hijack the root logger."""
    from logging.config import dictConfig

    from django.conf import settings

    dictConfig(settings.LOGGING)
