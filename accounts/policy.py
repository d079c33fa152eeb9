"""What accounts asks of the apps above it, without importing them (as ``games.policy`` does for games).

``accounts`` sits below every app that keeps rows about a user (docs/architecture.md,
"The layers"), so two of its rules need answers from above:

* Deleting an account: each app tidies what the account leaves behind
  (``games``: cancels the open games it created, leaves the open games it
  sat down at, drops its invitations and private notes), inside the
  deletion's transaction with the user's row locked, before the row is
  anonymised.
* Making a bot account: only an account that has never played may become
  one (``games``: it never took a seat).

Each app answers by registering a function in its ``AppConfig.ready``; with
nothing registered, a deletion tidies nothing above ``accounts`` and every
account counts as never having played.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from accounts.models import User

Farewell = Callable[["User"], None]
PlayedCheck = Callable[["User"], bool]

_farewells: list[Farewell] = []
_played_checks: list[PlayedCheck] = []


def register_deletion(tidy: Farewell) -> None:
    """Add ``tidy(user)`` to what deleting ``user``'s account does, in the order registered (idempotent)."""
    if tidy not in _farewells:
        _farewells.append(tidy)


def register_played_check(check: PlayedCheck) -> None:
    """Add ``check(user) -> bool`` (True: ``user`` has played) to the checks (idempotent)."""
    if check not in _played_checks:
        _played_checks.append(check)


def account_deleting(user: User) -> None:
    """Let every app tidy what ``user``'s account leaves (call inside the deletion's transaction)."""
    for tidy in _farewells:
        tidy(user)


def has_played(user: User) -> bool:
    """True if an app says ``user`` has played (so the account may not become a bot account)."""
    return any(check(user) for check in _played_checks)
