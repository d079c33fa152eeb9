"""What the game page asks of a game: its page part, ``<package>/page.py`` (docs/games.md).

The platform draws the page of every game the same way (status, seats and
clocks, the log, the chat) and leaves the board to the game. It finds what
a game adds through the registry (``games.kinds``), never by the game's
name. A game's **page part** is the module ``<package>/page.py``; every name
in it is optional, and a game without the module (the tests' counter game)
gets the defaults below:

``BOARD_TEMPLATE``
    The template that draws the board, given the page's context (``game``,
    ``seat``, ``viewer``, ``you``, ``view``, ``my_move``, ``seats``,
    ``replaying``). Default: ``"<kind>/board.html"`` (the game's app's
    ``templates/<kind>/board.html``); either way the page falls back to
    ``games/generic_board.html`` (the view as JSON and a button per legal
    move) when the template does not exist.
``STYLESHEET``
    The board's stylesheet, a static path (``"<kind>/<kind>.css"``, from the
    game's app's ``static/<kind>/``), linked in the page's head; default none.
``STANDING_FORM``
    The form of the game's standing answers (answers a player gives in
    advance to questions the rules ask out of turn), built as
    ``STANDING_FORM(data, initial_settings=seat.standing)``, offering
    ``cleaned_settings()`` and drawn by its ``page_template`` (given
    ``form``, ``game_id`` and ``heading_id``); the page shows it to a seat still playing a
    running game and posts it to ``games:standing``. Default: none (the
    game asks nothing out of turn, and ``games:standing`` answers 400).
``LOG_READS_TURN``
    True when the game's log texts need to know whether the turn's player
    is free to move (``games.viewing.turn_free``, passed to the log as
    ``settled``); computing it costs a look at the engine's pending
    decisions, so it is done only for games that say so. Default False.
``UNDO_HINT_TEMPLATE``
    A template saying, in the game's words, that the turn ends by itself
    after the grace for taking a move back (``undo.grace`` seconds), for a
    game whose waiting move is not "End turn". Default: the page's own
    sentence ("Press End turn now, or Undo ...").
``options_text(options) -> str``
    The game's options (``Game.options``) in words for the page's line of
    facts about the game ("Kingdom: ..."); "" for nothing. Default: nothing.
``confirm_move(move, post)``
    A check of the page (not of the rules) before a move posted from the
    page is made: a refusal (a sentence for the player, a 422) or None to go
    on. Default: none.

A game that needs views of its own (a board built by clicks) adds a
``<package>/urls.py`` part whose ``urlpatterns`` join the ``games`` URL
namespace (:func:`urlpatterns`); its paths should start with
``games/<int:game_id>/<kind>/`` so they never clash with another game's.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from games import kinds

#: The board every game without a board template of its own is drawn with.
GENERIC_BOARD = "games/generic_board.html"


def page_part(kind: str) -> ModuleType | None:
    """Return the page part (``<package>/page.py``) of the game called ``kind``, or None.

    None also for a kind no installed game has (a stored game of a game
    since removed): the page then draws the generic board.
    """
    found = kinds.find(kind)
    return found.part("page") if found is not None else None


def board_templates(kind: str) -> list[str]:
    """Return the templates to try for the board of a ``kind`` game, the game's own first."""
    part = page_part(kind)
    own = getattr(part, "BOARD_TEMPLATE", None) or f"{kind}/board.html"
    return [own, GENERIC_BOARD]


def stylesheet(kind: str) -> str | None:
    """Return the static path of the board's stylesheet of a ``kind`` game, or None."""
    return getattr(page_part(kind), "STYLESHEET", None)


def standing_form(kind: str) -> Any:
    """Return the form class of a ``kind`` game's standing answers (``STANDING_FORM``), or None."""
    return getattr(page_part(kind), "STANDING_FORM", None)


def log_reads_turn(kind: str) -> bool:
    """Whether a ``kind`` game's log needs ``settled`` (see ``LOG_READS_TURN``)."""
    return bool(getattr(page_part(kind), "LOG_READS_TURN", False))


def account_standing_form() -> Any:
    """Return the form of the standing answers a player keeps in their settings for new games, or None.

    An account holds one set (``User.standing_answers``): the first installed
    game's with a ``STANDING_FORM`` (its ``page`` part) answers for it.
    """
    for kind in kinds.names():
        if (form := standing_form(kind)) is not None:
            return form
    return None


def undo_hint_template(kind: str) -> str | None:
    """Return the template of a ``kind`` game's own hint on a turn that ends by itself (``UNDO_HINT_TEMPLATE``)."""
    return getattr(page_part(kind), "UNDO_HINT_TEMPLATE", None)


def options_text(game: Any) -> str:
    """Return a game's options in words for its page (the part's ``options_text``), or ""."""
    hook = getattr(page_part(game.kind), "options_text", None)
    return str(hook(game.options or {})) if hook is not None else ""


def confirm_move(kind: str, move: Any, post: Any) -> str | None:
    """Return the page's refusal of ``move`` (posted with form ``post``) for a ``kind`` game, or None."""
    hook = getattr(page_part(kind), "confirm_move", None)
    return hook(move, post) if hook is not None else None


def urlpatterns() -> list[Any]:
    """Return the URL patterns of every installed game's ``urls`` part, in the games' order."""
    out: list[Any] = []
    for _kind, module in kinds.parts("urls"):
        out.extend(getattr(module, "urlpatterns", []))
    return out
