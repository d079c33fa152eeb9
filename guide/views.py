"""Rules pages, card references and the hint strip's switch: thin views over each game's guide part.

A game's pages, texts and numbers are its own (``<package>.guide``, see
``guide.plugin``); these views find them through the registry of games
and draw them inside the guide's frame (``guide/base_guide.html``).
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST, require_safe

from guide.hints import HINTS_COOKIE, HINTS_COOKIE_AGE
from guide.plugin import Guide, guide_of, guides


def _render(request: HttpRequest, template: str, context: dict[str, Any]) -> HttpResponse:
    """Render a guide page with the guide's menu (every game with a guide: its rules, and its cards if any)."""
    return render(request, template, {"guides": guides(), **context})


def _guide(kind: str) -> Guide:
    """The guide of game ``kind``.

    Raises:
        Http404: no installed game of that name has a guide (the URL converter lets none through; a
            game could be uninstalled between the two).
    """
    guide = guide_of(kind)
    if guide is None:
        raise Http404("No such game")
    return guide


@require_safe
def rules_index(request: HttpRequest) -> HttpResponse:
    """The list of rules pages and card references, one line per game with a guide."""
    return _render(request, "guide/index.html", {})


@require_safe
def rules(request: HttpRequest, kind: str) -> HttpResponse:
    """How to play ``kind``: its rules page, with what its guide part quotes (numbers, drawn examples)."""
    guide = _guide(kind)
    context = dict(guide.rules_context()) if guide.rules_context else {}
    return _render(request, guide.rules_template, {**context, "kind": kind, "guide": guide})


@require_safe
def cards(request: HttpRequest, kind: str) -> HttpResponse:
    """Every card of ``kind``, as its guide part lists them; 404 for a game with no card reference."""
    guide = _guide(kind)
    if guide.cards_template is None:
        raise Http404("This game has no card reference")
    context = dict(guide.cards_context()) if guide.cards_context else {}
    return _render(request, guide.cards_template, {**context, "kind": kind, "guide": guide})


@require_POST
def hints_toggle(request: HttpRequest) -> HttpResponse:
    """Turn the board's first-game hints off (``hints=off``) or on again (``hints=on``) for this browser.

    A cookie rather than an account setting: spectators and new players
    read the hints before they have an account, and turning them off needs
    no sign-in. Back to ``next`` (a local address only), else the rules.
    """
    off = request.POST.get("hints") == "off"
    target = request.POST.get("next", "")
    # A local path only ("x" would be read as a URL name by redirect(): a 500), no control characters.
    local = target.startswith("/") and target.isprintable()
    if not local or not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=False
    ):
        target = "/rules/"
    response = HttpResponseRedirect(target)
    if off:
        response.set_cookie(HINTS_COOKIE, "off", max_age=HINTS_COOKIE_AGE, samesite="Lax", httponly=True)
    else:
        response.delete_cookie(HINTS_COOKIE, samesite="Lax")
    return response
