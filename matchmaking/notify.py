"""The words of matchmaking's notices (an expired seek, a rematch offer), for correspondence's outbox.

The rows are written by ``matchmaking.services.seeks_expire`` and
``matchmaking.rematch.rematch_accept`` through ``correspondence.outbox.notify_other``
in the transaction that made the news, and sent (email and push), retried,
swept and unsubscribed from like every other
(``NotificationSettings.seek_expired`` / ``rematch``). Correspondence
calls :func:`render_seek_expired` and :func:`render_rematch` in the
recipient's language; a rematch notice is skipped if its offer is no longer
open when it is sent (``rematch.offer_still_open``).
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _

from accounts.models import User
from correspondence.emails import absolute, game_title_of, register_content
from correspondence.models import Notification
from games.i18n import game_name
from matchmaking.models import Seek
from matchmaking.rematch import offer_still_open


def render_seek_expired(n: Notification) -> dict[str, Any]:
    """ "Nobody took your seek": subject, lines and a link to the lobby to seek again."""
    seek = Seek.objects.filter(pk=n.data.get("seek")).first()
    game = game_name(seek.kind if seek else n.data.get("kind", ""))
    return {
        "subject": _("Your seek for a game of %(game)s expired") % {"game": game},
        "lines": [
            _("Nobody was matched with your seek for a game of %(game)s before it expired.") % {"game": game},
            _("Seek again from the lobby, perhaps with a wider rating range or a longer wait."),
        ],
        "games": [(_("Lobby"), absolute(reverse("games:lobby")))],
    }


def render_rematch(n: Notification) -> dict[str, Any]:
    """ "X offers a rematch of <game>": subject, lines and the finished game's link (where to accept)."""
    host = User.objects.filter(pk=n.data.get("by")).first()
    name = host.shown_name if host is not None else "?"
    game = n.game
    if game is None:
        raise ValueError(f"rematch notification {n.pk} names no game")
    title = game_title_of(game)
    return {
        "subject": _("%(name)s offers a rematch of %(game)s") % {"name": name, "game": title},
        "lines": [
            _("%(name)s would like to play %(game)s again, with the same players and options.")
            % {"name": name, "game": title},
            _("Open the game to accept or decline; the offer lapses after a day."),
        ],
        "games": [(title, absolute(game.get_absolute_url()))],
    }


def connect() -> None:
    """Register the renderers (and the rematch's still-open check) with correspondence (idempotent)."""
    register_content(Notification.Kind.SEEK_EXPIRED, render_seek_expired)
    register_content(Notification.Kind.REMATCH, render_rematch, offer_still_open)
