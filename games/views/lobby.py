"""The lobby, creating a game, and taking or giving up a seat."""

from __future__ import annotations

import zlib
from http import HTTPStatus
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from games import kinds, policy, selectors, services
from games.forms import offered_bots, options_form
from games.i18n import name_list
from games.views.access import (
    AuthenticatedHttpRequest,
    HtmxHttpRequest,
    busy_or,
    get_game_for_player,
    get_game_for_user,
    login_required_for_game_post,
)

#: What the lobby's poll answers with when its lists changed: the lists, and the messages out of band.
LIVE_PARTS = ("games/lobby.html#lists", "_messages.html")


@require_safe
@never_cache
def lobby(request: HtmxHttpRequest) -> HttpResponse:
    """The home page: games to join, games waiting on you, your other games, games to watch, recent results.

    A signed-in player's page polls ``?v=<cursor>`` (htmx) for its own lists (invitations, your
    move, your other games, open games): 204 while they are as drawn, else that region redrawn, so
    "Your move" fills without a reload (``lobby_cursor``).
    """
    # Without a broker there is no beat: the timeout sweep runs from here, seeks expire and the matcher runs
    # (each at most so often: games.policy.request_work).
    policy.request_work("lobby")
    user = request.user if request.user.is_authenticated else None
    invitations = list(selectors.my_invitations(user)) if user else []
    invited = {g.pk for g in invitations}
    context: dict[str, Any] = {
        "invitations": invitations,
        # An invitation is shown once, in its own list.
        "open_games": [g for g in selectors.open_games(user) if g.pk not in invited],
        "my_move_games": list(selectors.my_move_games(user)) if user else [],
        "my_waiting_games": list(selectors.my_waiting_games(user)) if user else [],
    }
    context["lobby_cursor"] = lobby_cursor(context)
    if request.htmx and "v" in request.GET:
        if request.GET["v"] == context["lobby_cursor"]:
            return HttpResponse(status=HTTPStatus.NO_CONTENT)
        # With the page's messages out of band: shown once, as a reload would drop them.
        parts = [render_to_string(name, {**context, "oob": True}, request=request) for name in LIVE_PARTS]
        return HttpResponse("".join(parts))
    context["game_names"] = game_names()
    context["finished_games"] = list(selectors.recent_finished_games(user))
    context["watch_games"] = list(selectors.games_to_watch(user))
    return render(request, "games/lobby.html", context)


def game_names() -> str:
    """The installed games' names in the active language, as a sentence lists them: "A, B and C"."""
    names = [str(kind.label) for kind in kinds.all_kinds()]
    if len(names) < 2:
        return "".join(names)
    return _("%(names)s and %(last)s") % {"names": name_list(names[:-1]), "last": names[-1]}


def lobby_cursor(context: dict[str, Any]) -> str:
    """A checksum of what the lobby's own lists show: each game's move, status, turn, deadline and seats
    taken, and the minute (the rows' clocks count down by the minute). Changes when a reload would."""
    minute = int(timezone.now().timestamp() // 60)
    rows = [
        (name, [(g.pk, g.last_seq, g.status, g.to_act, g.deadline, getattr(g, "seats_taken", None)) for g in games])
        for name, games in sorted(context.items())
        if isinstance(games, list)
    ]
    return f"{zlib.crc32(repr((minute, rows)).encode()):08x}"


@login_required
@require_http_methods(["GET", "POST"])
def game_new(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Show the new-game form of game ``?kind=`` (default: the first installed game); on a valid POST
    create the game and go to it. An unknown kind is a 404.

    The form is the game's ``options`` part's (``games.forms.options_form``), drawn by
    ``games/new.html`` with the game's own fields' template, and links to the other games' forms.
    """
    kind = kinds.find(request.GET.get("kind") or next(iter(kinds.names()), ""))
    if kind is None:
        raise Http404("No such game")
    form_class = options_form(kind)
    # A profile's "Challenge" links here with ?invite=<username>: today's invitation, pre-filled.
    invite = request.GET.get("invite", "")[:150]
    initial = {"visibility": "invite", "invited": invite} if invite else None
    form = form_class(request.POST or None, kind=kind.name, bots=offered_bots(kind, form_class), initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            game = services.game_create(creator=request.user, **form.game_create_kwargs())
        except services.InvalidOptions as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, _("Game created."))
            return redirect("games:detail", game_id=game.pk)
    status = HTTPStatus.BAD_REQUEST if request.method == "POST" else HTTPStatus.OK
    context = {"form": form, "kind": kind, "other_kinds": [k for k in kinds.all_kinds() if k != kind]}
    return render(request, "games/new.html", context, status=status)


@login_required_for_game_post
@require_POST
def game_join(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    """Take a seat at an open game."""
    get_game_for_user(request, game_id)
    try:
        game = services.game_join(game_id=game_id, user=request.user)
    except services.ServiceError as exc:
        messages.error(request, str(exc))
    except services.LockTimeout as exc:
        messages.error(request, busy_or(exc))
    else:
        messages.success(request, _("The game has started.") if game.is_active else _("You joined the game."))
    return redirect("games:detail", game_id=game_id)


@login_required_for_game_post
@require_POST
def game_leave(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    """Give up a seat at a game that has not started."""
    get_game_for_player(request, game_id)
    try:
        services.game_leave(game_id=game_id, user=request.user)
    except (services.ServiceError, services.LockTimeout) as exc:
        messages.error(request, busy_or(exc))
        return redirect("games:detail", game_id=game_id)
    messages.success(request, _("You left the game."))
    return redirect("games:lobby")


@login_required_for_game_post
@require_POST
def game_cancel(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    """Cancel a game that has not started (its creator only)."""
    get_game_for_user(request, game_id)
    try:
        services.game_cancel(game_id=game_id, user=request.user)
    except (services.ServiceError, services.LockTimeout) as exc:
        messages.error(request, busy_or(exc))
        return redirect("games:detail", game_id=game_id)
    messages.success(request, _("The game was cancelled."))
    return redirect("games:lobby")


@login_required_for_game_post
@require_POST
def game_resign(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    """Resign a running game: only with the form's confirmation box ticked (a resignation cannot be undone)."""
    get_game_for_player(request, game_id)
    if request.POST.get("confirm") != "1":
        messages.error(request, _("Tick the box to confirm that you resign."))
        return redirect("games:detail", game_id=game_id)
    try:
        services.game_resign(game_id=game_id, user=request.user)
    except (services.ServiceError, services.LockTimeout) as exc:
        messages.error(request, busy_or(exc))
    else:
        messages.success(request, _("You resigned this game."))
    return redirect("games:detail", game_id=game_id)
