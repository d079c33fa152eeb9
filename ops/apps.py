"""App configuration for ops: health, logs, rate limits and the staff numbers."""

from __future__ import annotations

from django.apps import AppConfig

from ops import logs


class OpsConfig(AppConfig):
    """Running Herald: ``/health/``, structured request and task logs, rate limits, ``/ops/stats/``."""

    name = "ops"
    verbose_name = "Operations"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Connect the Celery task-log signal handlers (in web processes and workers alike)."""
        logs.connect_task_signals()
