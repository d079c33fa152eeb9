"""Errors as RFC 9457 problem details (``application/problem+json``), and the map from the services' errors.

Every refusal the API sends is a :class:`Problem`: ``type`` (``about:blank``:
the status says it), ``title`` (the status's phrase, translated), ``status``,
``detail`` (a sentence for the player, in the request's language) and
``code`` (a stable word for programs), with ``current_seq`` on a stale
move and ``retry_after`` on a rate limit (as the ``Retry-After`` header).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime
from functools import wraps
from http import HTTPStatus
from inspect import iscoroutinefunction
from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.http.response import HttpResponseBase
from django.utils.translation import gettext as _
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, HttpError, ValidationError

from games import services
from games.i18n import refusal_text

CONTENT_TYPE = "application/problem+json"
#: Every API answer is about its token's user: no shared cache keeps it, nor the client's disk.
NO_STORE = "private, no-store"
#: The error statuses every operation may answer (documented on each of them).
ERROR_STATUSES = (400, 401, 403, 404, 409, 422, 429)


class Problem(Exception):
    """A refusal to send as problem details.

    Args:
        status: the HTTP status.
        code: a stable word for programs ("stale_move", "illegal_move", ...).
        detail: a sentence for the player.
        extra: more members of the problem object (``current_seq``).
        headers: response headers (``Retry-After``).
    """

    def __init__(
        self,
        status: int,
        code: str,
        detail: str,
        *,
        extra: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(detail)
        self.status = status
        self.code = code
        self.detail = detail
        self.extra = extra or {}
        self.headers = headers or {}


def _titles() -> dict[int, str]:
    """The statuses' phrases in the request's language (English: HTTP's own phrases)."""
    return {
        400: _("Bad Request"),
        401: _("Unauthorized"),
        403: _("Forbidden"),
        404: _("Not Found"),
        409: _("Conflict"),
        422: _("Unprocessable Entity"),
        405: _("Method Not Allowed"),
        429: _("Too Many Requests"),
    }


def _loc(loc: Any) -> list[str]:
    """A validation error's place, with django-ninja's doubled "body" (the parameter's name) said once."""
    parts = [str(p) for p in loc]
    if parts[:2] == ["body", "body"]:
        del parts[0]
    return parts


def problem_response(problem: Problem) -> HttpResponse:
    """Render ``problem`` as an ``application/problem+json`` response."""
    body = {
        "type": "about:blank",
        "title": _titles().get(problem.status, HTTPStatus(problem.status).phrase),
        "status": problem.status,
        "detail": problem.detail,
        "code": problem.code,
        **problem.extra,
    }
    response = HttpResponse(json.dumps(body, ensure_ascii=False), status=problem.status, content_type=CONTENT_TYPE)
    response["Cache-Control"] = NO_STORE
    for name, value in problem.headers.items():
        response[name] = value
    return response


def methods_as_problems(view: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap one of django-ninja's path views so that a method the address does not take is a 405 as problem
    details (with its ``Allow`` header), as every other refusal of the API, instead of ninja's plain text
    page. ``view`` may be async (ninja makes one where an operation is); the wrapper is the same kind."""

    def answer(request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        if not isinstance(response, HttpResponseNotAllowed):
            return response
        detail = _("This address does not take %(method)s requests.") % {"method": request.method}
        problem = problem_response(Problem(HTTPStatus.METHOD_NOT_ALLOWED, "method_not_allowed", detail))
        problem["Allow"] = response["Allow"]
        return problem

    if iscoroutinefunction(view):

        @wraps(view)
        async def async_view(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
            return answer(request, await view(request, *args, **kwargs))

        return async_view

    @wraps(view)
    def sync_view(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        return answer(request, view(request, *args, **kwargs))

    return sync_view


def account_suspended(until: datetime | None) -> Problem:
    """403 ``account_suspended``: the moderators banned the token's user (for good, or ``until`` a time, UTC).

    The tokens are kept: they work again once a time-limited ban ends or a
    moderator lifts it, as signing in on the site does.
    """
    if until is None:
        detail = _("Your Herald account has been suspended.")
    else:
        detail = _("Your Herald account has been suspended until %(when)s (UTC).") % {
            "when": until.astimezone(UTC).strftime("%Y-%m-%d %H:%M")
        }
    return Problem(
        HTTPStatus.FORBIDDEN,
        "account_suspended",
        detail,
        extra={"until": until.astimezone(UTC).isoformat() if until is not None else None},
    )


def from_service_error(exc: Exception) -> Problem:
    """The problem for an error of the games services (the same map as the game page's move view)."""
    if isinstance(exc, services.AccountRestricted):
        # Banned between the token's check and the move (the check at the door answers with the ban's end).
        return Problem(HTTPStatus.FORBIDDEN, "account_suspended", str(exc), extra={"until": None})
    if isinstance(exc, services.StaleMove):
        # The services' sentence speaks of a page; a program sent expected_seq.
        detail = _("The game has moved on since expected_seq: read the game again and send a move for where it is now.")
        return Problem(HTTPStatus.CONFLICT, "stale_move", str(detail), extra={"current_seq": exc.current_seq})
    if isinstance(exc, services.IllegalMove):
        # The engines speak English; the reader gets the sentence in the request's language, as on the page.
        return Problem(
            HTTPStatus.UNPROCESSABLE_ENTITY,
            "illegal_move",
            refusal_text(exc.reason, exc.code),
            extra={"reason": exc.code},
        )
    if isinstance(exc, services.InvalidOptions):
        return Problem(HTTPStatus.UNPROCESSABLE_ENTITY, "invalid_options", str(exc))
    if isinstance(exc, services.NotYourMove):
        return Problem(HTTPStatus.FORBIDDEN, "not_your_move", str(exc))
    if isinstance(exc, services.LockTimeout):
        return Problem(HTTPStatus.CONFLICT, "busy", _("The game is busy; please try again."))
    if isinstance(exc, services.GameNotActive):
        return Problem(HTTPStatus.CONFLICT, "game_not_active", str(exc))
    if isinstance(exc, services.CannotJoin):
        return Problem(HTTPStatus.FORBIDDEN, "cannot_join", str(exc))
    if isinstance(exc, services.ChatRateLimited):
        wait = int(settings.CHAT_RATE_WINDOW)
        return Problem(
            HTTPStatus.TOO_MANY_REQUESTS,
            "rate_limited",
            str(exc),
            extra={"retry_after": wait},
            headers={"Retry-After": str(wait)},
        )
    if isinstance(exc, services.ChatRefused):
        return Problem(HTTPStatus.FORBIDDEN, "chat_refused", str(exc))
    return Problem(HTTPStatus.BAD_REQUEST, "refused", str(exc))


def install(api: NinjaAPI) -> None:
    """Answer every error ``api`` meets with problem details (never Django's HTML pages)."""
    # The handlers' ``exc`` is ``Any``: django-ninja types it "the exception or its class" (``Exc[_E]``),
    # though it always passes the exception raised, so no handler written for an instance would check.

    def on_problem(request: HttpRequest, exc: Any) -> HttpResponse:
        assert isinstance(exc, Problem)
        return problem_response(exc)

    def on_service(request: HttpRequest, exc: Any) -> HttpResponse:
        return problem_response(from_service_error(exc))

    def on_auth(request: HttpRequest, exc: Any) -> HttpResponse:
        problem = Problem(
            HTTPStatus.UNAUTHORIZED,
            "unauthorized",
            _("Send a valid personal access token: Authorization: Bearer <token>."),
            headers={"WWW-Authenticate": 'Bearer realm="herald"'},
        )
        return problem_response(problem)

    def on_validation(request: HttpRequest, exc: Any) -> HttpResponse:
        assert isinstance(exc, ValidationError)
        errors = [{"loc": _loc(e.get("loc", ())), "msg": str(e.get("msg", ""))} for e in exc.errors[:20]]
        problem = Problem(
            HTTPStatus.BAD_REQUEST, "invalid_request", _("The request is malformed."), extra={"errors": errors}
        )
        return problem_response(problem)

    def on_404(request: HttpRequest, exc: Any) -> HttpResponse:
        return problem_response(Problem(HTTPStatus.NOT_FOUND, "not_found", _("Not found.")))

    def on_http_error(request: HttpRequest, exc: Any) -> HttpResponse:
        assert isinstance(exc, HttpError)
        if exc.status_code == HTTPStatus.BAD_REQUEST:
            # django-ninja's one 400 of its own, "Cannot parse request body": the body is not JSON.
            return problem_response(
                Problem(HTTPStatus.BAD_REQUEST, "malformed_json", _("The request body is not valid JSON."))
            )
        return problem_response(Problem(exc.status_code, "invalid_request", _("The request is malformed.")))

    api.add_exception_handler(Problem, on_problem)
    api.add_exception_handler(services.ServiceError, on_service)
    api.add_exception_handler(services.IllegalMove, on_service)
    api.add_exception_handler(services.InvalidOptions, on_service)
    api.add_exception_handler(services.LockTimeout, on_service)
    api.add_exception_handler(AuthenticationError, on_auth)
    api.add_exception_handler(ValidationError, on_validation)
    api.add_exception_handler(Http404, on_404)
    api.add_exception_handler(HttpError, on_http_error)
