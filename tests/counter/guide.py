"""The counter game's part in the guide (``guide.plugin``): a rules page and first-game hints, no card reference.

Its strings are not translated (the tests' game is never shown to players).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from guide.plugin import Guide


def rules_context() -> dict[str, Any]:
    """What the rules page quotes: the steps a move may add (the engine's legal moves at the start)."""
    return {"steps": [1, 2, 3]}


def hints(view: dict[str, Any], viewer: int | None, my_move: bool) -> list[str]:
    """One sentence for the position: what the viewer may add, and the target to reach exactly."""
    left = view["target"] - view["total"]
    if my_move:
        return [f"Add 1, 2 or 3 to the total ({view['total']}): {left} to go to reach {view['target']} exactly."]
    return [f"The first to bring the total to {view['target']} exactly wins."]


GUIDE = Guide(
    rules_template="counter/guide/rules.html",
    rules_title=_("Counter rules"),
    rules_link=_("Counter rules"),
    rules_context=rules_context,
    hints=hints,
)
