"""Rules pages, card references and the hint strip's switch: thin views over ``guide.cards``."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST, require_safe

from games.engine.domaine import rules as domaine_rules
from games.engine.domaine.cards import CARDS as DOMAINE_CARDS
from games.standing import descriptions as standing_descriptions
from guide.cards import domaine_action_text, domaine_card, domaine_reference, dominion_reference
from guide.examples import distance_example, domain_example
from guide.hints import HINTS_COOKIE, HINTS_COOKIE_AGE

#: Game kinds with a rules page.
KINDS = ("dominion", "domaine")
#: Domaine action kind -> the most any card gives of it (the actions list quotes that).
MOST = {
    kind: max(a.n for c in DOMAINE_CARDS.values() for a in c.actions if a.kind == kind)
    for kind in ("borders", "knights", "expand", "desertion", "alliance")
}


@require_safe
def rules_index(request: HttpRequest) -> HttpResponse:
    """The list of rules pages and card references."""
    return render(request, "guide/index.html")


@require_safe
def rules(request: HttpRequest, kind: str) -> HttpResponse:
    """How to play ``kind``: the turn, the phases, the end and the score, with drawn examples."""
    if kind not in KINDS:
        raise Http404("No such game")
    context: dict[str, object] = {"kind": kind}
    if kind == "domaine":
        context.update(domaine_facts())
    else:
        context["standing"] = standing_descriptions()
    return render(request, f"guide/{kind}.html", context)


def domaine_facts() -> dict[str, object]:
    """What the Domaine rules page quotes, from the rules module and the engine (never retyped)."""
    ruleset = domaine_rules.RULESETS[domaine_rules.CURRENT_VERSION]
    return {
        "domain_example": domain_example(),
        "distance_example": distance_example(ruleset.castle_distance),
        "distance": ruleset.castle_distance,
        "fallback": ruleset.castle_fallback,
        "targets": sorted(domaine_rules.TARGET_SCORE.items()),
        "start_gold": domaine_rules.START_GOLD,
        "hand_size": domaine_rules.HAND_SIZE,
        "sample_cards": [domaine_card(c) for c in ("A4", "B3", "D5")],
        # Each action at the most any card gives (3 borders, 2 knights, 2 squares).
        "actions": {kind: domaine_action_text(kind, n) for kind, n in MOST.items()},
    }


@require_safe
def cards(request: HttpRequest, kind: str) -> HttpResponse:
    """Every card of ``kind`` with its text, cost and type (Dominion) or actions, cost and sale (Domaine)."""
    if kind not in KINDS:
        raise Http404("No such game")
    groups = dominion_reference() if kind == "dominion" else domaine_reference()
    return render(request, f"guide/{kind}_cards.html", {"kind": kind, "groups": groups})


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
