"""What a game gives the guide: its part module ``<package>.guide`` and the :class:`Guide` it defines.

The guide app (``/rules/``: a rules page and a card reference per game, and
the first-game hint strip above a board) names no game. It asks every
installed game (``games.kinds``) for its part module ``guide``; a game that
has one defines in it::

    GUIDE = Guide(
        rules_template="<kind>/guide/rules.html",
        rules_title=_("How to play <Game>"),
        rules_link=_("<Game> rules"),
        ...,
    )

and gets ``/rules/<kind>/`` (and ``/rules/<kind>/cards/`` when it has a card
reference), a line in the index ``/rules/`` and a link in the guide's menu.
A game without a ``guide`` module is left out of the guide: its pages
answer 404 and its boards have no hint strip. docs/games.md lists the part.

The templates extend ``guide/base_guide.html`` and fill its block ``guide``
(the page's text) and, for their own stylesheets, ``guide_head``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.functional import Promise

from games import kinds
from games.kinds import GameKind

#: A rules page's or card reference's context: called at each request, returns what the template quotes.
Context = Callable[[], Mapping[str, Any]]
#: The hint strip's sentences: ``(view, viewer, my_move) -> lines``, from the engine's view for ``viewer``
#: (a seat, or None for a spectator) and whether it is that viewer's move; ``[]``: no strip for this step.
Hints = Callable[[dict[str, Any], int | None, bool], list[str]]


@dataclass(frozen=True)
class Guide:
    """One game's pages in the guide, as its part module ``guide`` defines them (``GUIDE``).

    Attributes:
        rules_template: the rules page's template (extends ``guide/base_guide.html``).
        rules_title: the rules page's name in the index ("How to play <Game>"), marked for translation.
        rules_link: its short name in the guide's menu ("<Game> rules").
        rules_context: what the rules page quotes (numbers from the engine, drawn examples), or None.
        cards_template: the card reference's template, or None when the game has no card reference.
        cards_title: the card reference's name in the index ("<Game> card reference").
        cards_link: its short name in the menu ("<Game> cards").
        cards_context: what the card reference lists (``groups`` of cards, say), or None.
        hints: the first-game hints for a board in progress (:data:`Hints`), or None for no hint strip.
    """

    rules_template: str
    rules_title: str | Promise
    rules_link: str | Promise
    rules_context: Context | None = None
    cards_template: str | None = None
    cards_title: str | Promise = ""
    cards_link: str | Promise = ""
    cards_context: Context | None = None
    hints: Hints | None = None


def _guide_of(kind: GameKind, module: Any) -> Guide:
    """The ``GUIDE`` of ``kind``'s part module.

    Raises:
        TypeError: the module defines no ``GUIDE`` or not a :class:`Guide` (a broken part is loud).
    """
    guide = getattr(module, "GUIDE", None)
    if not isinstance(guide, Guide):
        raise TypeError(f"{kind.package}.guide must define GUIDE = guide.plugin.Guide(...)")
    return guide


def guides() -> list[tuple[GameKind, Guide]]:
    """Return ``(kind, guide)`` for every installed game that has a guide, in the games' list order.

    Raises:
        TypeError: a game's ``guide`` module defines no :class:`Guide`.
    """
    return [(kind, _guide_of(kind, module)) for kind, module in kinds.parts("guide")]


def guide_of(name: str) -> Guide | None:
    """Return the guide of the installed game called ``name``, or None (no such game, or it has no guide).

    Raises:
        TypeError: the game's ``guide`` module defines no :class:`Guide`.
    """
    kind = kinds.find(name)
    module = kind.part("guide") if kind is not None else None
    return _guide_of(kind, module) if kind is not None and module is not None else None
