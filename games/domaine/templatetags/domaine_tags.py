"""Template helpers for the Domaine board (``templates/domaine/board.html``).

``domaine_board`` turns the context the game page already has (``view``,
``game``, ``viewer``, ``my_move``, ``seats``; and, while a move is being
built, ``domaine_draft``, ``domaine_targets`` and ``domaine_preview`` from
``games.domaine.views``) into what the board template draws. It reads the
view and the engine's answers only; it decides no rule.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django import template
from django.urls import reverse
from django.utils.translation import gettext as _

from games.domaine.board import (
    EMPTY_PLAY_FIELD,
    Target,
    colour_of,
    draft_json,
    draw,
    edges_by_square,
    focus_sides,
    mark_of,
    places_nothing,
    square_xy,
    too_near,
)
from games.domaine.eventtext import action_text, card_action_text, card_name
from games.engine.domaine.cards import CARDS

register = template.Library()


def card_info(card_id: str) -> dict[str, Any]:
    """Return a card's public printed data: id, name (what players read), letter, cost, sale price,
    actions by option."""
    card = CARDS.get(card_id)
    if card is None:
        return {"id": card_id, "name": card_id, "letter": "", "cost": "?", "sale": "?", "options": []}
    return {
        "id": card.id,
        "name": card_name(card.id),
        "letter": card.letter,
        "cost": card.cost,
        "sale": card.sale,
        "options": [{"option": i, "text": action_text(a.kind, a.n)} for i, a in enumerate(card.actions)],
    }


def part_prompt(part: str | None, act: str | None, remaining: int) -> str:
    """Return what the player should click next for ``part`` of a draft."""
    if part is None:
        return _("Nothing more can be added: confirm the move, or reset.")
    prompts = {
        "at": _("Choose a highlighted square for the castle."),
        "borders": _("Choose the square beside where the border goes, then the side you want (%(n)d left).")
        % {"n": remaining},
        "knights": _("Choose a highlighted square for a knight (%(n)d left).") % {"n": remaining},
        "domain": _("Choose the castle of your domain."),
        "squares": _("Choose a highlighted square to add to the domain (%(n)d left).") % {"n": remaining},
        "remove": _("Choose the knight that deserts."),
        "with": _("Choose the castle of the domain to ally with."),
    }
    if part == "knight":
        if act == "place_castle":
            return _("Choose a highlighted square for the castle's knight.")
        return _("Choose a highlighted square for your new knight.")
    return prompts.get(part, part)


@register.simple_tag(takes_context=True)
def domaine_board(context: template.Context) -> dict[str, Any]:
    """Return everything the Domaine board template shows, for this viewer.

    Keys: ``drawing`` (see ``games.domaine.board.Drawing``), ``players``,
    ``me`` (the viewer's row or None), ``hand`` and ``display`` (cards with
    their printed data), ``step``, ``my_move``, ``draft`` and its
    ``draft_json``, ``prompt``, ``can_confirm``, ``play_links`` (card
    option -> URL), ``take_options``, ``sell`` (whether selling is open),
    ``draft_url``, ``gold_after``.
    """
    view: dict[str, Any] = context["view"]
    game = context["game"]
    viewer = context.get("viewer")
    replaying = bool(context.get("replaying"))
    my_move = bool(context.get("my_move")) and not replaying and not view.get("game_over")
    draft = context.get("domaine_draft") if my_move else None
    targets = context.get("domaine_targets") if my_move else None
    after = context.get("domaine_preview") if my_move else None
    pending = (view.get("pending") or [None])[0] if my_move else None
    step = (view.get("turn") or {}).get("step")
    if pending and draft is None and step == "setup":
        # The first click of a placement: the castle squares are the open decision's options.
        neutral = bool((pending.get("params") or {}).get("neutral"))
        draft = {"act": "place_neutral" if neutral else "place_castle"}
        targets = {"part": "at", "remaining": 1, "choices": list(pending.get("options") or [])}
    draft_url = reverse("games:domaine_draft", kwargs={"game_id": game.pk})

    def link(new_draft: dict[str, Any] | None, pick: str = "", focus: str = "") -> str:
        params = {"seq": game.last_seq}
        if new_draft is not None:
            params["draft"] = draft_json(new_draft)
        if pick:
            params["pick"] = pick
        if focus:
            params["focus"] = focus
        # Without JavaScript the link loads the whole page: the fragment keeps the board in view.
        return f"{draft_url}?{urlencode(params)}#game-board"

    focus = context.get("domaine_focus") if my_move else None
    drawn_targets = targets
    by_square: dict[str, list[str]] = {}
    if targets and targets.get("part") == "borders":
        # Two taps per border rather than some 250 edges at once: a square, then one of its sides.
        by_square = edges_by_square(targets.get("choices") or [])
        focus = focus if focus in by_square else None
        drawn_targets = {**targets, "choices": by_square[focus] if focus else []}
    drawing = draw(after or view, targets=drawn_targets, draft=draft, link=lambda choice: link(draft, choice))
    for sq in by_square:
        if sq != focus:
            x, y = square_xy(sq)
            label = _("Borders beside %(square)s") % {"square": sq}
            drawing.focus_targets.append(Target(sq, link(draft, focus=sq), x=x, y=y, label=label))
    if by_square or (targets or {}).get("part") == "borders":
        for sq in (sq["name"] for sq in drawing.squares):
            if sq not in by_square:
                x, y = square_xy(sq)
                drawing.blocked.append({"x": x, "y": y, "name": sq})
    sides: list[dict[str, Any]] = []
    if focus:
        x, y = square_xy(focus)
        drawing.focus = {"x": x, "y": y, "name": focus}
        sides = focus_sides(focus, by_square[focus], lambda edge: link(draft, edge))
    zone_castles: list[str] = []
    distance = int(((pending or {}).get("params") or {}).get("distance") or 0)
    if step == "setup" and (targets or {}).get("part") == "at" and distance:
        # The distance rule drawn: the squares too near the placer's own castles (the engine says how near).
        placer = "neutral" if ((pending or {}).get("params") or {}).get("neutral") else viewer
        zone_castles = sorted(sq for sq, owner in (view.get("castles") or {}).items() if owner == placer)
        drawing.zone = too_near(zone_castles, distance)
        drawing.zone_neutral = placer == "neutral"
    if draft and after is None:
        # Not yet a whole move: the chosen squares have no pieces in a preview, so draw them as ghosts.
        me_colour = colour_of("neutral" if draft.get("act") == "place_neutral" else viewer)
        for ghost in drawing.draft_squares:
            ghost["ghost"] = ghost["part"] in ("at", "knight", "knights")
            ghost["colour"] = me_colour
    names = {s.position: str(s.name) for s in context.get("seats") or []}
    turn_player = (view.get("turn") or {}).get("player")
    players = [
        {
            **p,
            # An opponent's hand is in the view only once the game is over.
            "hand_names": [card_name(c) for c in p.get("hand") or []],
            "name": names.get(p["seat"], "?"),
            "colour": colour_of(p["seat"]),
            "mark": mark_of(p["seat"]),
            "is_turn": p["seat"] == turn_player and not view.get("game_over"),
            "is_viewer": p["seat"] == viewer,
            "is_you": p["seat"] == context.get("you"),
            "winner": p["seat"] in (view.get("winners") or []),
        }
        for p in view.get("players") or []
    ]
    me = next((p for p in players if p["is_viewer"]), None)
    playable = set((pending or {}).get("params", {}).get("playable") or []) if step == "play" else set()
    hand: list[dict[str, Any]] = []
    chosen = (draft or {}).get("card")
    for cid in (me or {}).get("hand") or []:
        info = card_info(cid)
        info["playable"] = cid in playable
        # Two copies of a card: only one is being played, so only the first is marked.
        info["chosen"] = cid == chosen and not any(h["chosen"] for h in hand)
        info["play_links"] = [
            {**o, "url": link({"act": "play", "card": cid, "option": o["option"]})} for o in info["options"]
        ]
        info["sell_move"] = draft_json({"act": "sell", "card": cid})
        hand.append(info)
    take_options = list((pending or {}).get("options") or []) if step == "take" else []
    display = []
    for cid in view.get("display") or []:
        info = card_info(cid)
        info["take_move"] = draft_json({"act": "take", "card": cid}) if cid in take_options else ""
        display.append(info)
    act = (draft or {}).get("act")
    labels = {
        "at": _("Castle"),
        "knight": _("Knight") if act == "place_castle" else _("New knight"),
        "borders": _("Borders"),
        "knights": _("Knights"),
        "domain": _("Domain"),
        "squares": _("Squares"),
        "remove": _("Deserting knight"),
        "with": _("Ally"),
    }
    draft_parts = []
    for key, label in labels.items():
        value = (draft or {}).get(key)
        if value:
            draft_parts.append((label, ", ".join(map(str, value)) if isinstance(value, list) else str(value)))
    play_text = play_card = ""
    if act == "play" and draft is not None:
        option = draft.get("option")
        play_card = card_name(str(draft.get("card")))
        play_text = card_action_text(str(draft.get("card")), option if isinstance(option, int) else 0)
    me_after = next((p for p in (after or {}).get("players") or [] if p["seat"] == viewer), None)
    outlook = []
    if after is not None:
        # What the move would change: the engine's scores and incomes before and after it (the preview).
        before = {p["seat"]: p for p in view.get("players") or []}
        for p in after.get("players") or []:
            old = before.get(p["seat"], {})
            if p["seat"] == viewer or p.get("score") != old.get("score"):
                outlook.append(
                    {
                        "name": names.get(p["seat"], "?"),
                        "is_me": p["seat"] == viewer,
                        "score": (old.get("score", 0), p.get("score", 0)),
                        "income": (old.get("income", 0), p.get("income", 0)),
                        "target": after.get("target"),
                    }
                )
    return {
        "drawing": drawing,
        "players": players,
        "neutral": view.get("neutral"),
        "neutral_colour": colour_of("neutral"),
        "me": me,
        "hand": hand,
        "display": display,
        "step": step,
        "my_move": my_move,
        "draft": draft,
        "draft_json": draft_json(draft) if draft else "",
        "draft_act": act,
        "draft_parts": draft_parts,
        "play_text": play_text,
        "play_card": play_card,
        "play_choice": act == "play"
        and draft is not None
        and len(getattr(CARDS.get(str(draft.get("card"))), "actions", ())) > 1,
        "prompt": (
            _("Choose a side of %(square)s for the border (%(n)d left), or another square.")
            % {"square": focus, "n": int((targets or {}).get("remaining") or 0)}
            if focus
            else part_prompt((targets or {}).get("part"), act, int((targets or {}).get("remaining") or 0))
        )
        if draft and targets is not None
        else "",
        "choices": list((targets or {}).get("choices") or []) if draft else [],
        "choice_links": [(c, link(draft, c)) for c in (targets or {}).get("choices") or []] if draft else [],
        "can_confirm": after is not None,
        # A legal play that places nothing: the confirm form says so and needs its tick box.
        "empty_play": after is not None and places_nothing(draft),
        "empty_field": EMPTY_PLAY_FIELD,
        "reset_url": link(None),
        "draft_url": draft_url,
        "gold_after": me_after["gold"] if me_after else None,
        "take_deck": "deck" in take_options,
        "deck_move": draft_json({"act": "take", "from": "deck"}),
        "text_form": step in ("setup", "play"),
        "neutral_setup": act == "place_neutral",
        "outlook": outlook,
        "focus": focus,
        # The focused square's four sides as large buttons (a finger cannot hit a side drawn on the board).
        "sides": sides,
        "zone_castles": zone_castles,
        "distance": distance,
    }
