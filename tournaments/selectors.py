"""Read-only queries for the tournament pages."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db.models import Count, OuterRef, Q, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from moderation.trail import PERM_GAMES
from tournaments.models import Entry, Table, Tournament
from tournaments.pairing import round_robin_round_count
from tournaments.standings import round_tables, standings, tiebreak_names

if TYPE_CHECKING:
    from accounts.models import User

#: Finished and cancelled tournaments shown on the list.
RECENT = 30


def tournament_lists() -> dict[str, list[Tournament]]:
    """The list page's lists: open for sign-up, sign-up closed but not started yet ("closed"), running,
    finished (recent first), with player counts.

    A tournament whose sign-up has closed is no longer listed as open for
    sign-up (the walk-through found it there): it waits in its own list.
    """
    now = timezone.now()
    base = Tournament.objects.annotate(
        players=Count("entries", filter=Q(entries__withdrawn__isnull=True)),
        round_now=Coalesce(Subquery(_unfinished_rounds(OuterRef("pk")).values("round__number")[:1]), "current_round"),
    )
    return {
        "signup": list(
            base.filter(status=Tournament.Status.SIGNUP, signup_closes__gt=now).order_by("signup_closes", "pk")
        ),
        "closed": list(base.filter(status=Tournament.Status.SIGNUP, signup_closes__lte=now).order_by("starts", "pk")),
        "running": list(base.filter(status=Tournament.Status.RUNNING).order_by("-started", "-pk")),
        "finished": list(
            base.filter(status__in=[Tournament.Status.FINISHED, Tournament.Status.CANCELLED]).order_by(
                "-finished", "-pk"
            )[:RECENT]
        ),
    }


def _unfinished_rounds(tournament: Any) -> Any:
    """The tables still playing in ``tournament`` (an id or OuterRef), lowest round first."""
    return Table.objects.filter(round__tournament=tournament, done=False).order_by("round__number")


def round_in_play(tournament: Tournament) -> int:
    """The round players are in: the lowest with a game still going (a round robin makes every round at
    once), else the last one made (0 before the start)."""
    number = _unfinished_rounds(tournament).values_list("round__number", flat=True).first()
    return number or tournament.current_round


def planned_rounds(tournament: Tournament) -> int:
    """Before the start, the rounds a round robin will have for its current sign-ups (0 for other systems)."""
    if tournament.system != Tournament.System.ROUND_ROBIN:
        return 0
    return round_robin_round_count(tournament.entries.count(), double=tournament.double_round_robin)


def is_moderator(user: User | Any) -> bool:
    """True for staff holding the Moderators' games permission (who may run tournaments)."""
    return bool(user.is_authenticated and user.is_active and user.is_staff and user.has_perm(PERM_GAMES))


def my_entry(tournament: Tournament, user: User | Any) -> Entry | None:
    """The user's entry in the tournament, or None (also for visitors)."""
    if not user.is_authenticated:
        return None
    return tournament.entries.filter(user=user).first()


def standings_context(tournament: Tournament) -> dict[str, Any]:
    """What the standings partial draws: the rows and the tie-breaks' names."""
    return {"tournament": tournament, "rows": standings(tournament), "tiebreaks": tiebreak_names(tournament)}


def detail_context(tournament: Tournament, user: User | Any) -> dict[str, Any]:
    """Everything the tournament page draws."""
    return {
        **standings_context(tournament),
        "rounds": round_tables(tournament),
        "round_now": round_in_play(tournament),
        "planned_rounds": planned_rounds(tournament) if tournament.current_round == 0 else 0,
        "entry": my_entry(tournament, user),
        "moderator": is_moderator(user),
    }
