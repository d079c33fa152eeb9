"""Matchmaking pages and buttons: seeks, the one-button pairing, rematch, follow, kingdom bans.

Thin: parse, call one service, redirect (post/redirect/get: every form works
without JavaScript). A refused request says why in a message and answers
with the page it came from; bad input is a 400 and changes nothing.
"""

from __future__ import annotations

from http import HTTPStatus

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from accounts.http import AuthenticatedHttpRequest
from accounts.models import User
from games import services as games
from games.views.access import get_game_for_player, login_required_for_game_post
from matchmaking import follows, rematch, services
from matchmaking.forms import BansForm, QuickForm, SeekForm
from matchmaking.limits import bans_hints
from matchmaking.models import RematchOffer, Seek


def _after_seek(request: HttpRequest, seek: Seek) -> HttpResponse:
    """To the new game if the seek was matched at once, else back to the lobby with "waiting"."""
    if seek.game_id is not None:
        messages.success(request, _("You were matched: the game has started."))
        return redirect("games:detail", game_id=seek.game_id)
    messages.success(request, _("Your seek is posted: you will be matched as soon as possible."))
    return redirect("games:lobby")


@login_required
@require_POST
def quick(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The lobby's one-button pairing: join a compatible seek or post one (``services.quick_pair``)."""
    form = QuickForm(request.POST)
    if not form.is_valid():
        return HttpResponseBadRequest(_("The request is malformed."))
    data = form.cleaned_data
    try:
        seek = services.quick_pair(
            user=request.user, kind=data["kind"], rated=data["rated"], players=data.get("players") or 2
        )
    except (services.MatchError, games.ServiceError, games.LockTimeout) as exc:
        messages.error(request, str(exc) if not isinstance(exc, games.LockTimeout) else _("Please try again."))
        return redirect("games:lobby")
    return _after_seek(request, seek)


@login_required
@require_http_methods(["GET", "POST"])
def seek_new(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The seek form; a valid POST posts the seek (and may start a game at once)."""
    form = SeekForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            seek = services.seek_create(user=request.user, **form.seek_kwargs())
        except services.MatchError as exc:
            form.add_error(None, str(exc))
        else:
            return _after_seek(request, seek)
    status = HTTPStatus.BAD_REQUEST if request.method == "POST" else HTTPStatus.OK
    context = {"form": form, "max_open": services.MAX_OPEN_SEEKS, "window": services.DEFAULT_WINDOW}
    return render(request, "matchmaking/seek_new.html", context, status=status)


@login_required
@require_POST
def seek_cancel(request: AuthenticatedHttpRequest, seek_id: int) -> HttpResponse:
    """Withdraw one of the user's open seeks."""
    try:
        services.seek_cancel(seek_id=seek_id, user=request.user)
    except Seek.DoesNotExist:
        raise Http404("No such seek") from None
    except services.MatchError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("Your seek is withdrawn."))
    return redirect("games:lobby")


@login_required
@require_POST
def seek_accept(request: AuthenticatedHttpRequest, seek_id: int) -> HttpResponse:
    """Answer a seek listed in the lobby (``services.seek_accept``)."""
    try:
        seek = services.seek_accept(seek_id=seek_id, user=request.user)
    except Seek.DoesNotExist:
        raise Http404("No such seek") from None
    except services.MatchError as exc:
        messages.error(request, str(exc))
        return redirect("games:lobby")
    return _after_seek(request, seek)


@login_required_for_game_post
@require_POST
def rematch_accept(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    """Offer a rematch of a finished game, or accept the open offer; to the new game once it starts."""
    get_game_for_player(request, game_id)
    try:
        offer = rematch.rematch_accept(game_id=game_id, user=request.user)
    except services.MatchError as exc:
        messages.error(request, str(exc))
        return redirect("games:detail", game_id=game_id)
    if offer.new_game_id is not None:
        messages.success(request, _("Everyone accepted: the rematch has started."))
        return redirect("games:detail", game_id=offer.new_game_id)
    messages.success(request, _("Rematch offered: it starts when every player has accepted."))
    return redirect("games:detail", game_id=game_id)


@login_required_for_game_post
@require_POST
def rematch_decline(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    """Decline the open rematch offer of a finished game."""
    get_game_for_player(request, game_id)
    try:
        rematch.rematch_decline(game_id=game_id, user=request.user)
    except RematchOffer.DoesNotExist:
        raise Http404("No rematch offer") from None
    except services.MatchError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("You declined the rematch."))
    return redirect("games:detail", game_id=game_id)


@login_required
@require_POST
def follow(request: AuthenticatedHttpRequest, username: str) -> HttpResponse:
    """Follow a player (from their profile): their games then show in your lobby."""
    try:
        follows.follow(user=request.user, username=username)
    except User.DoesNotExist:
        raise Http404("No such player") from None
    except services.MatchError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("You follow this player: their games show in your lobby."))
    return redirect("accounts:profile", username=username)


@login_required
@require_POST
def unfollow(request: AuthenticatedHttpRequest, username: str) -> HttpResponse:
    """Stop following a player."""
    follows.unfollow(user=request.user, username=username)
    messages.success(request, _("You no longer follow this player."))
    return redirect("accounts:profile", username=username)


@login_required
@require_http_methods(["GET", "POST"])
def bans(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The kingdom bans settings page: up to three cards left out of random kingdoms drawn for seeks and rematches."""
    form = BansForm(request.POST or None, initial={"cards": follows.bans_get(request.user)})
    if request.method == "POST" and form.is_valid():
        follows.bans_set(user=request.user, cards=form.cleaned_data["cards"])
        messages.success(request, _("Your kingdom bans are saved."))
        return redirect("matchmaking:bans")
    status = HTTPStatus.BAD_REQUEST if request.method == "POST" else HTTPStatus.OK
    context = {"form": form, "hints": bans_hints(services.MAX_BANS)}  # each game says what its bans are
    return render(request, "matchmaking/bans.html", context, status=status)
