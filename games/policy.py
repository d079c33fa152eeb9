"""What games asks of the apps above it, without importing them.

Two questions the rules of the site need answered while a game changes,
whose answers live in apps that depend on ``games`` (so ``games`` must not
import them):

* Is this user restricted from an action? (``moderation``: a ban stops
  ``create``, ``join`` and ``move``; a mute or a ban stops ``chat``.)
* Until when is each of these users away? (``correspondence``: a vacation
  stops a player's clocks.)
* Must this game end with a result whoever leaves it? (``tournaments``: a
  table's game keeps the forfeit rule when a player leaves at move 0, where
  others are aborted: ``games.leaving.at_move_0``.)
* May this viewer read the chat lines a moderator hid? (``moderation``:
  moderators may, marked as hidden.)

And one thing it lets them do: the periodic work they run from a page
request when no Celery beat runs (``correspondence``'s sweep on the lobby
and the game page, ``matchmaking``'s tick on the lobby).

Each app answers by registering a function in its ``AppConfig.ready``;
with nothing registered, nobody is restricted, nobody is away, no game
needs a result, nobody reads hidden chat and pages do no periodic work
(the engines' and services' own tests run that way).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser

    from accounts.models import User
    from games.models import Game

#: The actions a restriction may stop.
ACTIONS = frozenset({"create", "join", "move", "chat"})

Restriction = Callable[["User", str], bool]
Absence = Callable[[Iterable[int], datetime], dict[int, datetime]]

ResultNeed = Callable[["Game"], bool]
HiddenChatReader = Callable[["User | AnonymousUser"], bool]
RequestWork = Callable[[], None]

#: The pages that run the apps' periodic work from their requests.
PAGES = frozenset({"lobby", "game"})

_restrictions: list[Restriction] = []
_absences: list[Absence] = []
_result_needs: list[ResultNeed] = []
_hidden_chat_readers: list[HiddenChatReader] = []
_request_work: list[tuple[RequestWork, frozenset[str]]] = []


def register_restriction(check: Restriction) -> None:
    """Add ``check(user, action) -> bool`` (True: refused) to the restriction checks (idempotent)."""
    if check not in _restrictions:
        _restrictions.append(check)


def register_absence(source: Absence) -> None:
    """Add ``source(user_ids, now) -> {user_id: back_at}`` to the absence sources (idempotent)."""
    if source not in _absences:
        _absences.append(source)


def register_result_required(check: ResultNeed) -> None:
    """Add ``check(game) -> bool`` (True: the game must end with a result) to the result checks (idempotent)."""
    if check not in _result_needs:
        _result_needs.append(check)


def result_required(game: Game) -> bool:
    """True if an app needs ``game`` to end with a result, even when a player leaves it at move 0."""
    return any(check(game) for check in _result_needs)


def is_restricted(user: User, action: str) -> bool:
    """True if any registered check refuses ``user`` the ``action`` (one of :data:`ACTIONS`).

    Raises:
        ValueError: an unknown action.
    """
    if action not in ACTIONS:
        raise ValueError(f"unknown action {action!r}")
    return any(check(user, action) for check in _restrictions)


def away_until(user_ids: Iterable[int], now: datetime) -> dict[int, datetime]:
    """``{user_id: when they are back}`` for those of ``user_ids`` who are away at ``now`` (UTC).

    When several sources answer for one user, the latest return wins.
    """
    ids = list(user_ids)
    out: dict[int, datetime] = {}
    for source in _absences:
        for user_id, back in source(ids, now).items():
            if user_id not in out or back > out[user_id]:
                out[user_id] = back
    return out


def register_hidden_chat_reader(check: HiddenChatReader) -> None:
    """Add ``check(user) -> bool`` (True: this viewer reads hidden chat lines, marked) to the checks (idempotent)."""
    if check not in _hidden_chat_readers:
        _hidden_chat_readers.append(check)


def reads_hidden_chat(user: User | AnonymousUser) -> bool:
    """True if an app lets ``user`` read the chat lines a moderator hid (the game page marks them)."""
    return any(check(user) for check in _hidden_chat_readers)


def register_request_work(work: RequestWork, pages: Iterable[str] = PAGES) -> None:
    """Run ``work()`` from requests of ``pages`` (some of :data:`PAGES`), in the order registered (idempotent).

    ``work`` decides for itself whether to run now (without a Celery beat, at
    most so often) and never raises: the page matters more.

    Raises:
        ValueError: an unknown page.
    """
    where = frozenset(pages)
    if not where <= PAGES:
        raise ValueError(f"unknown pages {sorted(where - PAGES)}")
    if all(known is not work for known, _where in _request_work):
        _request_work.append((work, where))


def request_work(page: str) -> None:
    """Run the periodic work the apps registered for ``page`` (one of :data:`PAGES`), from its request."""
    for work, where in _request_work:
        if page in where:
            work()
