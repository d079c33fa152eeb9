"""The settings page's API section: making and revoking tokens, turning a fresh account into a bot account.

The section itself (``api/_settings_section.html``) is drawn inside the
account settings page; these views take its forms' posts.
"""

from __future__ import annotations

import secrets
from http import HTTPStatus
from typing import TYPE_CHECKING

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
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


#: Session key naming the cache entry that holds a token made a moment ago, until its page shows it (once).
NEW_TOKEN_SESSION_KEY = "api_new_token"
#: Seconds the raw token waits in the cache for its page (the redirect right after the form).
NEW_TOKEN_TTL = 600


@login_required
@never_cache
def token_create(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Make a token from the settings form (POST), then send the browser to the page that shows it once.

    Post/redirect/get: reloading the page that shows the token never posts the form again (which would
    make a second token). The raw token waits for that page in the cache only (at most ``NEW_TOKEN_TTL``
    seconds; the session holds just the entry's random name), never in the database, where Herald keeps
    only the token's hash. With no cache to hold it (Redis down), the token is shown in the answer to
    the form itself, as before. A GET (a bookmarked or typed address) goes to the settings.
    """
    if request.method != "POST":
        return _settings()
    scopes = [s for s in request.POST.getlist("scopes") if s in SCOPES]
    try:
        token, raw = tokens.token_create(user=request.user, name=request.POST.get("name", ""), scopes=scopes)
    except tokens.TokenError as exc:
        messages.error(request, str(exc))
        return _settings()
    entry = f"api-new-token:{secrets.token_urlsafe(16)}"
    cache.set(entry, {"id": token.pk, "user": request.user.pk, "raw": raw}, NEW_TOKEN_TTL)
    if cache.get(entry) is None:
        return render(request, "api/token_created.html", {"token": token, "raw": raw}, status=HTTPStatus.CREATED)
    request.session[NEW_TOKEN_SESSION_KEY] = entry
    return redirect("api_token_new")


@login_required
@never_cache
def token_new(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Show the token just made, this once; afterwards (a reload, another tab) go back to the settings.

    The token must still be the signed-in user's and unrevoked, else nothing is shown.
    """
    entry = request.session.pop(NEW_TOKEN_SESSION_KEY, None)
    made = cache.get(entry) if isinstance(entry, str) and entry.startswith("api-new-token:") else None
    if made is not None:
        cache.delete(entry)
    token = None
    if isinstance(made, dict) and made.get("user") == request.user.pk:
        token = next((t for t in tokens.active_tokens(request.user) if t.pk == made.get("id")), None)
    if token is None or not isinstance(made, dict):
        messages.info(request, _("A new token is shown only once. If you did not copy it, revoke it and make another."))
        return _settings()
    return render(request, "api/token_created.html", {"token": token, "raw": made["raw"]})


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
