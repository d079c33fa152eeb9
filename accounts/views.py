"""Account pages: profiles, settings, account deletion, blocking, the language switch.

Views parse requests and render; ``accounts.services`` does every write,
``accounts.selectors`` every read (the profile's sections of other apps come from their tag libraries). Email
addresses and passwords are allauth's pages (linked from settings).
"""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template import TemplateDoesNotExist
from django.template.loader import select_template
from django.urls import NoReverseMatch, reverse
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django.views.i18n import set_language

from accounts import policy, selectors, services
from accounts.forms import DeleteAccountForm, SettingsForm
from accounts.http import AuthenticatedHttpRequest
from accounts.models import User
from website.db import reads_from_replica

#: The correspondence app's settings section (notification choices, vacation), if it exists yet.
NOTIFICATION_SECTION_TEMPLATES = ["correspondence/_settings_section.html", "notifications/_settings_section.html"]
NOTIFICATION_SETTINGS_URLS = ["correspondence:settings", "notifications:settings"]


def get_profile_user(username: str) -> User:
    """Return the user shown at ``/players/<username>/``; Http404 for unknown or deleted accounts."""
    user = get_object_or_404(User, username=username)
    if user.deleted is not None:
        raise Http404("No such player")
    return user


@require_safe
@reads_from_replica
def profile(request: HttpRequest, username: str) -> HttpResponse:
    """A player's page: ratings with history charts, record, current and finished games, head-to-head.

    ``accounts`` sits below the apps whose sections the page shows, so it reads none of them: the
    template draws each from its app's tag library (games' ``player_games``, ``ratings_tags``,
    ``stats_tags``, ``matchmaking_tags``), all in this view's call (so from the replica too).
    """
    owner = get_profile_user(username)
    viewer = request.user if request.user.is_authenticated else None
    others = viewer is not None and viewer.pk != owner.pk
    context: dict[str, Any] = {
        "owner": owner,
        "is_me": viewer is not None and viewer.pk == owner.pk,
        "i_block": others and owner.pk in selectors.blocked_ids(viewer),
    }
    return render(request, "accounts/profile.html", context)


def _notification_section() -> tuple[str | None, str | None]:
    """Return the correspondence app's settings template, or failing that its settings URL."""
    try:
        return select_template(NOTIFICATION_SECTION_TEMPLATES).template.name, None
    except TemplateDoesNotExist:
        pass
    for name in NOTIFICATION_SETTINGS_URLS:
        try:
            return None, reverse(name)
        except NoReverseMatch:
            continue
    return None, None


@login_required
@require_http_methods(["GET", "POST"])
def settings_view(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Display name, language and time zone; links to email, password, blocks and deletion."""
    form = SettingsForm.for_user(request.user, request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        user = services.user_settings_update(user=request.user, **form.cleaned_data)
        response = redirect("accounts:settings")
        if user.language:
            translation.activate(user.language)
            _set_language_cookie(response, user.language)
        messages.success(request, _("Your settings were saved."))
        return response
    section, section_url = _notification_section()
    context = {
        "form": form,
        # The standing answers for new games, of the game that has them (accounts.policy asks games).
        "standing_form": (
            form_class(initial_settings=request.user.standing_answers)
            if (form_class := policy.standing_form()) is not None
            else None
        ),
        "email_verified": selectors.has_verified_email(request.user),
        "blocks": selectors.blocks_of(request.user),
        "notification_section": section,
        "notification_url": section_url,
    }
    status = HTTPStatus.BAD_REQUEST if request.method == "POST" else HTTPStatus.OK
    return render(request, "accounts/settings.html", context, status=status)


@login_required
@require_POST
def standing_update(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Save the standing answers (for games started from now on); a bad form is shown again with a 400."""
    form_class = policy.standing_form()
    if form_class is None:
        raise Http404("No installed game has standing answers.")
    form = form_class(request.POST, initial_settings=request.user.standing_answers)
    if form.is_valid():
        services.user_standing_update(user=request.user, settings=form.cleaned_settings())
        messages.success(request, _("Your standing answers were saved. They apply to games that start from now on."))
        return redirect(reverse("accounts:settings") + "#h-standing")
    section, section_url = _notification_section()
    context = {
        "form": SettingsForm.for_user(request.user),
        "standing_form": form,
        "email_verified": selectors.has_verified_email(request.user),
        "blocks": selectors.blocks_of(request.user),
        "notification_section": section,
        "notification_url": section_url,
    }
    return render(request, "accounts/settings.html", context, status=HTTPStatus.BAD_REQUEST)


def _set_language_cookie(response: HttpResponse, code: str) -> None:
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        code,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )


@require_POST
def language_set(request: HttpRequest) -> HttpResponse:
    """The header's language switch: Django's ``set_language``, also saved to a signed-in user's settings.

    Saving it matters because a signed-in user's saved language wins over
    the cookie and the browser (``accounts.middleware.user_language``).
    """
    code = request.POST.get("language", "")
    if request.user.is_authenticated and code in dict(settings.LANGUAGES):
        user = request.user
        services.user_settings_update(
            user=user, display_name=user.display_name, language=code, time_zone=user.time_zone
        )
    return set_language(request)


@login_required
@require_http_methods(["GET", "POST"])
def account_delete(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Ask for the password and a confirmation, then delete the account and sign out."""
    form = DeleteAccountForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        services.user_delete(user=request.user)
        logout(request)
        messages.success(request, _("Your account has been deleted. Your games remain, under “deleted player”."))
        return redirect("games:lobby")
    status = HTTPStatus.BAD_REQUEST if request.method == "POST" else HTTPStatus.OK
    return render(request, "accounts/delete.html", {"form": form}, status=status)


def _back(request: HttpRequest, fallback: str) -> HttpResponse:
    target = request.POST.get("next", "")
    if target and url_has_allowed_host_and_scheme(target, {request.get_host()}, require_https=request.is_secure()):
        return redirect(target)
    return redirect(fallback)


@login_required
@require_POST
def block(request: AuthenticatedHttpRequest, username: str) -> HttpResponse:
    """Block a player: they cannot join your games, you do not invite them, their chat is hidden from you."""
    other = get_profile_user(username)
    try:
        services.block_create(blocker=request.user, blocked=other)
    except services.AccountError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("You blocked %(name)s. They are not told.") % {"name": other.shown_name})
    return _back(request, other.get_absolute_url())


@login_required
@require_POST
def unblock(request: AuthenticatedHttpRequest, username: str) -> HttpResponse:
    """Lift a block."""
    other = get_object_or_404(User, username=username)
    if services.block_delete(blocker=request.user, blocked=other):
        messages.success(request, _("You unblocked %(name)s.") % {"name": other.shown_name})
    return _back(request, reverse("accounts:settings"))
