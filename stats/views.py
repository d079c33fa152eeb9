"""Statistics pages: each installed game's own page and item pages, reached through its ``stats`` part.

The views here name no game: ``/stats/<kind>/`` and ``/stats/<kind>/<item>/``
hand the request to the part of the game called ``kind`` (``stats.plugin``),
and answer 404 for a name that is no installed game with such a page.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.views.decorators.http import require_safe

from games import kinds
from stats.plugin import pages
from website.db import reads_from_replica


def _part_with(kind: str, name: str) -> tuple[kinds.GameKind, object]:
    """The installed game ``kind`` and its ``stats`` part, if the part defines ``name``.

    Raises:
        Http404: no installed game of that name, no statistics part, or no ``name`` in it.
    """
    game_kind = kinds.find(kind)
    part = game_kind.part("stats") if game_kind is not None else None
    if game_kind is None or not hasattr(part, name):
        raise Http404("No statistics page for that game")
    return game_kind, part


@require_safe
def index(request: HttpRequest) -> HttpResponse:
    """``/stats/`` (the README and links in the wild): the first game's statistics page, query kept.

    Raises:
        Http404: no installed game has a statistics page.
    """
    found = pages()
    if not found:
        raise Http404("No statistics pages")
    url = reverse("stats:kind", args=[found[0][0]])
    query = request.META.get("QUERY_STRING", "")
    return HttpResponseRedirect(f"{url}?{query}" if query else url)


@require_safe
@reads_from_replica
def kind_page(request: HttpRequest, kind: str) -> HttpResponse:
    """A game's site-wide statistics (its part's ``page``); 404 for a game without one."""
    game_kind, part = _part_with(kind, "page")
    return part.page(request, game_kind)  # type: ignore[attr-defined]


@require_safe
@reads_from_replica
def item_page(request: HttpRequest, kind: str, item: str) -> HttpResponse:
    """One item (a card) of a game (its part's ``item_page``); 404 for a game without item pages."""
    game_kind, part = _part_with(kind, "item_page")
    return part.item_page(request, game_kind, item)  # type: ignore[attr-defined]
