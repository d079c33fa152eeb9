"""Structured logs: one line per request and per Celery task, ids only.

``JsonFormatter`` writes each record as one JSON object per line (what log
shippers read); ``TextFormatter`` appends the same fields as ``key=value``
for a developer's terminal. Fields that name people (usernames, emails, IP
addresses, user agents, query strings) are never logged: a user or a game is
named by its id.
"""

from __future__ import annotations

import json
import logging
import time
from datetime import UTC, datetime
from typing import Any

#: One line per request (``ops.middleware.request_log``).
request_log = logging.getLogger("herald.request")
#: One line per Celery task, and tracebacks of failed tasks.
task_log = logging.getLogger("herald.task")

# Everything a LogRecord carries by itself; any other attribute came from ``extra=``.
_STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", (), None))) | {"message", "asctime", "taskName"}


def record_fields(record: logging.LogRecord) -> dict[str, Any]:
    """Return the ``extra=`` fields of a record (those a LogRecord does not carry by itself)."""
    return {k: v for k, v in vars(record).items() if k not in _STANDARD and not k.startswith("_")}


class JsonFormatter(logging.Formatter):
    """Format a record as one line of JSON: ts, level, logger, msg, the extra fields, and exc."""

    def format(self, record: logging.LogRecord) -> str:
        """Return the record as a single JSON line (a traceback is a string field, not extra lines)."""
        line: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "msg": record.getMessage(),
        }
        line.update(record_fields(record))
        if record.exc_info:
            line["exc"] = self.formatException(record.exc_info)
        elif record.stack_info:
            line["stack"] = self.formatStack(record.stack_info)
        return json.dumps(line, default=str, ensure_ascii=False)


class TextFormatter(logging.Formatter):
    """The usual ``time level logger message`` line, followed by the extra fields as ``key=value``."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        """Return the plain line with the extra fields appended; tracebacks follow on their own lines."""
        fields = " ".join(f"{k}={v}" for k, v in record_fields(record).items())
        text = super().format(record)
        if not fields:
            return text
        first, sep, rest = text.partition("\n")
        return f"{first} {fields}{sep}{rest}"


# ---------------------------------------------------------------------------
# Celery tasks

_started: dict[str, float] = {}


def _ids(args: Any) -> list[int] | int:
    """The task's arguments if they are all ids (ints), else only how many there were."""
    args = list(args or ())
    return args if all(isinstance(a, int) and not isinstance(a, bool) for a in args) else len(args)


def _task_prerun(task_id: str | None = None, **_kwargs: Any) -> None:
    if task_id:
        _started[task_id] = time.perf_counter()


def _task_postrun(
    task_id: str | None = None, task: Any = None, args: Any = None, state: str | None = None, **_kwargs: Any
) -> None:
    started = _started.pop(task_id or "", None)
    duration = round((time.perf_counter() - started) * 1000, 1) if started is not None else None
    task_log.info(
        "task",
        extra={
            "task": getattr(task, "name", None),
            "task_id": task_id,
            "task_args": _ids(args),
            "state": state,
            "duration_ms": duration,
        },
    )


def _task_failure(
    task_id: str | None = None,
    exception: BaseException | None = None,
    args: Any = None,
    sender: Any = None,
    einfo: Any = None,
    **_kwargs: Any,
) -> None:
    exc_info = (type(exception), exception, exception.__traceback__) if exception is not None else None
    task_log.error(
        "task failed",
        exc_info=exc_info,
        extra={"task": getattr(sender, "name", None), "task_id": task_id, "task_args": _ids(args)},
    )


def connect_task_signals() -> None:
    """Log each Celery task once when it ends (name, id, id arguments, state, duration), failures with a traceback."""
    from celery.signals import task_failure, task_postrun, task_prerun

    task_prerun.connect(_task_prerun, weak=False, dispatch_uid="herald-task-prerun")
    task_postrun.connect(_task_postrun, weak=False, dispatch_uid="herald-task-postrun")
    task_failure.connect(_task_failure, weak=False, dispatch_uid="herald-task-failure")
