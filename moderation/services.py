"""Everything that writes moderation rows, and every moderator action on games and users.

Each function is keyword-only, runs in one transaction and writes exactly
one :class:`~moderation.models.ModerationAction` (the audit trail) per
action. Changes to a game lock it with ``games.locking.lock_game`` and go
through the same internals as moves and timeouts (``games.services`` and
``games.autoplay``), so a moderator's change is locked, clocked, rated and
notified like any other. The user concerned is told by an on-site notice
(shown once on their next visit) and, if they receive email, by email, in
their own language.

Raises :class:`ModerationError` (a sentence for the moderator) for refused
requests, and ``PermissionDenied`` when the acting user lacks the
Moderators' permission for the action.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import partial
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.core.mail import send_mail
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from accounts.selectors import can_receive_email
from games import clocks, lifecycle
from games.locking import lock_game
from games.models import ChatMessage, Game, Seat
from games.replay import engine_for, replay_states
from moderation.models import HiddenMessage, ModerationAction, Notice, Report, Restriction
from moderation.selectors import banned_user_ids, state_forget
from ratings.services import rating_reverse

if TYPE_CHECKING:
    from accounts.models import User

log = logging.getLogger(__name__)

Kind = ModerationAction.Kind

#: Open reports one user may have at a time (a flood is itself abuse).
MAX_OPEN_REPORTS = 20

PERM_GAMES = "moderation.moderate_games"
PERM_USERS = "moderation.moderate_users"
PERM_CHAT = "moderation.moderate_chat"
PERM_REPORTS = "moderation.change_report"
PERM_HIDDEN = "moderation.view_hidden_information"


class ModerationError(Exception):
    """A moderation request that is refused; ``str(err)`` is for the person asking."""


# ---------------------------------------------------------------------------
# The trail and telling people


def _require(moderator: User, perm: str) -> None:
    """Refuse unless ``moderator`` is staff holding ``perm`` (belt and braces behind the admin)."""
    if not (moderator.is_active and moderator.is_staff and moderator.has_perm(perm)):
        raise PermissionDenied(_("You are not allowed to do this."))


def _record(
    *,
    moderator: User | None,
    action: str,
    reason: str = "",
    user: User | int | None = None,
    game: Game | None = None,
    message: ChatMessage | None = None,
    report: Report | None = None,
    data: dict[str, Any] | None = None,
) -> ModerationAction:
    """Write one audit row (in the caller's transaction)."""
    return ModerationAction.objects.create(
        moderator=moderator,
        action=action,
        reason=reason,
        user_id=getattr(user, "pk", user),
        game=game,
        message=message,
        report=report,
        data=data or {},
    )


def _forget(user_id: int) -> None:
    """Drop ``user_id``'s cached moderation state now and again after commit.

    Now, so this transaction's own later checks see the change; after
    commit, because another request may have cached the old state meanwhile.
    """
    state_forget(user_id)
    transaction.on_commit(partial(state_forget, user_id))


def _tell(users: Iterable[User | int | None], text: Callable[[], str], *, email: bool = True) -> None:
    """Leave each of ``users`` a notice, and email those who receive email, in their language.

    ``text`` is called once per user with their language active, so the
    sentence is translated for each. Notices are written in the caller's
    transaction; emails go after commit, and a mail failure is logged,
    never undoing the action.
    """
    from accounts.models import User

    ids = {getattr(u, "pk", u) for u in users if u is not None}
    for user in User.objects.filter(pk__in=ids, deleted__isnull=True):
        with translation.override(user.language or settings.LANGUAGE_CODE):
            body = text()
            subject = _("A message from the Herald moderators")
            html = render_to_string(
                "moderation/email/notice.html",
                {
                    "subject": subject,
                    "body": body,
                    "site_url": settings.SITE_URL.rstrip("/") + "/",
                    # No request here, so no i18n context processor: the HTML names its language itself.
                    "LANGUAGE_CODE": translation.get_language(),
                },
            )
        Notice.objects.create(user=user, text=body)
        _forget(user.pk)
        if email and can_receive_email(user):
            transaction.on_commit(partial(_send, user.email, subject, body, html))


def _send(address: str, subject: str, body: str, html: str | None = None) -> None:
    """Send one moderation email (plain text, and its HTML alternative); log a failure
    (the on-site notice is there anyway)."""
    try:
        send_mail(f"{settings.ACCOUNT_EMAIL_SUBJECT_PREFIX}{subject}", body, None, [address], html_message=html)
    except Exception:
        log.exception("moderation email to %s failed", address)


def notices_take(*, user: User) -> list[str]:
    """Return ``user``'s unseen notices, oldest first, and mark them seen (shown once)."""
    with transaction.atomic():
        rows = list(Notice.objects.select_for_update().filter(user=user, seen__isnull=True).order_by("created", "pk"))
        Notice.objects.filter(pk__in=[n.pk for n in rows]).update(seen=timezone.now())
    state_forget(user.pk)
    return [n.text for n in rows]


def _reason_line(reason: str) -> str:
    """The moderator's reason as a sentence for the user (already in their language)."""
    return _("Reason: %(reason)s") % {"reason": reason} if reason else ""


# ---------------------------------------------------------------------------
# Reports


def report_create(
    *,
    reporter: User,
    reason: str,
    comment: str = "",
    reported: User | None = None,
    message: ChatMessage | None = None,
    game: Game | None = None,
) -> Report:
    """File a report about a chat message (``message``) or a player (``reported``).

    Whether the reporter may see the message or game is the caller's check
    (``games.selectors.can_view``).

    Raises:
        ModerationError: nothing to report, an unknown reason, reporting
            oneself, or too many open reports.
    """
    if reason not in Report.Reason.values:
        raise ModerationError(_("Choose a reason."))
    if message is not None:
        reported = message.user
        game = message.game
    if reported is None:
        raise ModerationError(_("Choose a message or a player to report."))
    if reported.pk == reporter.pk:
        raise ModerationError(_("You cannot report yourself."))
    if Report.objects.filter(reporter=reporter, status=Report.Status.OPEN).count() >= MAX_OPEN_REPORTS:
        raise ModerationError(_("You have many open reports already; please wait until they are handled."))
    with transaction.atomic():
        return Report.objects.create(
            reporter=reporter, reported=reported, message=message, game=game, reason=reason, comment=comment.strip()
        )


def report_close(*, moderator: User, report_id: int, status: str, note: str = "") -> Report:
    """Mark an open report resolved or dismissed with a note the reporter will see.

    Raises:
        ModerationError: not open, or a status other than resolved/dismissed.
    """
    _require(moderator, PERM_REPORTS)
    if status not in (Report.Status.RESOLVED, Report.Status.DISMISSED):
        raise ModerationError(_("A report is closed as resolved or dismissed."))
    with transaction.atomic():
        report = Report.objects.select_for_update().get(pk=report_id)
        if report.status != Report.Status.OPEN:
            raise ModerationError(_("This report was already handled."))
        report.status = status
        report.note = note.strip()
        report.handled_by = moderator
        report.handled_at = timezone.now()
        report.save(update_fields=["status", "note", "handled_by", "handled_at"])
        action = Kind.REPORT_RESOLVE if status == Report.Status.RESOLVED else Kind.REPORT_DISMISS
        _record(
            moderator=moderator,
            action=action,
            reason=report.note,
            user=report.reported_id,
            report=report,
            game=report.game,
            message=report.message,
        )

        def text() -> str:
            outcome = report.get_status_display()
            line = _("Your report #%(id)s was closed: %(outcome)s.") % {"id": report.pk, "outcome": outcome}
            return f"{line} {report.note}".strip()

        _tell([report.reporter_id], text, email=False)
    return report


# ---------------------------------------------------------------------------
# Games


def _players(game: Game) -> list[int]:
    return [uid for uid in game.seats.values_list("user_id", flat=True) if uid is not None]


def game_abort(*, moderator: User, game_id: int, reason: str) -> Game:
    """Abort a game, open, running or finished: nobody's rating changes for it.

    Clocks stop; rating changes already applied (a finished rated game)
    are reversed (``ratings.services.rating_reverse``). The players are told.

    Raises:
        ModerationError: the game was already aborted.
    """
    _require(moderator, PERM_GAMES)
    with transaction.atomic():
        game = lock_game(game_id)
        if game.status == Game.Status.ABORTED:
            raise ModerationError(_("This game was already cancelled."))
        was = lifecycle.game_abort_locked(game)
        reversed_ = rating_reverse(game=game) if was == Game.Status.FINISHED else []
        _record(
            moderator=moderator,
            action=Kind.GAME_ABORT,
            reason=reason,
            game=game,
            data={"was": was, "ratings_reversed": [rc.user_id for rc in reversed_]},
        )
        _tell(
            _players(game),
            lambda: " ".join(
                filter(
                    None,
                    [
                        _("A moderator cancelled game #%(id)s; it does not count for ratings.") % {"id": game.pk},
                        _reason_line(reason),
                    ],
                )
            ),
        )
    return game


def game_adjudicate(*, moderator: User, game_id: int, ranks: Mapping[int, int], reason: str) -> Game:
    """End a stalled game with the ranks a moderator sets, then rate it like any finished game.

    Args:
        ranks: ``{seat position: rank}`` for every seat (1 = best; ties allowed).

    Raises:
        ModerationError: the game is not running, or the ranks do not cover
            every seat with numbers from 1 to the number of seats.
    """
    _require(moderator, PERM_GAMES)
    with transaction.atomic():
        game = lock_game(game_id)
        if not game.is_active:
            raise ModerationError(_("Only a game in progress can be adjudicated."))
        seats = list(game.seats.all())
        if set(ranks) != {s.position for s in seats} or not all(1 <= r <= len(seats) for r in ranks.values()):
            raise ModerationError(_("Give every seat a rank from 1 to %(n)d.") % {"n": len(seats)})
        # Finished, emailed and rated as any game that ends (games.events.GameFinished).
        lifecycle.game_adjudicate_locked(game, ranks)
        _record(
            moderator=moderator,
            action=Kind.GAME_ADJUDICATE,
            reason=reason,
            game=game,
            data={"ranks": {str(p): r for p, r in sorted(ranks.items())}},
        )
        _tell(
            _players(game),
            lambda: " ".join(
                filter(
                    None,
                    [_("A moderator ended game #%(id)s and set the result.") % {"id": game.pk}, _reason_line(reason)],
                )
            ),
        )
    return game


def seat_forfeit(*, moderator: User | None, game_id: int, position: int, reason: str) -> Seat:
    """Forfeit a seat of a running game, as if its player had run out of time.

    The seat ranks last; with two or more players left a bot plays it to
    the end, else the game ends and is rated. ``moderator`` None is the
    site acting on a ban (the forfeit sweep).

    Raises:
        ModerationError: the game is not running, the seat is a bot's or
            already forfeited.
    """
    if moderator is not None:
        _require(moderator, PERM_GAMES)
    with transaction.atomic():
        game = lock_game(game_id)
        if not game.is_active:
            raise ModerationError(_("Only a game in progress can be forfeited."))
        seat = game.seats.select_related("user").get(position=position)
        if seat.user_id is None or seat.forfeited:
            raise ModerationError(_("This seat cannot be forfeited."))
        # The timeout rule's own code: ranked last; a bot plays on, or the game ends.
        lifecycle.seat_forfeit_locked(game, seat, timezone.now(), by_moderator=True)
        _record(
            moderator=moderator,
            action=Kind.SEAT_FORFEIT,
            reason=reason,
            game=game,
            user=seat.user_id,
            data={"position": position},
        )
        _tell(
            [seat.user_id],
            lambda: " ".join(
                filter(
                    None,
                    [_("A moderator forfeited your seat in game #%(id)s.") % {"id": game.pk}, _reason_line(reason)],
                )
            ),
            email=moderator is not None,
        )
    return seat


def _shift_clocks(game: Game, by: timedelta, position: int | None) -> list[int]:
    """Push running deadlines (of one seat, or all) back by ``by``; return the users concerned. Lock held."""
    moved = clocks.clocks_push_back(game, by, position)
    if not moved:
        raise ModerationError(_("No clock of this game is running."))
    return [s.user_id for s in moved if s.user_id]


def deadline_extend(*, moderator: User, game_id: int, by: timedelta, reason: str, position: int | None = None) -> Game:
    """Give the running clock of one seat (``position``) or of every seat ``by`` more time.

    Raises:
        ModerationError: not running, ``by`` not positive, or no clock running.
    """
    _require(moderator, PERM_GAMES)
    if by <= timedelta(0):
        raise ModerationError(_("The extension must be positive."))
    with transaction.atomic():
        game = lock_game(game_id)
        if not game.is_active:
            raise ModerationError(_("Only a game in progress has clocks."))
        users = _shift_clocks(game, by, position)
        _record(
            moderator=moderator,
            action=Kind.DEADLINE_EXTEND,
            reason=reason,
            game=game,
            data={"seconds": int(by.total_seconds()), "position": position},
        )
        _tell(users, lambda: _("A moderator gave you more time in game #%(id)s.") % {"id": game.pk}, email=False)
    return game


def clocks_pause(*, moderator: User, game_id: int, until: datetime, reason: str) -> Game:
    """Stop a game's running clocks until ``until``, the way a vacation does.

    Every running deadline is pushed back by the time left until ``until``,
    so the time each player had left is theirs again from then; moves made
    meanwhile are allowed and start fresh clocks as usual.

    Raises:
        ModerationError: not running, ``until`` not in the future, or no clock running.
    """
    _require(moderator, PERM_GAMES)
    now = timezone.now()
    if until <= now:
        raise ModerationError(_("Pause until a time in the future."))
    with transaction.atomic():
        game = lock_game(game_id)
        if not game.is_active:
            raise ModerationError(_("Only a game in progress has clocks."))
        users = _shift_clocks(game, until - now, None)
        _record(
            moderator=moderator, action=Kind.CLOCKS_PAUSE, reason=reason, game=game, data={"until": until.isoformat()}
        )
        _tell(users, lambda: _("A moderator paused the clocks of game #%(id)s.") % {"id": game.pk}, email=False)
    return game


@dataclass(frozen=True, slots=True)
class FullLog:
    """A game's whole log with hidden information, for moderators.

    Attributes:
        game: the Game.
        moves: per move: ``seq``, ``seat``, ``move`` and the raw ``events``
            (``Event.to_dict``: private parts included).
        views: name -> the engine's view of the current position: one
            ``"all"`` view with everything revealed, or, for an engine
            without ``reveal_all``, the spectator's and each seat's view.
    """

    game: Game
    moves: list[dict[str, Any]]
    views: dict[str, Any]


def game_full_log(*, moderator: User, game_id: int) -> FullLog:
    """Return the full log of a game with hidden information, and record that it was opened.

    Raises:
        ModerationError: the game has not started, or the moderator plays in
            it while it runs (they would see their opponents' hands).
    """
    _require(moderator, PERM_HIDDEN)
    game = Game.objects.get(pk=game_id)
    if game.started is None:
        raise ModerationError(_("This game has not started yet."))
    if game.is_active and game.seats.filter(user=moderator).exists():
        raise ModerationError(_("You play in this game: another moderator must look at its hidden information."))
    engine = engine_for(game)
    positions = replay_states(game)
    moves = [
        {"seq": seq, "seat": seat, "move": move, "events": [e.to_dict() for e in events]}
        for seq, seat, move, _state, events in positions[1:]
    ]
    state = positions[-1][3]
    views: dict[str, Any] = {"all": engine.view(state, None, reveal_all=True)}
    with transaction.atomic():
        _record(moderator=moderator, action=Kind.LOG_VIEW, game=game, data={"seq": game.last_seq})
    return FullLog(game=game, moves=moves, views=views)


# ---------------------------------------------------------------------------
# Users


def _restrict(moderator: User, user: User, kind: str, until: datetime | None, reason: str) -> Restriction:
    if until is not None and until <= timezone.now():
        raise ModerationError(_("The end must be in the future."))
    if user.pk == moderator.pk:
        raise ModerationError(_("You cannot restrict yourself."))
    return Restriction.objects.create(user=user, kind=kind, end=until, reason=reason, moderator=moderator)


def user_ban(*, moderator: User, user: User, reason: str, until: datetime | None = None) -> Restriction:
    """Ban ``user``, for good (``until`` None) or until a time.

    A banned user cannot sign in, move or chat; their seats in running
    games forfeit on the next sweep (``banned_seats_forfeit``).
    """
    _require(moderator, PERM_USERS)
    with transaction.atomic():
        row = _restrict(moderator, user, Restriction.Kind.BAN, until, reason)
        _record(
            moderator=moderator,
            action=Kind.USER_BAN,
            reason=reason,
            user=user,
            data={"until": until.isoformat() if until else None},
        )

        def text() -> str:
            if until is None:
                line = _("Your Herald account has been suspended.")
            else:
                line = _("Your Herald account has been suspended until %(when)s (UTC).") % {
                    "when": until.astimezone(UTC).strftime("%Y-%m-%d %H:%M")
                }
            return " ".join(filter(None, [line, _reason_line(reason)]))

        _tell([user], text)
        _forget(user.pk)
    return row


def user_mute(*, moderator: User, user: User, reason: str, until: datetime | None = None) -> Restriction:
    """Stop ``user`` from chatting, for good or until a time."""
    _require(moderator, PERM_USERS)
    with transaction.atomic():
        row = _restrict(moderator, user, Restriction.Kind.MUTE, until, reason)
        _record(
            moderator=moderator,
            action=Kind.USER_MUTE,
            reason=reason,
            user=user,
            data={"until": until.isoformat() if until else None},
        )
        _tell(
            [user],
            lambda: " ".join(
                filter(None, [_("A moderator has stopped you from chatting on Herald."), _reason_line(reason)])
            ),
        )
        _forget(user.pk)
    return row


def _lift(moderator: User, user: User, kind: str, action: str, reason: str) -> int:
    _require(moderator, PERM_USERS)
    with transaction.atomic():
        lifted = Restriction.objects.active().filter(user=user, kind=kind).update(lifted=timezone.now())
        if not lifted:
            raise ModerationError(_("Nothing to lift."))
        _record(moderator=moderator, action=action, reason=reason, user=user)
        _forget(user.pk)
    return lifted


def user_unban(*, moderator: User, user: User, reason: str = "") -> int:
    """Lift every ban of ``user`` in force; return how many."""
    return _lift(moderator, user, Restriction.Kind.BAN, Kind.USER_UNBAN, reason)


def user_unmute(*, moderator: User, user: User, reason: str = "") -> int:
    """Lift every mute of ``user`` in force; return how many."""
    return _lift(moderator, user, Restriction.Kind.MUTE, Kind.USER_UNMUTE, reason)


def user_warn(*, moderator: User, user: User, reason: str) -> Notice:
    """Warn ``user``: they see the warning on their next visit (and by email)."""
    _require(moderator, PERM_USERS)
    if not reason.strip():
        raise ModerationError(_("Write the warning."))
    with transaction.atomic():
        _record(moderator=moderator, action=Kind.USER_WARN, reason=reason, user=user)
        _tell([user], lambda: _("A warning from the Herald moderators: %(text)s") % {"text": reason.strip()})
    return Notice.objects.filter(user=user).latest("pk")


def rating_refund(*, moderator: User, game_id: int, offender: User, reason: str) -> list[int]:
    """Give the rating changes of a finished rated game back to everyone but ``offender``.

    The others' ratings become as if they had not played the game (a
    cheater's victims); the offender's change stands.

    Returns:
        The ids of the users refunded.

    Raises:
        ModerationError: not a finished rated game of ``offender``, or nothing to refund.
    """
    _require(moderator, PERM_USERS)
    with transaction.atomic():
        game = lock_game(game_id)
        players = _players(game)
        if not game.is_finished or not game.rated or offender.pk not in players:
            raise ModerationError(_("Choose a finished rated game of this player."))
        others = [uid for uid in players if uid != offender.pk]
        reversed_ = rating_reverse(game=game, users=others)
        if not reversed_:
            raise ModerationError(_("There are no rating changes left to refund in this game."))
        refunded = [rc.user_id for rc in reversed_]
        _record(
            moderator=moderator,
            action=Kind.RATING_REFUND,
            reason=reason,
            user=offender,
            game=game,
            data={"refunded": refunded},
        )
        _tell(refunded, lambda: _("A moderator refunded your rating change from game #%(id)s.") % {"id": game.pk})
    return refunded


def chat_hide(*, moderator: User, message_id: int, reason: str) -> HiddenMessage:
    """Hide a chat message from everyone but moderators; it is kept for the record.

    Raises:
        ModerationError: already hidden.
    """
    _require(moderator, PERM_CHAT)
    with transaction.atomic():
        message = ChatMessage.objects.select_related("game").get(pk=message_id)
        hidden, created = HiddenMessage.objects.get_or_create(
            message=message, defaults={"moderator": moderator, "reason": reason}
        )
        if not created:
            raise ModerationError(_("This message is already hidden."))
        _record(
            moderator=moderator,
            action=Kind.CHAT_HIDE,
            reason=reason,
            user=message.user_id,
            game=message.game,
            message=message,
        )
        _tell(
            [message.user_id],
            lambda: " ".join(
                filter(
                    None,
                    [
                        _("A moderator hid one of your chat messages in game #%(id)s.") % {"id": message.game_id},
                        _reason_line(reason),
                    ],
                )
            ),
            email=False,
        )
    return hidden


def banned_seats_forfeit() -> int:
    """Forfeit every seat a banned user still holds in a running game (the periodic sweep).

    Each seat in its own transaction, so one broken game does not stop the
    others. Returns the number of seats forfeited.
    """
    done = 0
    for user_id in banned_user_ids():
        seats = Seat.objects.filter(user_id=user_id, forfeited=False, game__status=Game.Status.ACTIVE)
        for game_id, position in list(seats.values_list("game_id", "position")):
            try:
                seat_forfeit(moderator=None, game_id=game_id, position=position, reason="banned")
                done += 1
            except ModerationError:
                pass  # the game ended or the seat changed since the query: nothing to do
            except Exception:
                log.exception("forfeiting banned user %s in game %s failed", user_id, game_id)
    return done
