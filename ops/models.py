"""The Celery heartbeat: one row per beat task, stamped each time it runs.

It lives in the database (not the cache) so that a stamp proves the whole
chain beat -> broker -> worker -> database works, and survives a cache flush.
"""

from __future__ import annotations

from django.db import models


class Heartbeat(models.Model):
    """When a periodic task last ran in a worker.

    Attributes:
        name: which heartbeat ("celery" for ``ops.tasks.heartbeat``).
        stamped: when the task last ran (UTC).
    """

    name = models.CharField(max_length=40, unique=True)
    stamped = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.name} at {self.stamped:%Y-%m-%d %H:%M:%S}"
