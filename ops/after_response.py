"""Work that must happen because of a request, but that its answer need not wait for.

A move's fan-out (queueing its emails and the bot's turn on Celery) runs
after the move commits; the mover's answer does not depend on it, yet
publishing to the broker and reading the outbox took about 3 ms of every
move. :func:`after_response` runs such work once the response has been
handed to the WSGI server, which has then sent it: gunicorn writes the
body before it calls the response's ``close()`` (PEP 3333), and Django's
test client calls ``close()`` before it returns, so tests see the work done.

Outside a request (Celery tasks, management commands) the work runs at
once, and so it does for a request served over ASGI: Django's ASGI handler
never closes the response of a client that disconnected while the view ran,
so work deferred there would be lost (a move saved, its bot turn never
queued). Either way it runs in the same process, so nothing is lost that the
old on-commit call would have kept: a worker killed in between loses the
same work a crash just after commit did, which the periodic sweep already
repairs (the database, not the queue, says what is owed).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any

from django.core.handlers.wsgi import WSGIRequest
from django.db import close_old_connections, connections
from django.http import HttpRequest, HttpResponse

log = logging.getLogger(__name__)

#: The callables deferred by the request being handled in this thread, or None outside one.
_pending: ContextVar[list[Callable[[], Any]] | None] = ContextVar("herald_after_response", default=None)


def after_response(fn: Callable[[], Any]) -> None:
    """Run ``fn()`` once this request's response has been sent, or now outside a request.

    ``fn`` takes no arguments (use ``functools.partial``) and should not
    raise: an exception is logged with its traceback and the next deferred
    callable still runs. Deferred callables run in the order given.
    """
    pending = _pending.get()
    if pending is None:
        fn()
    else:
        pending.append(fn)


def _run(pending: list[Callable[[], Any]]) -> None:
    while pending:
        fn = pending.pop(0)
        try:
            fn()
        except Exception:  # the response is gone: log it, and let the next one run
            log.exception("deferred work %r failed", fn)


def _put_connections_away() -> None:
    """End the database connections the deferred work used, as ``request_finished`` ends a request's.

    ``close()`` ended the request (and put its connection away); the work
    after it may have taken one again, which with CONN_MAX_AGE 0 or a pool
    would otherwise stay checked out, idle, until the worker's next request.
    Not inside a transaction: only a test's own (the test client does not end
    its requests' connections either) can be open here.
    """
    if not any(conn.in_atomic_block for conn in connections.all(initialized_only=True)):
        close_old_connections()


def middleware(get_response: Callable[[HttpRequest], HttpResponse]) -> Callable[[HttpRequest], HttpResponse]:
    """Collect :func:`after_response` work during the view; run it when the server closes the response."""

    def middleware(request: HttpRequest) -> HttpResponse:
        if not isinstance(request, WSGIRequest):
            # Over ASGI a response may never be closed (the client left): nothing is deferred.
            return get_response(request)
        pending: list[Callable[[], Any]] = []
        token = _pending.set(pending)
        try:
            response = get_response(request)
        except BaseException:
            _pending.reset(token)
            _run(pending)
            raise
        _pending.reset(token)
        if pending:
            close = response.close

            def close_then_run() -> None:
                try:
                    close()
                finally:
                    _run(pending)
                    _put_connections_away()

            response.close = close_then_run  # type: ignore[method-assign]
        return response

    return middleware
