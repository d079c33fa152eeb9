"""Pages: email settings and vacations (signed in), and unsubscribing (by signed link, no login).

Views parse and render; ``correspondence.services`` does every write.
"""

from __future__ import annotations

import json
from http import HTTPStatus
from typing import TYPE_CHECKING

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from correspondence import preferences, push, services
from correspondence.forms import NotificationSettingsForm, VacationForm
from correspondence.models import Notification
from games.locking import LockTimeout

if TYPE_CHECKING:
    from accounts.models import User


class AuthenticatedHttpRequest(HttpRequest):
    """A request from a signed-in user."""

    user: User


@login_required
@require_http_methods(["GET", "POST"])
def notification_settings(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Show and save which emails the user gets; show their vacation and days left."""
    current = services.settings_for(request.user)
    form = NotificationSettingsForm(request.POST or None, instance=current)
    if request.method == "POST" and form.is_valid():
        services.settings_update(user=request.user, **form.cleaned_data)
        messages.success(request, _("Your email settings were saved."))
        return redirect("correspondence:settings")
    now = timezone.now()
    context = {
        "form": form,
        "vacation": services.vacation_active(request.user, now),
        "vacation_form": VacationForm(),
        "days_left": max(0, services.VACATION_DAYS_PER_YEAR - services.vacation_days_used(request.user, now.year)),
        "push_key": push.public_key(),
    }
    status = HTTPStatus.BAD_REQUEST if request.method == "POST" else HTTPStatus.OK
    return render(request, "correspondence/settings.html", context, status=status)


@login_required
@require_POST
def vacation_start(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Start a vacation of the posted number of days."""
    form = VacationForm(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(str(e) for errors in form.errors.values() for e in errors))
        return redirect("correspondence:settings")
    try:
        vacation = services.vacation_start(user=request.user, days=form.cleaned_data["days"])
    except services.VacationError as exc:
        messages.error(request, str(exc))
    except LockTimeout:  # one of the user's games stayed busy: nothing was changed
        messages.error(request, _("Please try again."))
    else:
        messages.success(
            request,
            _("Your clocks are paused until %(end)s.")
            % {"end": date_format(timezone.localtime(vacation.end), "DATETIME_FORMAT")},
        )
    return redirect("correspondence:settings")


@login_required
@require_POST
def vacation_end(request: AuthenticatedHttpRequest) -> HttpResponse:
    """End the running vacation now."""
    try:
        ended = services.vacation_end(user=request.user)
    except LockTimeout:  # one of the user's games stayed busy: nothing was changed
        messages.error(request, _("Please try again."))
    else:
        if ended is not None:
            messages.success(request, _("Welcome back: your clocks are running again."))
    return redirect("correspondence:settings")


# The token is the credential, and RFC 8058 mail clients POST without a
# CSRF token, so this one view is exempt.
@csrf_exempt
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """GET: a page with one button; POST (that button, or the mail client): turn the emails off.

    The token (``correspondence.services.unsubscribe_token``) is signed, not
    encrypted, and has no expiry, deliberately: it carries only the user's
    id and the kind of email, and can only turn that kind off (undone at
    ``/settings/email/``, never a sign-in), while an email read months later
    must still unsubscribe in one click (RFC 8058). Rotating ``SECRET_KEY``
    keeps old links working while the old key stays in
    ``SECRET_KEY_FALLBACKS``. Status 400 for a token that is not ours.
    """
    try:
        signing.loads(token, salt=preferences.UNSUBSCRIBE_SALT)
    except signing.BadSignature:
        return render(request, "correspondence/unsubscribe.html", {"bad": True}, status=HTTPStatus.BAD_REQUEST)
    if request.method == "GET":
        return render(request, "correspondence/unsubscribe.html", {"token": token})
    try:
        _user, kind = services.unsubscribe(token=token)
    except (signing.BadSignature, LookupError):
        return render(request, "correspondence/unsubscribe.html", {"bad": True}, status=HTTPStatus.BAD_REQUEST)
    return render(
        request, "correspondence/unsubscribe.html", {"done": True, "kind_label": Notification.Kind(kind).label}
    )


def _posted_json(request: HttpRequest) -> object:
    """The request's JSON body, or None when it is not JSON (a 400 for the caller)."""
    try:
        return json.loads(request.body or b"null")
    except (ValueError, UnicodeDecodeError):
        return None


@login_required
@require_POST
def push_subscribe(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Keep this browser's Web Push subscription (its ``toJSON()`` as the body): 204, or 400 with the reason."""
    if not push.push_enabled():
        return HttpResponse(_("Browser notifications are not set up on this site."), status=HTTPStatus.NOT_FOUND)
    try:
        row = push.subscription_save(user=request.user, data=_posted_json(request))
    except push.InvalidSubscription as exc:
        return HttpResponseBadRequest(str(exc))
    request.session[push.SESSION_ENDPOINT] = row.endpoint  # signing out drops it (push.on_signed_out)
    return HttpResponse(status=HTTPStatus.NO_CONTENT)


def _posted_endpoint(request: HttpRequest) -> str | None:
    """The ``endpoint`` of the posted JSON (``{"endpoint": ...}``), or None when there is none usable."""
    data = _posted_json(request)
    endpoint = data.get("endpoint") if isinstance(data, dict) else None
    return endpoint if isinstance(endpoint, str) and push.storable(endpoint) else None


@login_required
@require_POST
def push_check(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Is this browser's subscription (``{"endpoint": ...}``) the signed-in user's? 204 yes, 404 no.

    Another account's subscription of this browser is dropped (``push.subscription_claim``), and on 404
    the page's script unsubscribes the browser, so nobody gets notices meant for someone else.
    """
    endpoint = _posted_endpoint(request)
    if endpoint is None:
        return HttpResponseBadRequest(_("An endpoint is needed."))
    if push.subscription_claim(user=request.user, endpoint=endpoint):
        return HttpResponse(status=HTTPStatus.NO_CONTENT)
    return HttpResponse(status=HTTPStatus.NOT_FOUND)


@login_required
@require_POST
def push_unsubscribe(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Forget this browser's subscription (``{"endpoint": ...}``): 204 whether or not it was known."""
    endpoint = _posted_endpoint(request)
    if endpoint is None:
        return HttpResponseBadRequest(_("An endpoint is needed."))
    push.subscription_delete(user=request.user, endpoint=endpoint)
    return HttpResponse(status=HTTPStatus.NO_CONTENT)


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker that shows pushed notifications, at the site's root so its scope is the whole site."""
    response = render(request, "correspondence/push-sw.js", content_type="text/javascript")
    response["Cache-Control"] = "no-cache"  # a browser checks for a new worker on each registration
    return response
