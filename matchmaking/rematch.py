"""Rematch: after a finished game, the same players and options again, the seats rotated.

The first player to press "Rematch" makes the offer (a ``RematchOffer``
row, and a notice by email and push to the others, through the outbox:
kind ``rematch``); each other player accepts or declines on the game's page
(or through the API). When the last one accepts, the new game starts
(``games.services.game_create_arranged``): the player who sat second moves
first, and so on round the table; a recommended kingdom is kept, any other
is drawn anew without the players' bans. An offer lapses a day after it was
made (:data:`OFFER_LIFETIME`). Blocks win: no rematch between players one
of whom blocked another since.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import partial
from typing import TYPE_CHECKING

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import Block
from accounts.selectors import has_verified_email
from correspondence import outbox
from correspondence.models import Notification
from correspondence.tasks import outbox_enqueue
from games import policy, services
from games.models import Game, Seat
from matchmaking.limits import MatchError, check_capacity, options_for
from matchmaking.models import RematchOffer

if TYPE_CHECKING:
    from accounts.models import User

#: An offer lapses this long after it was made.
OFFER_LIFETIME = timedelta(days=1)


def _players(game: Game) -> list[Seat]:
    """The game's seats in seat order, users loaded."""
    return list(game.seats.select_related("user").order_by("position"))


def rematch_refusal(game: Game, seats: list[Seat], user: User) -> str:
    """Why ``user`` may not offer or accept a rematch of ``game`` ("" if they may)."""
    if not game.is_finished:
        return _("Only a finished game can be played again.")
    if all(s.user_id != user.pk for s in seats):
        return _("You did not play in this game.")
    if any(s.user_id is None for s in seats):
        return _("A game with bots cannot be played again this way: start a new one.")
    ids = [s.user_id for s in seats]
    if any(s.user is None or s.user.deleted is not None or not s.user.is_active for s in seats):
        return _("A player of this game has left the site.")
    if Block.objects.filter(blocker_id__in=ids, blocked_id__in=ids).exists():
        return _("This game cannot be played again.")  # blocks are private: no more said
    if policy.is_restricted(user, "create"):
        return _("Your account is suspended.")
    if game.rated and not has_verified_email(user):
        return _("Verify your email address before playing rated games.")
    return ""


def offer_of(game: Game, now: datetime | None = None) -> RematchOffer | None:
    """The game's rematch offer, lapsed if its time passed (the row is marked by :func:`offers_lapse`)."""
    offer = RematchOffer.objects.filter(game=game).first()
    now = now or timezone.now()
    if offer is not None and offer.status == RematchOffer.Status.OPEN and offer.expires <= now:
        offer.status = RematchOffer.Status.LAPSED
    return offer


def rematch_accept(*, game_id: int, user: User) -> RematchOffer:
    """Offer a rematch of a finished game, or accept the open offer; start the new game once everyone accepted.

    Args:
        game_id: the finished game.
        user: one of its players.

    Returns:
        The offer: ``open`` with ``user`` among ``accepted``, or ``started`` with its ``new_game``.

    Raises:
        Game.DoesNotExist: no such game.
        MatchError: not a player, not finished, a game with bots, a block, a suspended account,
            the running-games cap ("rematch_refused", 403 / "too_many_games", 409), or an offer that
            was declined, lapsed or already started ("rematch_closed", 409).
    """
    since = timezone.now()
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        seats = _players(game)
        why = rematch_refusal(game, seats, user)
        if why:
            raise MatchError(why, "rematch_refused", 403)
        check_capacity(user)
        now = timezone.now()
        offer = RematchOffer.objects.select_for_update().filter(game=game).first()
        if offer is not None and offer.status == RematchOffer.Status.OPEN and offer.expires <= now:
            offer.status = RematchOffer.Status.LAPSED
            offer.save(update_fields=["status"])
        if offer is not None and offer.status != RematchOffer.Status.OPEN:
            if offer.status == RematchOffer.Status.STARTED:
                return offer
            raise MatchError(_("This rematch offer is closed."), "rematch_closed", 409)
        if offer is None:
            offer = RematchOffer.objects.create(
                game=game, accepted=[user.pk], created=now, expires=now + OFFER_LIFETIME
            )
            others = [s.user_id for s in seats if s.user_id != user.pk]
            outbox.notify_other(
                kind=Notification.Kind.REMATCH, users=others, game=game, seq=offer.pk, data={"by": user.pk}
            )
            transaction.on_commit(partial(outbox_enqueue, since=since))
        elif user.pk not in offer.accepted:
            offer.accepted = [*offer.accepted, user.pk]
            offer.save(update_fields=["accepted"])
        if {s.user_id for s in seats} <= set(offer.accepted):
            # Every seat has its person (rematch_refusal refuses a game with bots).
            rotated = [u for s in seats[1:] + seats[:1] if (u := s.user) is not None]
            offer.new_game = services.game_create_arranged(
                players=rotated,
                kind=game.kind,
                options=options_for(game.kind, [u.pk for u in rotated], previous=game.options),
                rated=game.rated,
                time_per_move=game.time_per_move,
                clock=game.clock,
                increment=game.increment,
                private=game.private,
            )
            offer.status = RematchOffer.Status.STARTED
            offer.save(update_fields=["new_game", "status"])
    return offer


def rematch_decline(*, game_id: int, user: User) -> RematchOffer:
    """Decline the open rematch offer of a finished game ``user`` played in.

    Raises:
        RematchOffer.DoesNotExist: no offer for that game.
        MatchError: not a player ("rematch_refused", 403); the offer is not open ("rematch_closed", 409).
    """
    with transaction.atomic():
        offer = RematchOffer.objects.select_for_update().select_related("game").get(game_id=game_id)
        if not offer.game.seats.filter(user=user).exists():
            raise MatchError(_("You did not play in this game."), "rematch_refused", 403)
        if offer.status != RematchOffer.Status.OPEN or offer.expires <= timezone.now():
            raise MatchError(_("This rematch offer is closed."), "rematch_closed", 409)
        offer.status = RematchOffer.Status.DECLINED
        offer.declined_by = user
        offer.save(update_fields=["status", "declined_by"])
    return offer


def offers_lapse(*, now: datetime | None = None) -> int:
    """Mark open offers past their time lapsed (their pending notices are then skipped). Returns how many."""
    now = now or timezone.now()
    return RematchOffer.objects.filter(status=RematchOffer.Status.OPEN, expires__lte=now).update(
        status=RematchOffer.Status.LAPSED
    )


def offer_still_open(n: Notification) -> bool:
    """For the outbox: a rematch notice is sent only while its offer is open and the user has not answered."""
    if n.game_id is None:  # every rematch notice names its game
        return False
    offer = RematchOffer.objects.filter(
        pk=n.seq, game_id=n.game_id, status=RematchOffer.Status.OPEN, expires__gt=timezone.now()
    ).first()
    return offer is not None and n.user_id not in offer.accepted
