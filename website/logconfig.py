"""The site's logging configuration (``settings.LOGGING``): one line per event, JSON or text."""

from __future__ import annotations

from typing import Any


def logging_config(log_format: str, level: str) -> dict[str, Any]:
    """Return Django's ``LOGGING`` dict.

    Args:
        log_format: "json" (one JSON object per line, ``ops.logs.JsonFormatter``) or "text"
            (``ops.logs.TextFormatter``).
        level: the root logger's level name ("INFO").
    """
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": {"()": "ops.logs.JsonFormatter"}, "text": {"()": "ops.logs.TextFormatter"}},
        "handlers": {"console": {"class": "logging.StreamHandler", "formatter": log_format}},
        "root": {"handlers": ["console"], "level": level},
        "loggers": {
            "django.db.backends": {"level": "INFO"},
            # herald.request already has a line for every request; keep Django's
            # own only for errors (500s, with their traceback).
            "django.request": {"level": "ERROR"},
            # herald.task logs each task once, and failures with their traceback.
            "celery.app.trace": {"level": "CRITICAL"},
        },
    }
