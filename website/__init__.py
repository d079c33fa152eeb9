"""Herald's project package (named ``website`` because the stdlib owns ``site``)."""

from __future__ import annotations

# Load the Celery app whenever Django starts, so @shared_task uses it.
from website.celery import app as celery_app

__all__ = ("celery_app",)
