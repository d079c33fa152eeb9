"""``/health/`` for load balancers and monitors, and ``/ops/stats/`` for staff."""

from __future__ import annotations

from http import HTTPStatus

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from accounts.http import AuthenticatedHttpRequest
from ops import health, selectors


@never_cache
@require_safe
def health_view(request: HttpRequest) -> HttpResponse:
    """200 when the database, the cache, the broker and the Celery heartbeat are fine, else 503.

    The body names each check and its state (``{"status": "ok", "checks":
    {"database": "ok", ...}}``) and nothing else: no versions, hosts or
    error messages, since anyone may ask. ``status`` is ``"degraded"`` when
    the site still serves (the database is fine; the cache, the broker or
    the heartbeat is not) and ``"failing"`` when it cannot. Needs no
    session or sign-in.
    """
    checks = health.run_checks()
    status = health.overall(checks)
    healthy = status == health.OK
    return JsonResponse(
        {"status": status, "checks": checks},
        status=HTTPStatus.OK if healthy else HTTPStatus.SERVICE_UNAVAILABLE,
    )


@login_required
@require_safe
def stats(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The staff page: games running, moves per hour and day, the outbox, overdue decisions, the heartbeat."""
    if not request.user.is_staff:
        raise PermissionDenied
    return render(request, "ops/stats.html", {"stats": selectors.site_stats()})
