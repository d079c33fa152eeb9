"""Domaine's own endpoint (its ``urls`` part, ``games:domaine_draft``): building a move by clicks
(or text fields) before confirming it.

The draft of a move lives in the request, never on the server: each click
is a GET carrying the draft so far (JSON), the position it was made for
(``seq``) and the value clicked (``pick``). The engine's ``targets`` says
which part comes next and what is legal for it; the answer is the board
region with the draft drawn and the next targets highlighted (HTMX), or
the whole game page (a plain link, without JavaScript). Confirming posts
the draft to the ordinary ``games:move`` endpoint as one move.
"""

from __future__ import annotations

import pickle
import re
from http import HTTPStatus
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, QueryDict
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from games import services
from games.i18n import refusal_text
from games.lifecycle import game_freeze
from games.replay import ReplayBroken, engine_for
from games.views import (
    MAX_MOVE_BYTES,
    AuthenticatedHttpRequest,
    game_context,
    get_game_for_player,
    loads_plain_json,
)

#: The acts a draft can build; sells and takes are single clicks posted directly.
DRAFT_ACTS = ("place_castle", "place_neutral", "play")
#: Move keys holding a list (several squares or edges, in order); the others hold one value.
LIST_PARTS = ("borders", "knights", "squares")
SCALAR_PARTS = ("at", "knight", "domain", "remove", "with")
#: Every key a draft may carry ("player" is dropped: the seat comes from the signed-in user).
DRAFT_KEYS = frozenset(("act", "card", "option", "player", *LIST_PARTS, *SCALAR_PARTS))
#: Longest name a part can hold: an edge such as "C10-C11" is 7 characters, a card id 2.
MAX_NAME = 12
#: Most names a list part can hold: no card gives more than a handful; the text form keeps 10.
MAX_NAMES = 20


class BadDraft(ValueError):
    """The draft in the request cannot be read."""


def parse_draft(params: QueryDict) -> dict[str, Any] | None:
    """Return the draft move from ``draft`` (JSON) or from the text fields of the no-JavaScript form.

    Text fields: ``act``, ``card``, ``option``, and one field per move key;
    list keys (``borders``, ``knights``, ``squares``) take several names
    separated by spaces or commas. Names are upper-cased ("c7-c8" reads as
    "C7-C8").

    Returns:
        The draft, or None when the request carries none (a reset).

    Raises:
        BadDraft: unreadable JSON, an act that is not built by clicks, an
            oversized draft, or a draft of the wrong shape (see
            ``check_draft_shape``).
    """
    raw = params.get("draft")
    if not raw and not params.get("act"):
        return None
    if raw:
        if len(raw) > MAX_MOVE_BYTES:
            raise BadDraft(_("That move is too large."))
        try:
            draft = loads_plain_json(raw)
        except ValueError:
            raise BadDraft(_("That move is not valid JSON.")) from None
        if not isinstance(draft, dict):
            raise BadDraft(_("A move is an object with an 'act'."))
    else:
        draft = {"act": params.get("act", "")}
        if card := params.get("card"):
            draft["card"] = card.strip()[:8]
            try:
                draft["option"] = int(params.get("option") or 0)
            except ValueError:
                raise BadDraft(_("The option is 0 or 1.")) from None
        for key in LIST_PARTS:
            names = [n.upper() for n in re.split(r"[\s,;]+", params.get(key, "")) if n][:10]
            if names:
                draft[key] = names
        for key in SCALAR_PARTS:
            value = params.get(key, "").strip().upper()[:10]
            if value:
                draft[key] = value
    if draft.get("act") not in DRAFT_ACTS:
        raise BadDraft(_("Choose a card to play, or a square for your castle."))
    check_draft_shape(draft)
    draft.pop("player", None)
    return draft


def _is_name(value: Any) -> bool:
    return isinstance(value, str) and 0 < len(value) <= MAX_NAME


def check_draft_shape(draft: dict[str, Any]) -> None:
    """Refuse a draft whose parts have the wrong type, before the engine or the board sees it.

    The rule: only the keys of ``DRAFT_KEYS``; ``act`` and ``card`` are
    strings; ``option`` an integer (not a boolean); each of ``LIST_PARTS`` a
    list of at most ``MAX_NAMES`` names; each of ``SCALAR_PARTS`` one name
    (a name is a non-empty string of at most ``MAX_NAME`` characters).
    Whether a name is a square of the board, and legal, is the engine's to
    say (a 422 with its reason); this is only the shape, so a hand-edited
    draft is a 400 with a reason rather than a crash further on.

    Raises:
        BadDraft: the first part found with the wrong shape, named.
    """
    for key in draft:
        if key not in DRAFT_KEYS:
            raise BadDraft(_("A move has no part “%(part)s”.") % {"part": str(key)[:MAX_NAME]})
    if "card" in draft and not _is_name(draft["card"]):
        raise BadDraft(_("The card must be named by its id, such as A1."))
    option = draft.get("option", 0)
    if not isinstance(option, int) or isinstance(option, bool):
        raise BadDraft(_("The option is 0 or 1."))
    for key in LIST_PARTS:
        value = draft.get(key, [])
        if not isinstance(value, list) or len(value) > MAX_NAMES or not all(_is_name(v) for v in value):
            raise BadDraft(_("“%(part)s” must be a list of squares or edges.") % {"part": key})
    for key in SCALAR_PARTS:
        if key in draft and not _is_name(draft[key]):
            raise BadDraft(_("“%(part)s” must name one square.") % {"part": key})


def add_pick(draft: dict[str, Any], part: str, value: str) -> dict[str, Any]:
    """Return ``draft`` with ``value`` added to ``part`` (appended to a list part, else set)."""
    out = dict(draft)
    if part in LIST_PARTS:
        out[part] = [*out.get(part, []), value]
    else:
        out[part] = value
    return out


def preview(engine: Any, state: Any, seat: int, draft: dict[str, Any]) -> dict[str, Any] | None:
    """Return the viewer's view of the position after ``draft``, or None if it is not yet a legal move.

    The move is applied to a copy of the state, so nothing is written; the
    view is the mover's own (it shows only what that seat may see).
    """
    try:
        engine.check(state, seat, draft)
    except services.IllegalMove:
        return None
    after = pickle.loads(pickle.dumps(state, pickle.HIGHEST_PROTOCOL))
    engine.apply(after, seat, draft)
    return engine.view(after, seat)


@login_required
@require_safe
def domaine_draft(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    """Answer one step of building a move: ``?seq=N&draft={...}&pick=C7`` (or the text fields).

    Status 200 with the board (HTMX) or the page; 422 when the draft or
    the pick breaks a rule (the engine's reason is shown, the draft kept
    up to its last legal part); 409 when the game moved on (the draft is
    dropped).
    """
    game, seat = get_game_for_player(request, game_id)
    if game.kind != "domaine":
        raise Http404("Not a Domaine game")
    error = ""
    status: int = HTTPStatus.OK
    draft: dict[str, Any] | None = None
    targets: dict[str, Any] | None = None
    after: dict[str, Any] | None = None
    seq = request.GET.get("seq", "")
    if not game.is_active:
        error, status = _("This game is not in progress."), HTTPStatus.CONFLICT
    elif seq != str(game.last_seq):
        error, status = _("The game moved on; here is the current position."), HTTPStatus.CONFLICT
    else:
        try:
            engine = engine_for(game)
            state = services.state_at(game)
        except ReplayBroken as broken:
            # Never a 500: the game is frozen for a moderator, and its page (drawn below) says why.
            game_freeze(game_id=game.pk, broken=broken)
            game, seat = get_game_for_player(request, game_id)
            error, status = str(broken), HTTPStatus.CONFLICT
        else:
            error, status, draft, targets, after = _draft_step(request, engine, state, seat.position)
    context = game_context(request, game, seat)
    context.update(
        {
            "domaine_draft": draft,
            "domaine_targets": targets,
            "domaine_preview": after,
            "domaine_error": error,
            # A square whose sides the board offers for the next border (two taps: the square, then its side).
            "domaine_focus": _focus(request, draft),
            # A board with a draft or a refusal on it is this request's alone: never from the board cache.
            "board_uncached": bool(draft or error),
        }
    )
    template = "games/game.html#board" if request.htmx else "games/game.html"
    return render(request, template, context, status=status)


def _focus(request: AuthenticatedHttpRequest, draft: dict[str, Any] | None) -> str | None:
    """The square named by ``?focus=`` (upper-cased), kept only while a draft is being built; else None."""
    focus = request.GET.get("focus", "").strip().upper()[:MAX_NAME]
    return focus if draft is not None and re.fullmatch(r"[A-L](1[0-2]|[1-9])", focus) else None


def _draft_step(
    request: AuthenticatedHttpRequest, engine: Any, state: Any, position: int
) -> tuple[str, int, dict[str, Any] | None, dict[str, Any] | None, dict[str, Any] | None]:
    """One step of building a move: ``(error, status, draft, targets, preview)`` for the request's draft and pick."""
    error = ""
    status: int = HTTPStatus.OK
    draft: dict[str, Any] | None = None
    targets: dict[str, Any] | None = None
    after: dict[str, Any] | None = None
    try:
        draft = parse_draft(request.GET)
        if draft is not None:
            targets = engine.targets(state, position, draft)
            pick = request.GET.get("pick", "")
            if pick:
                if not targets.get("part") or pick not in targets.get("choices", []):
                    error = _("%(pick)s is not one of the choices.") % {"pick": pick[:12]}
                    status = HTTPStatus.UNPROCESSABLE_ENTITY
                else:
                    draft = add_pick(draft, targets["part"], pick)
                    targets = engine.targets(state, position, draft)
            after = preview(engine, state, position, draft)
    except BadDraft as exc:
        error, status, draft = str(exc), HTTPStatus.BAD_REQUEST, None
    except (TypeError, KeyError, ValueError, AttributeError, IndexError):
        # A hand-edited draft the engine cannot even read (it should refuse with IllegalMove);
        # drop it rather than answer 500, as the move service does for such moves.
        error, status, draft, targets = _("That move cannot be read."), HTTPStatus.BAD_REQUEST, None, None
    except services.IllegalMove as exc:
        error, status, targets = refusal_text(exc.reason, exc.code), HTTPStatus.UNPROCESSABLE_ENTITY, None
    return error, status, draft, targets, after
