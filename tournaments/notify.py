"""A tournament's emails: "it has started", "round N: your games" and the result, through correspondence's outbox.

The rows are ``Notification`` rows of kind ``tournament`` written in the
transaction that made the news (``correspondence.outbox.notify_other``),
so they are sent once, retried, swept, unsubscribed from and turned off
(``NotificationSettings.tournament``) like every other email. A row is
keyed to a game of the player's (the outbox's key is user, game, kind,
seq): the round's game, or for a bye the round's first game, and ``seq``
is the round's number (0: the start, :data:`RESULT_SEQ`: the result). The
words come from :func:`render`, which correspondence calls in the
recipient's language (registered by ``TournamentsConfig.ready``).
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from correspondence import outbox
from correspondence.emails import absolute
from correspondence.models import Notification
from correspondence.tasks import outbox_enqueue
from games.i18n import game_title
from games.models import Game
from tournaments.models import Table, TableSeat, Tournament

if TYPE_CHECKING:
    from tournaments.standings import Row

KIND = Notification.Kind.TOURNAMENT
#: The seq of the result email (a round's number is never this large).
RESULT_SEQ = 60000


def _owe(tournament: Tournament, round_number: int, seq: int, event: str) -> None:
    """Write a row for every active player of round ``round_number``; queue them after commit."""
    since = timezone.now()
    tables = list(Table.objects.filter(round__tournament=tournament, round__number=round_number).order_by("number"))
    first_game = next((t.game for t in tables if t.game is not None), None)
    if first_game is None:
        return
    seats = TableSeat.objects.filter(table__in=tables, entry__withdrawn__isnull=True).select_related(
        "entry", "table__game"
    )
    for ts in seats:
        outbox.notify_other(
            kind=KIND,
            users=[ts.entry.user_id],
            game=ts.table.game or first_game,  # a bye: the round's first game
            seq=seq,
            data={"tournament": tournament.pk, "event": event, "round": round_number},
        )
    transaction.on_commit(partial(outbox_enqueue, since=since))


def started(tournament: Tournament) -> None:
    """Owe "the tournament has started" (with the first round's games) to every player."""
    _owe(tournament, 1, 0, "started")


def round_started(tournament: Tournament, number: int) -> None:
    """Owe "round N: your games" to every player still in."""
    _owe(tournament, number, number, "round")


def finished(tournament: Tournament, rows: list[Row]) -> None:
    """Owe every player the final standings' top and their own place, keyed to their last game."""
    since = timezone.now()
    for row in rows:
        last = (
            TableSeat.objects.filter(entry=row.entry, table__game__isnull=False)
            .order_by("-table__round__number")
            .values_list("table__game", flat=True)
            .first()
        )
        if last is None:
            continue
        outbox.notify_other(
            kind=KIND,
            users=[row.entry.user_id],
            game=Game.objects.get(pk=last),
            seq=RESULT_SEQ,
            data={
                "tournament": tournament.pk,
                "event": "result",
                "rank": row.rank,
                "points": row.points,
                "players": len(rows),
            },
        )
    transaction.on_commit(partial(outbox_enqueue, since=since))


def render(n: Notification) -> dict[str, Any]:
    """The words of a tournament email (the recipient's language and zone are active)."""
    tournament = Tournament.objects.filter(pk=n.data.get("tournament")).first()
    name = tournament.name if tournament else "?"
    links = [(name, absolute(tournament.get_absolute_url()))] if tournament else []
    event = n.data.get("event")
    number = n.data.get("round", 0)
    mine = TableSeat.objects.filter(entry__user_id=n.user_id, table__round__tournament_id=n.data.get("tournament"))
    all_at_once = tournament is not None and tournament.system == Tournament.System.ROUND_ROBIN
    if not all_at_once:  # a round robin's games all start together: the start lists them all
        mine = mine.filter(table__round__number=number)
    rows = list(mine.select_related("table__game", "table__round").order_by("table__round__number"))
    games = [(game_title(g), absolute(g.get_absolute_url())) for ts in rows if (g := ts.table.game) is not None]
    lines: list[str] = []
    if event == "result":
        subject = _("%(name)s is over") % {"name": name}
        lines.append(_("%(name)s is over.") % {"name": name})
        # No ordinals ("1st"): they do not translate; "place N of M" reads well in every language.
        words = {
            "rank": n.data.get("rank"),
            "points": _points(n.data.get("points", 0)),
            "players": n.data.get("players"),
        }
        if words["players"]:
            lines.append(_("Your place: %(rank)s of %(players)s. Your points: %(points)s.") % words)
        else:  # a row written before the field count was kept
            lines.append(_("Your place: %(rank)s. Your points: %(points)s.") % words)
        return {"subject": subject, "lines": lines, "games": links}
    if event == "started":
        subject = _("%(name)s has started") % {"name": name}
        lines.append(_("The tournament %(name)s has started.") % {"name": name})
    else:
        subject = _("%(name)s: round %(round)d") % {"name": name, "round": number}
        lines.append(_("Round %(round)d of %(name)s has begun.") % {"round": number, "name": name})
    byes = [ts for ts in rows if not ts.table.game_id]
    if all_at_once:
        lines.append(_("Your games:"))
        lines.extend(_bye_line(ts, in_round=ts.table.round.number) for ts in byes)
    elif games:
        lines.append(_("Your games this round:"))
    else:
        lines.extend(_bye_line(ts) for ts in byes)
    return {"subject": subject, "lines": lines, "games": games + links}


def _bye_line(ts: TableSeat, in_round: int = 0) -> str:
    """ "You have a bye (this round / in round N)" and the points it scores (a Swiss bye 1, a round robin's 0)."""
    points = ts.points or 0.0
    if in_round:
        if not points:
            return _("You have a bye in round %(round)d: you sit it out, and it scores no points.") % {
                "round": in_round
            }
        return ngettext(
            "You have a bye in round %(round)d: it scores %(points)s point, as a win does.",
            "You have a bye in round %(round)d: it scores %(points)s points, as a win does.",
            _plural(points),
        ) % {"round": in_round, "points": _points(points)}
    if not points:
        return _("You have a bye this round: you sit it out, and it scores no points.")
    return ngettext(
        "You have a bye this round: it scores %(points)s point, as a win does.",
        "You have a bye this round: it scores %(points)s points, as a win does.",
        _plural(points),
    ) % {"points": _points(points)}


def _plural(points: float) -> int:
    """The count ngettext chooses a form by: 1 for exactly one point, else 2 (0.5 points, 2 points)."""
    return 1 if points == 1 else 2


def _points(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")
