"""Read-only queries for the tournament pages."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db.models import Count, Q

from moderation.trail import PERM_GAMES
from tournaments.models import Entry, Tournament
from tournaments.standings import round_tables, standings, tiebreak_names

if TYPE_CHECKING:
    from accounts.models import User

#: Finished and cancelled tournaments shown on the list.
RECENT = 30


def tournament_lists() -> dict[str, list[Tournament]]:
    """The list page's three lists: open for sign-up, running, finished (recent first), with player counts."""
    base = Tournament.objects.annotate(players=Count("entries", filter=Q(entries__withdrawn__isnull=True)))
    return {
        "signup": list(base.filter(status=Tournament.Status.SIGNUP).order_by("starts", "pk")),
        "running": list(base.filter(status=Tournament.Status.RUNNING).order_by("-started", "-pk")),
        "finished": list(
            base.filter(status__in=[Tournament.Status.FINISHED, Tournament.Status.CANCELLED]).order_by(
                "-finished", "-pk"
            )[:RECENT]
        ),
    }


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
        "entry": my_entry(tournament, user),
        "moderator": is_moderator(user),
    }
