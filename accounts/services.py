"""Everything that writes User and Block rows (allauth writes email addresses).

Keyword-only functions, each in one transaction, raising
:class:`AccountError` with a sentence the user can read.
"""

from __future__ import annotations

from allauth.account.models import EmailAddress
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import policy
from accounts.models import Block, User

__all__ = ["AccountError", "block_create", "block_delete", "user_delete", "user_make_bot", "user_settings_update"]


class AccountError(Exception):
    """A request about an account that is refused; ``str(err)`` is for the user."""


def user_standing_update(*, user: User, settings: dict[str, str]) -> User:
    """Save ``user``'s standing answers for the games they start from now on.

    Args:
        settings: question -> setting, as the game's standing form cleans them
            (``games.presentation.account_standing_form``; running games keep their own copy, ``Seat.standing``).

    Returns:
        The saved user.
    """
    user.standing_answers = dict(settings)
    user.save(update_fields=["standing_answers"])
    return user


def user_settings_update(*, user: User, display_name: str, language: str, time_zone: str) -> User:
    """Save ``user``'s display name, language and time zone.

    Args:
        display_name: shown instead of the username; blank for the username.
        language: a code of ``settings.LANGUAGES``, or blank to follow the browser.
        time_zone: an IANA name (validated by the form and the model).

    Returns:
        The saved user.

    Raises:
        django.core.exceptions.ValidationError: a value the model refuses.
    """
    user.display_name = display_name.strip()
    user.language = language
    user.time_zone = time_zone
    user.full_clean(validate_unique=False, exclude=["password", "username", "email"])
    user.save(update_fields=["display_name", "language", "time_zone"])
    return user


def user_delete(*, user: User) -> User:
    """Delete ``user``'s account, keeping their games.

    The row stays (seats of finished games point at it) but is made
    anonymous: the username becomes ``deleted-<id>``, email, names and
    password are wiped, the account is deactivated and marked ``deleted``,
    so it shows as "deleted player" everywhere. Their email addresses,
    blocks (both ways), private game notes, invitations and seats at games that have not
    started are removed; open games they created are cancelled. Running
    games go on, and their clocks run out as for anyone who stops playing.
    Ratings and rating history are kept (the ladder hides inactive accounts).

    Returns:
        The anonymised user.

    Raises:
        AccountError: the account was already deleted.
    """

    with transaction.atomic():
        user = User.objects.select_for_update().get(pk=user.pk)
        if user.deleted is not None:
            raise AccountError(_("This account has already been deleted."))
        now = timezone.now()
        # The apps above tidy what the account leaves first (games: open games cancelled or left, invitations
        # and private notes gone), each through its own functions (accounts.policy).
        policy.account_deleting(user)
        Block.objects.filter(blocker=user).delete()
        Block.objects.filter(blocked=user).delete()
        EmailAddress.objects.filter(user=user).delete()
        user.username = f"deleted-{user.pk}"
        user.email = ""
        user.first_name = user.last_name = user.display_name = ""
        user.set_unusable_password()
        user.is_active = False
        user.is_staff = user.is_superuser = False
        user.deleted = now
        user.save()
    return user


def block_create(*, blocker: User, blocked: User) -> Block:
    """Record that ``blocker`` blocks ``blocked`` (idempotent).

    Raises:
        AccountError: blocking oneself.
    """
    if blocker.pk == blocked.pk:
        raise AccountError(_("You cannot block yourself."))
    with transaction.atomic():
        block, _created = Block.objects.get_or_create(blocker=blocker, blocked=blocked)
    return block


def block_delete(*, blocker: User, blocked: User) -> bool:
    """Lift ``blocker``'s block of ``blocked``; return whether there was one."""
    deleted, _detail = Block.objects.filter(blocker=blocker, blocked=blocked).delete()
    return bool(deleted)


def user_make_bot(*, user: User) -> User:
    """Turn ``user``'s fresh account into a bot account, for good.

    A bot account is played by a program through the API; its name shows
    "(bot)" everywhere. Only a fresh account may become one: one that has
    never taken a seat, so no person's games or results change hands.

    Raises:
        AccountError: the account has taken a seat in a game, or is already a bot account.
    """
    with transaction.atomic():
        user = User.objects.select_for_update().get(pk=user.pk)
        if user.bot_account:
            raise AccountError(_("This account is already a bot account."))
        if policy.has_played(user):
            raise AccountError(_("Only an account that has never played can become a bot account."))
        user.bot_account = True
        user.save(update_fields=["bot_account"])
    return user
