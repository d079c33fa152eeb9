"""Domaine's first-game hints: the sentences of the hint strip above its board (``guide.hints``).

Its board is the one a newcomer cannot read by itself, so the guide's
strip explains each step of a first game. It decides no rule: the numbers
it quotes (the castle distance in force, the target) come from the
engine's view and decision.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _


def domaine_lines(view: dict[str, Any], viewer: int | None, my_move: bool) -> list[str]:
    """Sentences for a first Domaine game at this step (setup, play, take), for ``viewer``."""
    step = (view.get("turn") or {}).get("step")
    pending = (view.get("pending") or [{}])[0] or {}
    lines = []
    if step == "setup":
        distance = (pending.get("params") or {}).get("distance")
        if my_move and (pending.get("params") or {}).get("neutral"):
            lines.append(
                _(
                    "Place a grey neutral castle on a highlighted meadow. Neutral castles have no knights and "
                    "score nothing."
                )
            )
        elif my_move:
            lines.append(_("Place a castle on a highlighted meadow, then its first knight on a square next to it."))
        else:
            lines.append(_("Setup: the players place their castles in turn, each with a knight beside it."))
        if distance:
            lines.append(
                _(
                    "Your castles must stand at least %(n)d squares apart, counted across plus down: the squares "
                    "tinted on the board are too near one of yours, which is why fewer squares are offered for "
                    "each castle."
                )
                % {"n": distance}
            )
    else:
        me = next((p for p in view.get("players") or [] if p.get("seat") == viewer), None)
        if step == "play" and my_move:
            lines.append(
                _(
                    "Your turn: play one card (pay its cost, then place what it gives) or sell it for its price. "
                    "Tap a card's name to read what it does."
                )
            )
        elif step == "take" and my_move:
            lines.append(
                _("Now take a card: the top of the deck, or one from the display (not the one sold this turn).")
            )
        if me is not None and not me.get("score"):
            lines.append(
                _(
                    "Only domains score: an area closed by borders (and the rim) around exactly one of your "
                    "castles. Until you close one, your score stays 0."
                )
            )
        if me is not None and not me.get("income"):
            # The walk-through: both new players spent their 7 gold and were broke by their third turn.
            lines.append(
                _(
                    "No income yet: gold comes only from mines inside your domains (1 gold a turn for each kind). "
                    "Until a domain of yours holds a mine, the gold you have and the cards you sell are all there "
                    "is, so spend it on closing a domain around a mine."
                )
            )
        lines.append(
            _(
                "Forests score 1, villages 3, the royal city 5; each kind of mine you hold 3 times scores 5 and "
                "every mine kind pays 1 gold a turn."
            )
        )
    lines.append(_("The first player to reach %(n)d points wins at once.") % {"n": view.get("target", 0)})
    return lines
