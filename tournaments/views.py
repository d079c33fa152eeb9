"""The tournament pages: the list, a tournament (standings, rounds, tables, games), sign-up and withdraw,
and the moderators' forms. Thin: parse, call one service, render."""

from __future__ import annotations

from http import HTTPStatus

from asgiref.sync import sync_to_async
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.handlers.asgi import ASGIRequest
from django.http import Http404, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from accounts.http import AuthenticatedHttpRequest
from accounts.models import User
from games import live
from games.views import live as live_views
from ops import live_hub
from tournaments import moderators, selectors, services
from tournaments.forms import AdjustForm, CancelForm, RemoveForm, TournamentForm
from tournaments.models import Tournament


@require_safe
def tournament_list(request: HttpRequest) -> HttpResponse:
    """Tournaments open for sign-up, running, and finished."""
    services.tick_on_request()
    context = {**selectors.tournament_lists(), "moderator": selectors.is_moderator(request.user)}
    return render(request, "tournaments/list.html", context)


@require_safe
def tournament_detail(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """A tournament's page: what it is, sign-up or withdraw, the standings, the rounds and their games."""
    services.tick_on_request()
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    context = selectors.detail_context(tournament, request.user)
    if tournament.is_signup and request.user.is_authenticated and context["entry"] is None:
        context["refusal"] = services.signup_refusal(tournament, request.user)
    return render(request, "tournaments/detail.html", context)


@require_safe
def tournament_standings(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The standings alone (the page refreshes them with htmx)."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    return render(request, "tournaments/_standings.html", selectors.standings_context(tournament))


@require_safe
async def tournament_live(request: HttpRequest, tournament_id: int) -> HttpResponseBase:
    """The page's stream (``games/views/live.py``): event ``tournament`` when its standings may have changed."""
    if not isinstance(request, ASGIRequest):
        return live_views.unavailable()
    if not await Tournament.objects.filter(pk=tournament_id).aexists():
        raise Http404("No such tournament")
    the_hub = live_hub.hub()
    if not await the_hub.wait_ready(live_views.READY_WAIT):
        return live_views.unavailable()
    await sync_to_async(live_views.close_connections)()
    listener = live_hub.Listener([live.tournament_topic(tournament_id)])
    the_hub.add(listener)
    connection = live.new_connection("tournament", None)
    return live_views.event_stream(live_views.stream_events(listener, connection, nudge="tournament"))


def _done(request: HttpRequest, tournament_id: int, error: Exception | None, ok: str) -> HttpResponse:
    if error is not None:
        messages.error(request, str(error))
    else:
        messages.success(request, ok)
    return redirect("tournaments:detail", tournament_id=tournament_id)


@login_required
@require_POST
def tournament_signup(request: AuthenticatedHttpRequest, tournament_id: int) -> HttpResponse:
    """Sign the user up."""
    get_object_or_404(Tournament, pk=tournament_id)
    try:
        services.tournament_signup(tournament_id=tournament_id, user=request.user)
    except services.TournamentError as exc:
        return _done(request, tournament_id, exc, "")
    return _done(request, tournament_id, None, _("You are signed up."))


@login_required
@require_POST
def tournament_withdraw(request: AuthenticatedHttpRequest, tournament_id: int) -> HttpResponse:
    """Take the user out (their running games in it are forfeited)."""
    get_object_or_404(Tournament, pk=tournament_id)
    if request.POST.get("confirm") != "yes":
        return _done(request, tournament_id, services.TournamentError(_("Tick the box to confirm.")), "")
    try:
        services.tournament_withdraw(tournament_id=tournament_id, user=request.user)
    except services.TournamentError as exc:
        return _done(request, tournament_id, exc, "")
    return _done(request, tournament_id, None, _("You have left the tournament."))


def _require_moderator(request: HttpRequest) -> None:
    if not selectors.is_moderator(request.user):
        raise PermissionDenied(_("You are not allowed to do this."))


@login_required
@require_http_methods(["GET", "POST"])
def tournament_new(request: AuthenticatedHttpRequest) -> HttpResponse:
    """A moderator's form for a new tournament."""
    _require_moderator(request)
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = moderators.tournament_create(moderator=request.user, **form.create_kwargs())
        except services.TournamentError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, _("Tournament created."))
            return redirect(tournament)
    status = HTTPStatus.BAD_REQUEST if request.method == "POST" else HTTPStatus.OK
    return render(request, "tournaments/new.html", {"form": form}, status=status)


@login_required
@require_POST
def tournament_cancel(request: AuthenticatedHttpRequest, tournament_id: int) -> HttpResponse:
    """A moderator cancels the tournament."""
    _require_moderator(request)
    form = CancelForm(request.POST)
    if not form.is_valid():
        return _done(request, tournament_id, services.TournamentError(_("The reason is too long.")), "")
    try:
        moderators.tournament_cancel(
            moderator=request.user, tournament_id=tournament_id, reason=form.cleaned_data["reason"]
        )
    except services.TournamentError as exc:
        return _done(request, tournament_id, exc, "")
    return _done(request, tournament_id, None, _("Tournament cancelled."))


@login_required
@require_POST
def tournament_remove(request: AuthenticatedHttpRequest, tournament_id: int) -> HttpResponse:
    """A moderator removes a player."""
    _require_moderator(request)
    form = RemoveForm(request.POST)
    if not form.is_valid():
        return _done(request, tournament_id, services.TournamentError(_("Choose a player.")), "")
    user = get_object_or_404(User, pk=form.cleaned_data["user"])
    try:
        moderators.entry_remove(
            moderator=request.user, tournament_id=tournament_id, user=user, reason=form.cleaned_data["reason"]
        )
    except services.TournamentError as exc:
        return _done(request, tournament_id, exc, "")
    return _done(request, tournament_id, None, _("Player removed."))


@login_required
@require_POST
def tournament_adjust(request: AuthenticatedHttpRequest, tournament_id: int) -> HttpResponse:
    """A moderator sets a player's points at one table."""
    _require_moderator(request)
    form = AdjustForm(request.POST)
    if not form.is_valid():
        return _done(request, tournament_id, services.TournamentError(_("Points at a table are between 0 and 1.")), "")
    try:
        moderators.result_adjust(
            moderator=request.user,
            tournament_id=tournament_id,
            seat_id=form.cleaned_data["seat"],
            points=form.cleaned_data["points"],
            reason=form.cleaned_data["reason"],
        )
    except services.TournamentError as exc:
        return _done(request, tournament_id, exc, "")
    return _done(request, tournament_id, None, _("Result adjusted."))
