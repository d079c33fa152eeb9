"""The notification outbox: which emails are owed, and sending each one at most once.

The outbox pattern: the ``notify_*`` functions write ``Notification`` rows
in the caller's transaction (they are called by ``correspondence.listeners``
from the games' events: the move, the start, the timeout), so whether a
message is owed is decided together with the event. After commit,
``correspondence.tasks.outbox_enqueue`` queues one ``send_notification``
task per pending row; ``correspondence.sweep`` (every minute, from Celery beat, or from the
web process when there is no broker) sends whatever is left.
:func:`notification_send` claims the row (committed at once, so no lock is
held while the mail server talks), re-checks that the message still makes
sense, hands it to the mail backend and only then marks it sent, so a task
run twice, or a task and the sweep together, send one email; each email's
Message-ID is derived from its row, so the one duplicate still possible (a
sender killed after the mail server accepted the message, before the mark)
is the same message to the recipient's mail client.

Times are stored in UTC and shown in each recipient's time zone, in the
recipient's language.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import Count, F, Min, Q
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import Block
from accounts.selectors import blockers_among, can_receive_email
from correspondence.emails import absolute, content_for, game_title_of, message_for, message_id, still_relevant
from correspondence.models import Notification, NotificationSettings, PushSubscription
from correspondence.preferences import settings_for
from correspondence.push import push_send
from games import policy
from games.locking import retry_on_deadlock
from games.models import ChatMessage, Game, Seat, UndoRequest
from games.presence import is_present

log = logging.getLogger(__name__)

Kind = Notification.Kind
Status = Notification.Status
Channel = Notification.Channel

#: After this many failed attempts a row is marked failed and left alone.
MAX_ATTEMPTS = 10
#: Rows one call queues, and one sweep sends (the next sweep does the rest).
SWEEP_BATCH = 200
#: A player counts as away from a game (for chat emails) after this long without opening it.
CHAT_AWAY = timedelta(minutes=15)
#: At most one chat email per player and game in this time.
CHAT_EMAIL_GAP = timedelta(hours=1)
#: Why a row to a suspended (banned) player is skipped (``Notification.last_error``).
SUSPENDED = "the account is suspended"
#: A ``sending`` claim older than this is taken to be a dead sender's, and the row may be
#: claimed again. Longer than a live send can take: the task's hard limit
#: (``CELERY_TASK_TIME_LIMIT``, 60 s) and several ``EMAIL_TIMEOUT``s, so a slow sender is
#: never mistaken for a dead one. It is also the longest a killed sender's email waits.
CLAIM_TIMEOUT = timedelta(minutes=5)


def _notify(users: Iterable[Any], game: Game | None, kind: str, seq: int, data: dict[str, Any] | None = None) -> int:
    """Write one pending row per user for this event; an existing row (same key) is kept.

    Besides the email row, a ``push`` row for each user with a browser
    subscribed to Web Push (one query); whether each is wanted is decided
    at sending time, from the same settings. Returns the number of rows
    written. Users are ids or User objects.
    """
    ids = {getattr(u, "pk", u) for u in users if u is not None}
    if not ids:
        return 0
    pushed = set(PushSubscription.objects.filter(user_id__in=ids).values_list("user_id", flat=True))
    rows = [Notification(user_id=uid, game=game, kind=kind, seq=seq, data=data or {}) for uid in ids]
    rows += [
        Notification(user_id=uid, game=game, kind=kind, seq=seq, data=data or {}, channel=Channel.PUSH)
        for uid in ids & pushed
    ]
    # The unique key (user, game, kind, seq, channel; without a game: user, kind, seq, channel)
    # makes a repeated event a no-op.
    Notification.objects.bulk_create(rows, ignore_conflicts=True)
    return len(rows)


def notify_your_move(*, game: Game, seats: Iterable[Seat]) -> None:
    """Owe a "your move" to each of ``seats`` (their clock just started). Caller holds the lock."""
    seats = [s for s in seats if s.user_id is not None and not s.bot_played]
    for seat in seats:
        _notify([seat.user_id], game, Kind.YOUR_MOVE, seat.clock_seq)


def notify_undo_asked(*, game: Game, request_id: int, seat: int, voters: Iterable[Seat]) -> None:
    """Owe "X asks to take back a move: allow it?" to each of ``voters``, keyed on the request.

    Not on the position asked at: a request asked again after a decline, at
    the same position, is a new question and gets its own email and push.
    """
    _notify([s.user_id for s in voters], game, Kind.UNDO_ASKED, request_id, {"request": request_id, "seat": seat})


def notify_game_started(*, game: Game, except_user_id: int | None = None, covered_by: str = "") -> None:
    """Owe a "game started" to every person seated at ``game`` but ``except_user_id`` (who started it).

    ``covered_by``: the kind of another email that already tells of the
    start with the game's link (``"tournament"``: the round's email). The
    row is then skipped at sending time for a player who wants that kind,
    so one start is one email, and sent to one who turned it off, so
    nobody misses their game.
    """
    people = game.seats.filter(bot="").exclude(user=None)
    if except_user_id is not None:
        people = people.exclude(user_id=except_user_id)
    data = {"covered_by": covered_by} if covered_by else None
    _notify(people.values_list("user_id", flat=True), game, Kind.GAME_STARTED, 0, data)


def notify_game_over(*, game: Game) -> None:
    """Owe a "game over" (with the result) to every person seated at ``game``, forfeited ones included.

    Not to those already owed "X resigned / ran out of time" for the forfeit
    that ended the game (``SeatForfeited`` is published just before
    ``GameFinished``): that email carries the result, and one moment is one email.
    """
    told = Notification.objects.filter(game=game, kind=Kind.TIMED_OUT, data__game_over=True).values_list(
        "user_id", flat=True
    )
    people = game.seats.exclude(user=None).exclude(user_id__in=told)
    _notify(people.values_list("user_id", flat=True), game, Kind.GAME_OVER, game.last_seq)


def notify_timed_out(*, game: Game, seat: Seat, game_over: bool, aborted: bool = False) -> None:
    """Owe "a player timed out" (or resigned, or a moderator forfeited them) to the other people still playing.

    The event's key is the forfeited seat's position, not the game's seq: a
    seat forfeits once, and two seats may forfeit with no move between them.
    ``aborted``: the forfeit came at move 0 and aborted the game (the email says so, with no result).
    """
    others = game.seats.filter(bot="").exclude(user=None).exclude(pk=seat.pk).values_list("user_id", flat=True)
    data = {
        "position": seat.position,
        "game_over": game_over,
        "resigned": seat.resigned,
        "by_moderator": seat.forfeited_by_moderator,
        "aborted": aborted,
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
    blockers = blockers_among(message.user, users)  # the page hides their chat from them; so must email
    users = [uid for uid in users if uid not in blockers]
    _notify(users, message.game, Kind.CHAT, message.pk, {"from": message.user_id, "text": message.text})


def notify_other(*, kind: str, users: Iterable[Any], game: Game | None, seq: int, data: dict[str, Any]) -> int:
    """Owe an email of a kind an app above games words (``emails.register_content``), e.g. a tournament's.

    The row is keyed like every other (user, game, kind, seq), so the same
    news is owed once: ``game`` is the game the news is about (a round's
    game), or None for news about no game (an expired seek), and ``seq``
    tells the pieces of news apart (a round's number, a seek's id).
    Sent, skipped and unsubscribed like the rest. Returns rows written.
    """
    return _notify(users, game, kind, seq, data)


def notify_invited(*, game: Game, user_ids: Iterable[int], by_id: int) -> None:
    """Owe each of ``user_ids`` a note that ``by_id`` invited them to ``game`` (an open, private game)."""
    _notify(user_ids, game, Kind.INVITED, 0, {"by": by_id})


def notify_time_low(*, game: Game, seat: Seat) -> None:
    """Owe ``seat``'s player a "you are running out of time" for its running clock. Caller holds the lock."""
    _notify([seat.user_id], game, Kind.TIME_LOW, seat.clock_seq)


# ---------------------------------------------------------------------------
# Sending


def notification_send(*, notification_id: int) -> bool:
    """Send one outbox row, at most once, holding no database lock while the mail server talks.

    Claim, commit, send, mark: the row is claimed by one UPDATE that turns
    it from ``pending`` (or a ``sending`` claim older than
    ``CLAIM_TIMEOUT``, a dead sender's) into ``sending`` stamped with the
    claim's time, which commits at once, so two senders never both have it
    and no game, user or outbox row stays locked through the SMTP
    conversation (a move in the same game waits for nothing). Then, without
    a transaction: mark it skipped when the user turned the kind off, is
    suspended (a ban: no email and no push while it holds), or it
    no longer applies (the user already moved, or opened the game after it
    became their move), hand it to the daily digest when the user asked for
    one; otherwise render the email in the user's language and time zone
    with the row's stable Message-ID (``emails.message_id``), hand it to the
    mail backend (``EMAIL_TIMEOUT`` seconds per socket operation), and only
    then mark it sent. Each mark names the claim, so a sender whose claim
    was taken over marks nothing. A "your move" whose player has the game
    open now (``games.presence.is_present``) is marked ``deferred`` instead:
    the task tries it again a presence TTL later and the sweep every minute,
    so it goes out once they leave without moving.

    A failure counts an attempt, gives the row back (``pending``) and
    re-raises (the task retries with backoff). A sender killed between the
    mail server's acceptance and the mark leaves the claim, which the sweep
    takes over after ``CLAIM_TIMEOUT``: that email is sent again, with the
    same Message-ID (docs/scaling.md, "The duplicate-email window").

    Returns:
        True if an email was handed to the backend now.

    Raises:
        Whatever the mail backend raises (``smtplib.SMTPException``, ``OSError``).
    """
    claim = timezone.now()
    claimable = Q(status__in=[Status.PENDING, Status.DEFERRED]) | Q(
        status=Status.SENDING, claimed_at__lt=claim - CLAIM_TIMEOUT
    )
    claimed = retry_on_deadlock(
        lambda: Notification.objects.filter(claimable, pk=notification_id).update(
            status=Status.SENDING, claimed_at=claim
        )
    )
    if not claimed:
        return False
    mine = Notification.objects.filter(pk=notification_id, status=Status.SENDING, claimed_at=claim)
    try:
        n = Notification.objects.select_related("user", "game").get(pk=notification_id)
        why_not = _skip_reason(n)
        if why_not == "digest":
            mine.update(status=Status.DIGEST, claimed_at=None)
            return False
        if why_not == "present":
            mine.update(status=Status.DEFERRED, claimed_at=None)
            return False
        if why_not:
            mine.update(status=Status.SKIPPED, last_error=why_not, claimed_at=None)
            return False
        if n.channel == Channel.PUSH:
            if not push_send(n):
                mine.update(status=Status.SKIPPED, last_error="no push subscription left", claimed_at=None)
                return False
        else:
            message = message_for(n.user, content_for(n), n.kind, message_id=message_id("notification", n.pk))
            message.send()
    except Exception as exc:
        mine.update(status=Status.PENDING, claimed_at=None, attempts=F("attempts") + 1, last_error=repr(exc)[:1000])
        raise
    mine.update(status=Status.SENT, sent_at=timezone.now(), attempts=F("attempts") + 1)
    return True


def _chat_withdrawn(n: Notification) -> bool:
    """True if a chat email's message was hidden by a moderator, or its author blocked since."""
    # A chat row's seq is the message's id; a hidden message has a moderation record.
    if n.game_id is None:  # every chat row names its game
        return True
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
    push = n.channel == Channel.PUSH
    if push and (not user.is_active or getattr(user, "deleted", None)):
        return "no active user"
    if not push and (not user.email or not can_receive_email(user)):
        return "no active user with a verified email address"
    if policy.is_restricted(user, "move"):
        # A suspended player may not move, chat, create or join (games.policy: moderation's ban):
        # news of their games would only call them to games they cannot play. Nothing is sent,
        # by email or push, while the ban holds; what was skipped stays skipped after it ends.
        return SUSPENDED
    prefs = settings_for(user)
    if not prefs.wants(n.kind):
        return "turned off by the user"
    if push and not prefs.push:
        return "browser notifications turned off by the user"
    if n.kind == Kind.YOUR_MOVE:
        if not _still_your_move(n, seen_skips=False):
            return "no longer the user's move"
        if n.game_id is not None and is_present(n.game_id, n.user_id):
            # They have the game open and see the move there: the email waits, and goes
            # out once they leave without moving (the row is deferred and tried again).
            return "present"
        if n.seq == 0 and prefs.game_started:
            return "covered by the game-started email"
        if prefs.your_move == NotificationSettings.YourMove.DIGEST and not push:
            # The digest is how the emails come; a browser notification is still pushed for each move
            # (the settings page says so): quiet by nature, and the digest alone can leave a game waiting a day.
            return "digest"
    covered_by = n.data.get("covered_by") if n.kind == Kind.GAME_STARTED else None
    if covered_by and prefs.wants(covered_by):
        return f"covered by the {covered_by} email"
    if n.kind == Kind.CHAT and _chat_withdrawn(n):
        return "the message was hidden, or its author is blocked"
    if n.kind == Kind.UNDO_ASKED and not _undo_still_open(n):
        return "the request to take moves back is no longer open"
    if n.kind == Kind.TIME_LOW and not _still_your_move(n):
        return "no longer the user's move"
    if not still_relevant(n):
        return "no longer relevant"
    return ""


def _undo_still_open(n: Notification) -> bool:
    """True while the request ``n`` is about still waits for answers (games.undo.open_request)."""
    game = n.game
    if game is None:  # every undo row names its game
        return False
    return UndoRequest.objects.filter(
        pk=n.data.get("request"),
        game_id=game.pk,
        status=UndoRequest.Status.OPEN,
        at_seq=game.last_seq,
    ).exists()


def _still_your_move(n: Notification, *, seen_skips: bool = True) -> bool:
    """True while the user still owes the decision ``n`` is about and (``seen_skips``) has not opened the game since.

    A "your move" passes ``seen_skips=False``: a player who opened the game
    and left without moving is told (while they have it open, the row waits:
    ``games.presence``).
    """
    game = n.game
    if game is None or game.status != Game.Status.ACTIVE:  # a row about no game is no one's move
        return False
    seat = Seat.objects.filter(game_id=game.pk, user_id=n.user_id).first()
    if seat is None or seat.bot_played or not seat.owes_move or seat.clock_seq != n.seq:
        return False
    if not seen_skips:
        return True
    return not (seat.last_seen and seat.clock_started and seat.last_seen >= seat.clock_started)


# ---------------------------------------------------------------------------
# Daily digest


def digest_send(*, user_id: int) -> bool:
    """Send ``user_id`` one email listing the games that still wait on them.

    Claims every row held for the digest (``sending``, as
    :func:`notification_send` does, committed before the mail server is
    spoken to); those no longer relevant are skipped, the rest marked sent
    after the backend accepted the email. The email's Message-ID is the
    user's and the day's (UTC), so a digest sent twice that day is one
    message. A failure gives the rows back to the digest and re-raises; a
    sender killed mid-send leaves claims the sweep takes over after
    ``CLAIM_TIMEOUT`` (they go back to the digest, or out one by one if the
    user no longer wants a digest).

    Returns:
        True if an email was sent.

    Raises:
        Whatever the mail backend raises.
    """
    claim = timezone.now()
    held = Notification.objects.filter(user_id=user_id, status=Status.DIGEST)
    if not retry_on_deadlock(lambda: held.update(status=Status.SENDING, claimed_at=claim)):
        return False
    mine = Notification.objects.filter(user_id=user_id, status=Status.SENDING, claimed_at=claim)
    rows = list(mine.select_related("user", "game").order_by("created"))
    user = rows[0].user
    # A suspended player's digest is skipped as each of its rows would be (_skip_reason).
    banned = policy.is_restricted(user, "move")
    live = [n for n in rows if not banned and _still_your_move(n) and settings_for(user).wants(n.kind)]
    stale = [n.pk for n in rows if n not in live]
    mine.filter(pk__in=stale).update(status=Status.SKIPPED, last_error="stale at digest time", claimed_at=None)
    if not live:
        return False
    try:
        with translation.override(user.language or settings.LANGUAGE_CODE):
            # Each live row passed _still_your_move, so it has its game.
            games = sorted({(game_title_of(g), absolute(g.get_absolute_url())) for n in live if (g := n.game)})
            content = {
                "subject": ngettext(
                    "A game is waiting for your move", "%(n)d games are waiting for your move", len(games)
                )
                % {"n": len(games)},
                "lines": [_("These games are waiting for your move:")],
                "games": games,
            }
        day = claim.astimezone(UTC).strftime("%Y%m%d")
        message_for(user, content, Kind.YOUR_MOVE, message_id=message_id("digest", f"{user_id}.{day}")).send()
    except Exception as exc:
        mine.update(status=Status.DIGEST, claimed_at=None, last_error=repr(exc)[:1000])
        raise
    mine.filter(pk__in=[n.pk for n in live]).update(
        status=Status.SENT, sent_at=timezone.now(), attempts=F("attempts") + 1, claimed_at=None
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


def ops_numbers(now: datetime) -> dict[str, Any]:
    """The outbox's numbers for the staff page (``ops.selectors``, registered by ``listeners.connect``).

    unsent_notifications (pending or being sent, not those held for the digest), oldest_unsent_age (or None),
    failed_notifications (rows the sender gave up on).
    """
    unsent = Notification.objects.filter(
        status__in=[Notification.Status.PENDING, Notification.Status.SENDING]
    ).aggregate(n=Count("pk"), oldest=Min("created"))
    return {
        "unsent_notifications": unsent["n"],
        "oldest_unsent_age": (now - unsent["oldest"]) if unsent["oldest"] else None,
        "failed_notifications": Notification.objects.filter(status=Notification.Status.FAILED).count(),
    }
