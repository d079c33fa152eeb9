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
* The settings page's standing answers: the form of the answers an account
  keeps for the games it starts (``games``: the first installed game whose
  page part has one, ``games.presentation.account_standing_form``).

Each app answers by registering a function in its ``AppConfig.ready``; with
nothing registered, a deletion tidies nothing above ``accounts``, every
account counts as never having played and the settings page has no
standing answers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from accounts.models import User

Farewell = Callable[["User"], None]
PlayedCheck = Callable[["User"], bool]
#: ``source() -> form class or None``; the class takes ``(data=None, initial_settings=...)``
#: and has ``cleaned_settings()``.
StandingFormSource = Callable[[], Any]

_farewells: list[Farewell] = []
_played_checks: list[PlayedCheck] = []
_standing_forms: list[StandingFormSource] = []


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


def register_standing_form(source: StandingFormSource) -> None:
    """Add ``source() -> form class or None`` to where the settings page finds its standing answers (idempotent)."""
    if source not in _standing_forms:
        _standing_forms.append(source)


def standing_form() -> Any:
    """The form class of the standing answers an account keeps for new games (the first source's), or None."""
    for source in _standing_forms:
        if (form := source()) is not None:
            return form
    return None
