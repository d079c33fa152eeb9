"""The settings page's API section: making and revoking tokens, turning a fresh account into a bot account.

The section itself (``api/_settings_section.html``) is drawn inside the
account settings page; these views take its forms' posts.
"""

from __future__ import annotations

from http import HTTPStatus
from typing import TYPE_CHECKING

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from accounts import services as account_services
from api import tokens
from api.models import SCOPES
from api.problems import Problem, problem_response

if TYPE_CHECKING:
    from accounts.http import AuthenticatedHttpRequest


def _settings() -> HttpResponse:
    return redirect(reverse("accounts:settings") + "#api")


@login_required
@require_POST
@never_cache
def token_create(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Make a token from the settings form and show it, this once (it is stored only as a hash)."""
    scopes = [s for s in request.POST.getlist("scopes") if s in SCOPES]
    try:
        token, raw = tokens.token_create(user=request.user, name=request.POST.get("name", ""), scopes=scopes)
    except tokens.TokenError as exc:
        messages.error(request, str(exc))
        return _settings()
    return render(request, "api/token_created.html", {"token": token, "raw": raw}, status=HTTPStatus.CREATED)


@login_required
@require_POST
def token_revoke(request: AuthenticatedHttpRequest, token_id: int) -> HttpResponse:
    """Revoke one of the user's tokens: it is refused from now on."""
    if tokens.token_revoke(user=request.user, token_id=token_id):
        messages.success(request, _("The token was revoked."))
    return _settings()


@login_required
@require_POST
def bot_account(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Turn the user's fresh account into a bot account, with the form's confirmation box ticked."""
    if request.POST.get("confirm") != "1":
        messages.error(request, _("Tick the box to confirm: a bot account stays one."))
        return _settings()
    try:
        account_services.user_make_bot(user=request.user)
    except account_services.AccountError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("This is now a bot account."))
    return _settings()


@csrf_exempt
def api_unknown(request: HttpRequest, rest: str = "") -> HttpResponse:
    """Any address under ``/api/`` that no endpoint answers: a 404 as problem details, not the site's HTML page.

    A program reading the API parses JSON; an HTML 404 page would be a
    parse error rather than the "no such address" it is.
    """
    return problem_response(Problem(HTTPStatus.NOT_FOUND, "not_found", _("The API has no such address.")))
