"""Leaderboards: one per game kind."""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_safe

from ratings import botladder, selectors
from website.db import reads_from_replica


@require_safe
def ladder_index(request: HttpRequest) -> HttpResponse:
    """Redirect to the first game's ladder."""
    return redirect("ratings:ladder", kind=selectors.ladder_kinds()[0])


@require_safe
@reads_from_replica
def ladder(request: HttpRequest, kind: str) -> HttpResponse:
    """A game's leaderboard: rank, player, rating, games, last played; the viewer's place even off the page."""
    if kind not in selectors.ladder_kinds():
        raise Http404("No such ladder")
    viewer = request.user if request.user.is_authenticated else None
    board = selectors.ladder(kind=kind, now=timezone.now(), page=request.GET.get("page") or 1, viewer=viewer)
    context = {
        "board": board,
        "kind": kind,
        "kinds": selectors.ladder_kinds(),
        "mine_on_page": board.mine is not None and any(r.user_id == board.mine.user_id for r in board.page),
        "mine_page": (board.mine.position - 1) // selectors.LADDER_PAGE_SIZE + 1 if board.mine else None,
        "provisional_games": settings.RATING_PROVISIONAL_GAMES,
        "inactive_days": settings.RATING_INACTIVE_DAYS,
    }
    return render(request, "ratings/ladder.html", context)


@require_safe
def bots(request: HttpRequest) -> HttpResponse:
    """The bots' page: each game's bot levels with their measured rating, win rate and time per move."""
    return render(request, "ratings/bots.html", {"ladders": botladder.bot_ladders()})
