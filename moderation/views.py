"""Users' side of moderation: report a message or a player, see one's reports, the ban page."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from accounts.http import AuthenticatedHttpRequest
from accounts.models import User
from games.models import ChatMessage, Game
from games.selectors import can_view
from moderation import services
from moderation.forms import ReportForm
from moderation.models import Report


def _report_target(request: AuthenticatedHttpRequest) -> tuple[User, ChatMessage | None, Game | None]:
    """Return ``(reported user, message, game)`` named by ``message`` or ``user`` (+ ``game``).

    Http404 for anything the reporter may not see: a private game's message,
    a hidden message, a deleted account.
    """
    params = request.POST if request.method == "POST" else request.GET
    message = game = None
    if params.get("message"):
        message = get_object_or_404(
            ChatMessage.objects.select_related("user", "game"), pk=_int(params["message"]), moderation_hidden=None
        )
        if not can_view(message.game, request.user):
            raise Http404("No such message")
        return message.user, message, message.game
    reported = get_object_or_404(User, username=params.get("user", ""), deleted__isnull=True)
    if params.get("game"):
        game = get_object_or_404(Game, pk=_int(params["game"]))
        if not can_view(game, request.user):
            raise Http404("No such game")
    return reported, None, game


def _int(value: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise Http404("Bad id") from None


@login_required
@require_http_methods(["GET", "POST"])
def report_new(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Report a chat message (``?message=<id>``) or a player (``?user=<name>[&game=<id>]``)."""
    reported, message, game = _report_target(request)
    form = ReportForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            services.report_create(
                reporter=request.user, reported=reported, message=message, game=game, **form.cleaned_data
            )
        except services.ModerationError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, _("Thank you: the moderators will look at your report."))
            return redirect("moderation:reports")
    context: dict[str, Any] = {"form": form, "reported": reported, "message": message, "game": game}
    status = HTTPStatus.BAD_REQUEST if request.method == "POST" else HTTPStatus.OK
    return render(request, "moderation/report_form.html", context, status=status)


@login_required
@require_safe
def report_list(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The signed-in user's reports with their status and the moderators' note."""
    reports = Report.objects.filter(reporter=request.user).select_related("reported", "game").order_by("-created")[:100]
    return render(request, "moderation/reports.html", {"reports": reports})


@require_safe
def banned(request: HttpRequest) -> HttpResponse:
    """Tell a refused user that their account is suspended."""
    return render(request, "moderation/banned.html", status=HTTPStatus.FORBIDDEN)
