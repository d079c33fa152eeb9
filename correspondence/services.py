"""The notification outbox, the emails, vacations, and the periodic sweep.

The outbox pattern: ``notify_*`` functions write ``Notification`` rows in
the caller's transaction (the move, the start, the timeout), so whether a
message is owed is decided together with the event. After commit,
``games.services.after_move`` calls :func:`outbox_enqueue`, which queues one
``send_notification`` task per pending row; :func:`sweep` (every minute,
from Celery beat, or from the web process when there is no broker) sends
whatever is left. :func:`notification_send` locks the row, re-checks that
the message still makes sense, hands it to the mail backend and only then
marks it sent, so a task run twice, or a task and the sweep together, send
one email.

Times are stored in UTC and shown in each recipient's time zone, in the
recipient's language.
"""

from __future__ import annotations

import logging
import math
import zoneinfo
from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.core import signing
from django.core.cache import cache
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.db.models import F, Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from correspondence.models import Notification, NotificationSettings, Vacation
from games.models import Game, Seat

if TYPE_CHECKING:
    from accounts.models import User
    from games.models import ChatMessage

log = logging.getLogger(__name__)

Kind = Notification.Kind
Status = Notification.Status

#: The sweep leaves rows younger than this to the task queued after commit.
OUTBOX_GRACE = timedelta(minutes=1)
#: After this many failed attempts a row is marked failed and left alone.
MAX_ATTEMPTS = 10
#: Rows, seats or games one sweep handles per step (the next sweep does the rest).
SWEEP_BATCH = 200
#: Vacation days each user may take per calendar year (UTC).
VACATION_DAYS_PER_YEAR = 14
#: The part of a started vacation day that is not charged.
VACATION_GRACE = timedelta(hours=1)
#: A player counts as away from a game (for chat emails) after this long without opening it.
CHAT_AWAY = timedelta(minutes=15)
#: At most one chat email per player and game in this time.
CHAT_EMAIL_GAP = timedelta(hours=1)
#: Seconds between two sweeps run from web requests (no broker).
REQUEST_SWEEP_INTERVAL = 30

UNSUBSCRIBE_SALT = "herald.correspondence.unsubscribe"


class VacationError(Exception):
    """A vacation the rules refuse; ``str(err)`` is for the user."""


# ---------------------------------------------------------------------------
# Settings


def settings_for(user: User) -> NotificationSettings:
    """Return ``user``'s notification settings; an unsaved default row if they never chose."""
    try:
        return user.notification_settings
    except NotificationSettings.DoesNotExist:
        return NotificationSettings(user=user)


def settings_update(*, user: User, **values: Any) -> NotificationSettings:
    """Save ``user``'s notification settings (field name -> value) and return them."""
    row, _created = NotificationSettings.objects.get_or_create(user=user)
    for name, value in values.items():
        setattr(row, name, value)
    row.save()
    return row


# ---------------------------------------------------------------------------
# Writing outbox rows (inside the caller's transaction)


def _notify(users: Iterable[Any], game: Game, kind: str, seq: int, data: dict[str, Any] | None = None) -> int:
    """Write one pending row per user for this event; an existing row (same key) is kept.

    Returns the number of rows written. Users are ids or User objects.
    """
    rows = [
        Notification(user_id=getattr(u, "pk", u), game=game, kind=kind, seq=seq, data=data or {})
        for u in {getattr(u, "pk", u) for u in users if u is not None}
    ]
    if not rows:
        return 0
    # The unique key (user, game, kind, seq) makes a repeated event a no-op.
    Notification.objects.bulk_create(rows, ignore_conflicts=True)
    return len(rows)


def notify_your_move(*, game: Game, seats: Iterable[Seat]) -> None:
    """Owe a "your move" to each of ``seats`` (their clock just started). Caller holds the lock."""
    seats = [s for s in seats if s.user_id is not None and not s.bot_played]
    for seat in seats:
        _notify([seat.user_id], game, Kind.YOUR_MOVE, seat.clock_seq)


def notify_game_started(*, game: Game, except_user_id: int | None = None) -> None:
    """Owe a "game started" to every person seated at ``game`` but ``except_user_id`` (who started it)."""
    people = game.seats.filter(bot="").exclude(user=None)
    if except_user_id is not None:
        people = people.exclude(user_id=except_user_id)
    _notify(people.values_list("user_id", flat=True), game, Kind.GAME_STARTED, 0)


def notify_game_over(*, game: Game) -> None:
    """Owe a "game over" (with the result) to every person seated at ``game``, forfeited ones included."""
    _notify(game.seats.exclude(user=None).values_list("user_id", flat=True), game, Kind.GAME_OVER, game.last_seq)


def notify_timed_out(*, game: Game, seat: Seat, game_over: bool) -> None:
    """Owe "a player timed out" (or resigned, or a moderator forfeited them) to the other people still playing.

    The event's key is the forfeited seat's position, not the game's seq: a
    seat forfeits once, and two seats may forfeit with no move between them.
    """
    others = game.seats.filter(bot="").exclude(user=None).exclude(pk=seat.pk).values_list("user_id", flat=True)
    data = {
        "position": seat.position,
        "game_over": game_over,
        "resigned": seat.resigned,
        "by_moderator": seat.forfeited_by_moderator,
    }
    _notify(others, game, Kind.TIMED_OUT, seat.position, data)


def notify_cancelled(*, game: Game) -> None:
    """Owe the creator of ``game`` a note that it was cancelled for lack of players."""
    _notify([game.creator_id], game, Kind.CANCELLED, 0)


def notify_chat(*, message: ChatMessage) -> None:
    """Owe a chat email to the game's players who asked for them and are away.

    Away: their seat's page was not opened for ``CHAT_AWAY``; and at most one
    chat email per player and game per ``CHAT_EMAIL_GAP``.
    """
    now = timezone.now()
    seats = (
        Seat.objects.filter(game_id=message.game_id, bot="", user__notification_settings__chat=True)
        .exclude(user_id=message.user_id)
        .filter(Q(last_seen__isnull=True) | Q(last_seen__lt=now - CHAT_AWAY))
    )
    recent = set(
        Notification.objects.filter(
            game_id=message.game_id, kind=Kind.CHAT, created__gte=now - CHAT_EMAIL_GAP
        ).values_list("user_id", flat=True)
    )
    users = [uid for uid in seats.values_list("user_id", flat=True) if uid not in recent]
    from accounts.selectors import blockers_among  # accounts imports games, which imports this

    blockers = blockers_among(message.user, users)  # the page hides their chat from them; so must email
    users = [uid for uid in users if uid not in blockers]
    _notify(users, message.game, Kind.CHAT, message.pk, {"from": message.user_id, "text": message.text})


# ---------------------------------------------------------------------------
# Sending


def outbox_enqueue(*, game_id: int | None = None, since: datetime | None = None) -> int:
    """Queue a send task for every pending row (of ``game_id``, or all). Call after commit.

    ``since`` (UTC) limits it to rows created since then: after a move only
    the rows that move wrote need a task, and older rows left pending (a
    broker outage) are the sweep's job, so a move's cost does not grow with
    the backlog. At most ``SWEEP_BATCH`` rows. Never raises for a broker
    problem: the row stays pending and the sweep sends it later. Returns the
    number of tasks queued.
    """
    from correspondence.tasks import send_notification
    from games.tasks import enqueue

    rows = Notification.objects.filter(status=Status.PENDING)
    if game_id is not None:
        rows = rows.filter(game_id=game_id)
    if since is not None:
        rows = rows.filter(created__gte=since)
    found = list(rows.order_by("pk").values_list("pk", "kind")[:SWEEP_BATCH])
    # A "your move" waits a little: a player with the game open sees the move by
    # the page's poll, which marks the seat seen, and then no email is needed.
    delay = settings.HERALD_YOUR_MOVE_EMAIL_DELAY
    return sum(
        enqueue(send_notification, pk, countdown=delay if kind == Kind.YOUR_MOVE else 0) for pk, kind in found
    )


def notification_send(*, notification_id: int) -> bool:
    """Send one outbox row, at most once.

    Locks the row; does nothing unless it is pending; marks it skipped when
    the user turned the kind off or it no longer applies (the user already
    moved, or opened the game after it became their move), moves it to the
    daily digest when the user asked for one; otherwise renders the email in
    the user's language and time zone, hands it to the mail backend and
    marks it sent. A failure counts an attempt, keeps the row pending and
    re-raises (the task retries with backoff).

    Returns:
        True if an email was handed to the backend now.

    Raises:
        Whatever the mail backend raises (``smtplib.SMTPException``, ``OSError``).
    """
    try:
        with transaction.atomic():
            n = (
                Notification.objects.select_for_update()
                .select_related("user", "game")
                .filter(pk=notification_id, status=Status.PENDING)
                .first()
            )
            if n is None:
                return False
            why_not = _skip_reason(n)
            if why_not == "digest":
                n.status = Status.DIGEST
                n.save(update_fields=["status"])
                return False
            if why_not:
                n.status, n.last_error = Status.SKIPPED, why_not
                n.save(update_fields=["status", "last_error"])
                return False
            _message(n.user, _content(n), n.kind).send()
            n.status, n.sent_at, n.attempts = Status.SENT, timezone.now(), n.attempts + 1
            n.save(update_fields=["status", "sent_at", "attempts"])
            return True
    except Exception as exc:
        Notification.objects.filter(pk=notification_id, status=Status.PENDING).update(
            attempts=F("attempts") + 1, last_error=repr(exc)[:1000]
        )
        raise


def _chat_withdrawn(n: Notification) -> bool:
    """True if a chat email's message was hidden by a moderator, or its author blocked since."""
    from accounts.models import Block
    from games.models import ChatMessage

    # A chat row's seq is the message's id; a hidden message has a moderation record.
    author = (
        ChatMessage.objects.filter(pk=n.seq, game_id=n.game_id, moderation_hidden__isnull=True)
        .values_list("user_id", flat=True)
        .first()
    )
    if author is None:
        return True
    return Block.objects.filter(blocker_id=n.user_id, blocked_id=author).exists()


def _skip_reason(n: Notification) -> str:
    """Why ``n`` should not be sent now ("digest" to hold it for the digest), or ""."""
    user = n.user
    from accounts.selectors import can_receive_email  # accounts imports games, which imports this

    if not user.email or not can_receive_email(user):
        return "no active user with a verified email address"
    prefs = settings_for(user)
    if not prefs.wants(n.kind):
        return "turned off by the user"
    if n.kind == Kind.YOUR_MOVE:
        if not _still_your_move(n):
            return "no longer the user's move"
        if n.seq == 0 and prefs.game_started:
            return "covered by the game-started email"
        if prefs.your_move == NotificationSettings.YourMove.DIGEST:
            return "digest"
    if n.kind == Kind.CHAT and _chat_withdrawn(n):
        return "the message was hidden, or its author is blocked"
    if n.kind == Kind.TIME_LOW and not _still_your_move(n):
        return "no longer the user's move"
    return ""


def _still_your_move(n: Notification) -> bool:
    """True while the user still owes the decision ``n`` is about and has not opened the game since."""
    if n.game.status != Game.Status.ACTIVE:
        return False
    seat = Seat.objects.filter(game_id=n.game_id, user_id=n.user_id).first()
    if seat is None or seat.bot_played or not seat.owes_move or seat.clock_seq != n.seq:
        return False
    return not (seat.last_seen and seat.clock_started and seat.last_seen >= seat.clock_started)


def _game_title(game: Game) -> str:
    from games.i18n import game_title

    return game_title(game)


def _absolute(path: str) -> str:
    return settings.SITE_URL.rstrip("/") + path


def _when(dt: datetime | None) -> str:
    """Format ``dt`` in the active time zone and language."""
    if dt is None:
        return ""
    from django.utils.formats import date_format

    return date_format(timezone.localtime(dt), "DATETIME_FORMAT")


def _content(n: Notification) -> dict[str, Any]:
    """Subject, lines and game links of ``n``'s email, in the recipient's language and time zone."""
    with translation.override(n.user.language or settings.LANGUAGE_CODE), timezone.override(_zone(n.user)):
        return _content_lines(n)


def _content_lines(n: Notification) -> dict[str, Any]:
    """``_content`` without switching language and zone (the caller did)."""
    game = n.game
    title = _game_title(game)
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
    elif n.kind == Kind.TIME_LOW:
        subject = _("You are running out of time in %(game)s") % {"game": title}
        lines.append(
            _("Your time for this move in %(game)s runs out at %(when)s.")
            % {"game": title, "when": _when(mine.deadline if mine else None)}
        )
    elif n.kind == Kind.TIMED_OUT:
        late = next((s for s in seats if s.position == n.data.get("position")), None)
        name = late.user.shown_name if late and late.user_id else "?"
        if n.data.get("resigned"):
            subject = _("%(name)s resigned in %(game)s") % {"name": name, "game": title}
            lines.append(_("%(name)s resigned in %(game)s.") % {"name": name, "game": title})
        elif n.data.get("by_moderator"):
            subject = _("A moderator forfeited %(name)s's seat in %(game)s") % {"name": name, "game": title}
            lines.append(_("A moderator forfeited %(name)s's seat in %(game)s.") % {"name": name, "game": title})
        else:
            subject = _("%(name)s ran out of time in %(game)s") % {"name": name, "game": title}
            lines.append(_("%(name)s ran out of time in %(game)s.") % {"name": name, "game": title})
        if n.data.get("game_over"):
            lines.append(_("The game is over."))
        else:
            lines.append(_("They are ranked last, and a bot plays their seat so that you can finish."))
    elif n.kind == Kind.CANCELLED:
        subject = _("%(game)s was cancelled") % {"game": title}
        lines.append(_("Not enough players joined %(game)s in 14 days, so it was cancelled.") % {"game": title})
    else:  # chat
        author = next((s for s in seats if s.user_id == n.data.get("from")), None)
        name = author.user.shown_name if author and author.user_id else "?"
        subject = _("%(name)s wrote in %(game)s") % {"name": name, "game": title}
        lines.append(_("%(name)s wrote:") % {"name": name})
        lines.append(str(n.data.get("text", "")))
    return {"subject": subject, "lines": lines, "games": [(title, _absolute(game.get_absolute_url()))]}


def _message(user: User, content: dict[str, Any], kind: str) -> EmailMultiAlternatives:
    """Render an email (HTML and text) for ``user`` in their language and time zone."""
    unsubscribe = _absolute(reverse("correspondence:unsubscribe", kwargs={"token": unsubscribe_token(user, kind)}))
    with translation.override(user.language or settings.LANGUAGE_CODE):
        context = {
            **content,
            "user": user,
            "unsubscribe_url": unsubscribe,
            "settings_url": _absolute(reverse("correspondence:settings")),
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
        },
    )
    message.attach_alternative(html, "text/html")
    return message


def _zone(user: User) -> zoneinfo.ZoneInfo:
    try:
        return zoneinfo.ZoneInfo(user.time_zone or "UTC")
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")


# ---------------------------------------------------------------------------
# Daily digest


def digest_send(*, user_id: int) -> bool:
    """Send ``user_id`` one email listing the games that still wait on them.

    Takes every row held for the digest; those no longer relevant are
    skipped, the rest marked sent after the backend accepted the email.

    Returns:
        True if an email was sent.
    """
    with transaction.atomic():
        rows = list(
            Notification.objects.select_for_update()
            .select_related("user", "game")
            .filter(user_id=user_id, status=Status.DIGEST)
            .order_by("created")
        )
        if not rows:
            return False
        user = rows[0].user
        live = [n for n in rows if _still_your_move(n) and settings_for(user).wants(n.kind)]
        stale = [n.pk for n in rows if n not in live]
        Notification.objects.filter(pk__in=stale).update(status=Status.SKIPPED, last_error="stale at digest time")
        if not live:
            return False
        with translation.override(user.language or settings.LANGUAGE_CODE):
            games = sorted({(_game_title(n.game), _absolute(n.game.get_absolute_url())) for n in live})
            content = {
                "subject": ngettext(
                    "A game is waiting for your move", "%(n)d games are waiting for your move", len(games)
                )
                % {"n": len(games)},
                "lines": [_("These games are waiting for your move:")],
                "games": games,
            }
        _message(user, content, Kind.YOUR_MOVE).send()
        Notification.objects.filter(pk__in=[n.pk for n in live]).update(
            status=Status.SENT, sent_at=timezone.now(), attempts=F("attempts") + 1
        )
    return True


def digests_send_all() -> int:
    """Send every user with rows held for the digest their digest. Returns emails sent."""
    users = Notification.objects.filter(status=Status.DIGEST).values_list("user_id", flat=True).distinct()
    sent = 0
    for user_id in list(users):
        try:
            sent += digest_send(user_id=user_id)
        except Exception:  # one bad address must not stop everyone's digest
            log.exception("digest for user %s failed", user_id)
    return sent


# ---------------------------------------------------------------------------
# Unsubscribing


def unsubscribe_token(user: User, kind: str) -> str:
    """Return a signed token that turns ``kind`` emails off for ``user`` (no expiry, no login)."""
    return signing.dumps({"u": user.pk, "k": str(kind)}, salt=UNSUBSCRIBE_SALT, compress=True)


def unsubscribe(*, token: str) -> tuple[User, str]:
    """Turn off the emails the token names.

    Returns:
        ``(user, kind)``.

    Raises:
        signing.BadSignature: the token was tampered with or is not ours.
        User.DoesNotExist: the user was deleted.
    """
    from accounts.models import User

    data = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    user = User.objects.get(pk=data["u"])
    kind = data["k"]
    if kind == Kind.YOUR_MOVE:
        settings_update(user=user, your_move=NotificationSettings.YourMove.NEVER)
    elif kind in Kind.values:
        settings_update(user=user, **{kind: False})
    else:
        raise signing.BadSignature("unknown kind")
    return user, kind


# ---------------------------------------------------------------------------
# Vacations


def vacation_active(user: User, now: datetime | None = None) -> Vacation | None:
    """Return ``user``'s vacation running at ``now`` (default: now), or None."""
    now = now or timezone.now()
    return Vacation.objects.filter(user=user, start__lte=now, end__gt=now).order_by("-end").first()


def vacation_days_used(user: User, year: int) -> int:
    """Days of vacation ``user`` took (or booked) that started in ``year`` (UTC).

    Each vacation counts in whole days, rounded up, except that the first
    ``VACATION_GRACE`` of a started day is free (coming back a few minutes
    after a day does not cost a second one).
    """
    days = 0
    for start, end in Vacation.objects.filter(user=user, start__year=year).values_list("start", "end"):
        days += max(1, math.ceil((end - start - VACATION_GRACE) / timedelta(days=1)))
    return days


def vacation_start(*, user: User, days: int) -> Vacation:
    """Start a vacation of ``days`` whole days now; ``user``'s clocks stand still meanwhile.

    Every running deadline of the user's is pushed back by the vacation's
    length; a clock that starts during the vacation starts at its end.

    Raises:
        VacationError: already on vacation, fewer than 1 day, or more days
            than are left this year (``VACATION_DAYS_PER_YEAR``).
    """
    from games.clocks import clocks_shift

    now = timezone.now()
    if not isinstance(days, int) or days < 1:
        raise VacationError(_("A vacation lasts at least one day."))
    left = VACATION_DAYS_PER_YEAR - vacation_days_used(user, now.year)
    if days > left:
        raise VacationError(_("You have %(n)d vacation days left this year.") % {"n": max(left, 0)})
    with transaction.atomic():
        if vacation_active(user, now):
            raise VacationError(_("You are already on vacation."))
        vacation = Vacation.objects.create(user=user, start=now, end=now + timedelta(days=days))
        clocks_shift(user.pk, vacation.end - now)
    return vacation


def vacation_end(*, user: User) -> Vacation | None:
    """End ``user``'s running vacation now; the unused days are given back.

    Returns:
        The shortened Vacation, or None if none was running.
    """
    from games.clocks import clocks_shift

    now = timezone.now()
    with transaction.atomic():
        vacation = vacation_active(user, now)
        if vacation is None:
            return None
        unused = vacation.end - now
        # The end must come after the start (a constraint); a microsecond is
        # enough. A whole second kept the vacation running on the very page
        # that ended it.
        vacation.end = max(now, vacation.start + timedelta(microseconds=1))
        vacation.save(update_fields=["end"])
        clocks_shift(user.pk, -unused)
    return vacation


# ---------------------------------------------------------------------------
# Opening a game, and the sweep


def seat_seen(*, seat: Seat | None) -> None:
    """Record that ``seat``'s player opened the game (one UPDATE per stretch of owing, at most).

    Only the first visit after it became their move is written: that is
    all the "no your-move email for a game you opened" rule needs.
    """
    if seat is None or seat.user_id is None or not seat.owes_move or seat.clock_started is None:
        return
    if seat.last_seen is not None and seat.last_seen >= seat.clock_started:
        return
    seat.last_seen = timezone.now()
    Seat.objects.filter(pk=seat.pk).update(last_seen=seat.last_seen)


def sweep(now: datetime | None = None) -> dict[str, int]:
    """Do everything that is due; safe to run as often as wanted, and twice at once.

    In order: apply the timeout rule to every decision past its deadline
    (an indexed query on ``Seat.deadline``), owe the 80% warnings
    (``Seat.warn_at``), cancel open games older than 14 days, and send the
    outbox rows left pending (the broker was down, a worker died).

    Returns:
        Counts per step, for logs and tests.
    """
    from games import autoplay

    now = now or timezone.now()
    counts = {"timeouts": 0, "warnings": 0, "expired": 0, "sent": 0, "failed": 0}
    due = Seat.objects.filter(deadline__lte=now, game__status=Game.Status.ACTIVE).order_by("deadline")
    for game_id, position in list(due.values_list("game_id", "position")[:SWEEP_BATCH]):
        try:
            counts["timeouts"] += autoplay.game_timeout(game_id=game_id, position=position) is not None
        except Exception:  # one broken game must not stop the others' clocks
            log.exception("timeout of game %s seat %s failed", game_id, position)

    warn = Seat.objects.filter(warn_at__lte=now, game__status=Game.Status.ACTIVE)
    for seat_id in list(warn.values_list("pk", flat=True)[:SWEEP_BATCH]):
        try:
            counts["warnings"] += _warn(seat_id, now)
        except Exception:  # a busy game (LockTimeout) is warned by the next sweep; the others now
            log.warning("warning of seat %s failed; the next sweep tries again", seat_id, exc_info=True)

    stale = Game.objects.filter(status=Game.Status.OPEN, created__lte=now - autoplay.OPEN_GAME_LIFETIME)
    for game_id in list(stale.values_list("pk", flat=True)[:SWEEP_BATCH]):
        try:
            counts["expired"] += autoplay.game_expire(game_id=game_id)
        except Exception:
            log.warning("expiry of game %s failed; the next sweep tries again", game_id, exc_info=True)

    Notification.objects.filter(status=Status.PENDING, attempts__gte=MAX_ATTEMPTS).update(status=Status.FAILED)
    left = Notification.objects.filter(status=Status.PENDING, created__lte=now - OUTBOX_GRACE).order_by("created")
    for pk in list(left.values_list("pk", flat=True)[:SWEEP_BATCH]):
        try:
            counts["sent"] += notification_send(notification_id=pk)
        except Exception:
            counts["failed"] += 1
            log.warning("notification %s could not be sent yet", pk, exc_info=True)
    if any(counts.values()):
        log.info("sweep: %s", counts)
    return counts


def _warn(seat_id: int, now: datetime) -> bool:
    """Owe "you are running out of time" for ``seat_id``'s running clock, once per move."""
    from games.locking import lock_game

    with transaction.atomic():
        game_id = Seat.objects.filter(pk=seat_id).values_list("game_id", flat=True).first()
        if game_id is None:
            return False
        game = lock_game(game_id)
        seat = Seat.objects.get(pk=seat_id)
        if seat.warn_at is None or seat.warn_at > now:
            return False
        seat.warn_at = None
        seat.save(update_fields=["warn_at"])
        if seat.bot_played or seat.user_id is None:
            return False
        _notify([seat.user_id], game, Kind.TIME_LOW, seat.clock_seq)
        transaction.on_commit(lambda: outbox_enqueue(game_id=game_id))
    return True


def sweep_on_request() -> None:
    """Run :func:`sweep` from a web request when there is no Celery beat (no broker).

    Only when ``settings.HERALD_SWEEP_ON_REQUEST`` is on (``make run``
    without Redis), at most once per ``REQUEST_SWEEP_INTERVAL`` seconds per
    cache. Never raises: the page matters more.
    """
    if not getattr(settings, "HERALD_SWEEP_ON_REQUEST", False):
        return
    if not cache.add("herald:request-sweep", 1, REQUEST_SWEEP_INTERVAL):
        return
    try:
        sweep()
        # Without beat, the moderators' forfeit of banned players' seats runs here too.
        from moderation.services import banned_seats_forfeit

        banned_seats_forfeit()
    except Exception:
        log.exception("sweep from a request failed")
