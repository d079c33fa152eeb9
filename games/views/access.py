"""Who may see and play a game, as the views ask it; the request types the views take."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db.models import Prefetch
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.translation import gettext as _

from accounts.http import AuthenticatedHttpRequest, HtmxHttpRequest
from games import selectors
from games.errors import LockTimeout
from games.models import Game, Seat

__all__ = ["AuthenticatedHttpRequest", "HtmxHttpRequest", "get_game_for_user"]


def get_game_for_user(request: HttpRequest, game_id: int) -> tuple[Game, Seat | None]:
    """Return ``(game, the user's seat or None)`` if the user may watch the game.

    Seats are prefetched with their users. Raises Http404 when the game does
    not exist or is private to others, so private games do not reveal
    themselves.
    """
    try:
        game = Game.objects.prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user"))).get(
            pk=game_id
        )
    except Game.DoesNotExist:
        raise Http404("No such game") from None
    user = request.user if request.user.is_authenticated else None
    if not selectors.can_view(game, user):
        raise Http404("No such game")
    return game, selectors.seat_for(game, user)


def get_game_for_player(request: HttpRequest, game_id: int) -> tuple[Game, Seat]:
    """Like ``get_game_for_user``, but raise PermissionDenied unless the user has a seat."""
    game, seat = get_game_for_user(request, game_id)
    if seat is None:
        raise PermissionDenied(_("You are not playing in this game."))
    return game, seat


def busy_or(exc: Exception) -> str:
    """The sentence for a refused request: the service's reason, or "try again" when the game was busy.

    ``LockTimeout`` (another request held the game's row too long) is not a
    refusal of the site's rules, and its text is not for players.
    """
    if isinstance(exc, LockTimeout):
        return _("Please try again.")
    return str(exc)


def visible_game_light(request: HttpRequest, game_id: int) -> Game:
    """The game with only the columns access needs (kind, privacy, creator); Http404 as ``get_game_for_user``.

    The move path's access check: the move service reads the game again under
    its lock, so the seats and players are not loaded here (a private game's
    check queries its seats and invitations, as ``selectors.can_view`` does).
    """
    try:
        game = Game.objects.only("id", "kind", "private", "creator_id").get(pk=game_id)
    except Game.DoesNotExist:
        raise Http404("No such game") from None
    if not selectors.can_view(game, request.user if request.user.is_authenticated else None):
        raise Http404("No such game")
    return game


def login_required_for_game_post(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """``login_required`` for a game's POST-only actions (move, chat, join, ...): after signing in, the game page.

    Django's decorator would send the visitor back to the action's own
    address, which answers only POST (a 405 after signing in).
    """

    @wraps(view)
    def wrapper(request: HttpRequest, game_id: int, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(reverse("games:detail", kwargs={"game_id": game_id}))
        return view(request, game_id, *args, **kwargs)

    return wrapper
