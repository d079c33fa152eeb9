"""The emails' words: each outbox row's subject and lines, rendered in the recipient's language and time zone.

Nothing here sends or writes: ``correspondence.outbox`` decides what is
owed and hands the message to the mail backend.
"""

from __future__ import annotations

import zoneinfo
from collections.abc import Callable
from datetime import datetime
from email.utils import parseaddr
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.crypto import salted_hmac
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from accounts.models import User
from correspondence.models import Notification
from correspondence.preferences import unsubscribe_token
from games.i18n import game_title
from games.models import Game
from website.text import one_line

Kind = Notification.Kind

#: Renderers of the kinds written by apps above games (``register_content``): kind -> function.
_renderers: dict[str, Callable[[Notification], dict[str, Any]]] = {}
#: Their checks of whether a row still makes sense at sending time: kind -> function.
_relevance: dict[str, Callable[[Notification], bool]] = {}


def register_content(
    kind: str,
    renderer: Callable[[Notification], dict[str, Any]],
    relevant: Callable[[Notification], bool] | None = None,
) -> None:
    """Let an app above games word the emails of ``kind`` (call from its ``AppConfig.ready``).

    ``renderer(notification)`` runs with the recipient's language and time
    zone active and returns ``{"subject", "lines", "games"}`` as
    :func:`content_for` does. Correspondence thus sends a tournament's
    emails without importing the tournaments app. ``relevant(notification)``,
    if given, is asked just before sending: False skips the row (a rematch
    offer that lapsed or started meanwhile).
    """
    _renderers[kind] = renderer
    if relevant is not None:
        _relevance[kind] = relevant


def still_relevant(n: Notification) -> bool:
    """False if the app that wrote ``n`` says it no longer applies (``register_content``); True otherwise."""
    check = _relevance.get(n.kind)
    return check is None or check(n)


def game_title_of(game: Game) -> str:
    """The game's title as the emails name it (in the active language)."""
    return game_title(game)


def absolute(path: str) -> str:
    """``path`` as an absolute URL on ``settings.SITE_URL`` (emails have no request)."""
    return settings.SITE_URL.rstrip("/") + path


def _when(dt: datetime | None) -> str:
    """Format ``dt`` in the active time zone and language, naming the zone ("Dec 2, 2026, 14:00 (Europe/Paris)").

    An email is read anywhere, maybe long after: a deadline without its zone
    is a guess.
    """
    if dt is None:
        return ""
    zone = timezone.get_current_timezone_name()
    return f"{date_format(timezone.localtime(dt), 'DATETIME_FORMAT')} ({zone})"


def content_for(n: Notification) -> dict[str, Any]:
    """Subject, lines and game links of ``n``'s email, in the recipient's language and time zone."""
    with translation.override(n.user.language or settings.LANGUAGE_CODE), timezone.override(zone_of(n.user)):
        return _content_lines(n)


def _content_lines(n: Notification) -> dict[str, Any]:
    """``content_for`` without switching language and zone (the caller did)."""
    if n.kind in _renderers:
        return _renderers[n.kind](n)
    game = n.game
    if game is None:
        # Only a kind with its own renderer (matchmaking's seek_expired) may be about no game.
        raise ValueError(f"notification {n.pk} ({n.kind}) is about no game and no renderer words it")
    title = game_title_of(game)
    seats = list(game.seats.select_related("user").order_by("position"))
    mine = next((s for s in seats if s.user_id == n.user_id), None)
    others = _(", ").join(str(s.name) for s in seats if s.user_id != n.user_id)
    lines: list[str] = []
    if n.kind == Kind.YOUR_MOVE:
        subject = _("Your move in %(game)s") % {"game": title}
        lines.append(_("It is your move in %(game)s (with %(others)s).") % {"game": title, "others": others})
        if mine and mine.deadline:
            lines.append(_("Move before %(when)s.") % {"when": _when(mine.deadline)})
    elif n.kind == Kind.GAME_STARTED:
        subject = _("%(game)s has started") % {"game": title}
        lines.append(_("%(game)s has started, with %(others)s.") % {"game": title, "others": others})
        if mine and mine.owes_move:
            lines.append(_("You move first."))
    elif n.kind == Kind.GAME_OVER:
        subject = _("%(game)s is over") % {"game": title}
        lines.append(_("%(game)s is over. The result:") % {"game": title})
        lines.extend(_result_lines(seats))
    elif n.kind == Kind.TIME_LOW:
        subject = _("You are running out of time in %(game)s") % {"game": title}
        lines.append(
            _("Your time for this move in %(game)s runs out at %(when)s.")
            % {"game": title, "when": _when(mine.deadline if mine else None)}
        )
    elif n.kind == Kind.TIMED_OUT:
        late = next((s for s in seats if s.position == n.data.get("position")), None)
        name = late.user.shown_name if late and late.user else "?"
        if n.data.get("resigned"):
            subject = _("%(name)s resigned in %(game)s") % {"name": name, "game": title}
            lines.append(_("%(name)s resigned in %(game)s.") % {"name": name, "game": title})
        elif n.data.get("by_moderator"):
            subject = _("A moderator forfeited %(name)s's seat in %(game)s") % {"name": name, "game": title}
            lines.append(_("A moderator forfeited %(name)s's seat in %(game)s.") % {"name": name, "game": title})
        else:
            subject = _("%(name)s ran out of time in %(game)s") % {"name": name, "game": title}
            lines.append(_("%(name)s ran out of time in %(game)s.") % {"name": name, "game": title})
        if n.data.get("aborted"):
            lines.append(
                _("They had not made a move yet, so %(game)s is aborted: it has no result and is not rated.")
                % {"game": title}
            )
        elif n.data.get("game_over"):
            # The only email the others get for a forfeit that ends the game (see
            # outbox.notify_game_over), so it carries the result too.
            lines.append(_("%(game)s is over. The result:") % {"game": title})
            lines.extend(_result_lines(seats))
        else:
            lines.append(_("They are ranked last, and a bot plays their seat so that you can finish."))
    elif n.kind == Kind.CANCELLED:
        subject = _("%(game)s was cancelled") % {"game": title}
        lines.append(_("Not enough players joined %(game)s in 14 days, so it was cancelled.") % {"game": title})
    elif n.kind == Kind.UNDO_ASKED:
        asker = next((s for s in seats if s.position == n.data.get("seat")), None)
        name = str(asker.name) if asker else "?"
        subject = _("%(name)s asks to take back a move in %(game)s") % {"name": name, "game": title}
        lines.append(_("%(name)s asks to take back their last move in %(game)s.") % {"name": name, "game": title})
        lines.append(_("Open the game to allow it or refuse; the request ends with the next move."))
    elif n.kind == Kind.INVITED:
        host = User.objects.filter(pk=n.data.get("by")).first()
        name = host.shown_name if host is not None else "?"
        subject = _("%(name)s invited you to %(game)s") % {"name": name, "game": title}
        lines.append(_("%(name)s invited you to play %(game)s.") % {"name": name, "game": title})
        lines.append(_("Open the game to take your seat; it starts when every seat is taken."))
    else:  # chat
        author = next((s for s in seats if s.user_id == n.data.get("from")), None)
        name = author.user.shown_name if author and author.user else "?"
        subject = _("%(name)s wrote in %(game)s") % {"name": name, "game": title}
        lines.append(_("%(name)s wrote:") % {"name": name})
        # Chat saved before line breaks were refused must not start a line of its own here.
        lines.append(one_line(n.data.get("text", "")))
    return {"subject": subject, "lines": lines, "games": [(title, absolute(game.get_absolute_url()))]}


def _result_lines(seats: list) -> list[str]:
    """One line per seat, best rank first: rank, name, score, and why a seat gave up."""
    lines = []
    for s in sorted(seats, key=lambda s: (s.rank or 99, s.position)):
        line = _("%(rank)s. %(name)s") % {"rank": s.rank or "–", "name": s.name}
        if s.score is not None:
            line += " " + _("(%(score)d points)") % {"score": s.score}
        if s.resigned:
            line += " " + _("(resigned)")
        elif s.forfeited_by_moderator:
            line += " " + _("(forfeited by a moderator)")
        elif s.forfeited:
            line += " " + _("(ran out of time)")
        lines.append(line)
    return lines


def message_id(what: str, key: object) -> str:
    """A Message-ID header that is the same every time ``what`` ``key`` is sent (``<herald.notification.42.…@host>``).

    ``what`` names the kind of row (``"notification"``, ``"digest"``) and
    ``key`` the row; a constant derived from ``SECRET_KEY`` keeps two Herald
    sites (staging and production, whose ids overlap) from sharing ids, and
    the domain is that of ``DEFAULT_FROM_EMAIL`` (else ``SITE_URL``'s host).
    A message sent twice (a sender killed after the mail server accepted it,
    before the row was marked sent) thus carries one id, and mail clients
    and most servers show it once (RFC 5322 3.6.4).
    """
    domain = parseaddr(settings.DEFAULT_FROM_EMAIL)[1].rpartition("@")[2] or urlsplit(settings.SITE_URL).hostname
    site = salted_hmac("herald.message-id", "site").hexdigest()[:12]
    return f"<herald.{what}.{key}.{site}@{domain or 'localhost'}>"


def message_for(
    user: User, content: dict[str, Any], kind: str, *, message_id: str | None = None
) -> EmailMultiAlternatives:
    """Render an email (HTML and text) for ``user`` in their language and time zone.

    ``message_id``: the ``Message-ID`` header (see :func:`message_id`); None
    lets Django make a fresh one when the message is sent.
    """
    unsubscribe = absolute(reverse("correspondence:unsubscribe", kwargs={"token": unsubscribe_token(user, kind)}))
    with translation.override(user.language or settings.LANGUAGE_CODE):
        context = {
            **content,
            "user": user,
            "unsubscribe_url": unsubscribe,
            "settings_url": absolute(reverse("correspondence:settings")),
            "kind_label": Kind(kind).label,
            # No request here, so no i18n context processor: the HTML names its language itself.
            "LANGUAGE_CODE": translation.get_language(),
        }
        text = render_to_string("correspondence/email/message.txt", context)
        html = render_to_string("correspondence/email/message.html", context)
        subject = "[Herald] " + " ".join(str(content["subject"]).split())
    message = EmailMultiAlternatives(
        subject,
        text,
        to=[user.email],
        headers={
            "List-Unsubscribe": f"<{unsubscribe}>",
            # RFC 8058: the mail client may unsubscribe with one POST, no page.
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            **({"Message-ID": message_id} if message_id else {}),
        },
    )
    message.attach_alternative(html, "text/html")
    return message


def zone_of(user: User) -> zoneinfo.ZoneInfo:
    """The user's time zone, UTC when unset or unknown."""
    try:
        return zoneinfo.ZoneInfo(user.time_zone or "UTC")
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")
