"""A game's chat: posting a line (reading it is ``games.selectors``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import events, policy
from games.errors import ChatInvalid, ChatRateLimited, ChatRefused
from games.fanout import on_commit_fan_out
from games.models import ChatMessage, Game

if TYPE_CHECKING:
    from accounts.models import User


def chat_post(*, game_id: int, user: User, text: str) -> ChatMessage:
    """Post a line of plain text to a game's chat; publish ``ChatPosted``.

    Whitespace at the ends is dropped; the text is stored as typed and
    escaped when shown. Visibility is the caller's check (see
    ``games.selectors.can_view``).

    Raises:
        Game.DoesNotExist: no such game.
        ChatInvalid: empty, or longer than ``ChatMessage.MAX_LENGTH``.
        ChatRateLimited: more than ``settings.CHAT_RATE_LIMIT`` messages in
            ``settings.CHAT_RATE_WINDOW`` seconds from this user.
        ChatRefused: the user is muted or banned by a moderator.
    """
    if policy.is_restricted(user, "chat"):
        raise ChatRefused(_("A moderator has stopped you from chatting."))
    text = (text or "").strip()
    if not text:
        raise ChatInvalid(_("Write something first."))
    if len(text) > ChatMessage.MAX_LENGTH:
        raise ChatInvalid(_("A message can be at most %(n)d characters.") % {"n": ChatMessage.MAX_LENGTH})
    _chat_rate_check(user)
    game = Game.objects.only("pk", "last_seq").get(pk=game_id)
    since = timezone.now()
    with transaction.atomic():
        message = ChatMessage.objects.create(game=game, user=user, text=text)
        events.publish(events.ChatPosted(message=message))
        # The chat emails need not delay the poster's answer.
        on_commit_fan_out(game, since=since, bot_to_act=False, after_answer=True)
    return message


def _chat_rate_check(user: User) -> None:
    """Count this message in a fixed window per user; refuse past the limit."""
    key = f"herald:chat-rate:{user.pk}"
    window = settings.CHAT_RATE_WINDOW
    cache.add(key, 0, window)
    try:
        count = cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, window)
        count = 1
    if count > settings.CHAT_RATE_LIMIT:
        raise ChatRateLimited(_("You are sending messages too quickly; wait a few seconds."))
