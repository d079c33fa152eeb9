"""The API's matchmaking: seeks, the one-button pairing, rematch and follow, with the site's rules (``matchmaking``).

Thin, as ``api.endpoints``: parse, call one service, shape. ``read`` for
the GETs, ``play`` for the rest. A refusal of the matchmaking rules is a
problem with the error's ``code`` and status (``matchmaking.limits.MatchError``).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from http import HTTPStatus
from typing import Any, Literal

from django.utils.translation import gettext as _
from ninja import Field, Path, Router, Schema, Status

from accounts.models import User
from api.auth import PLAY, READ
from api.present import MAX_ID, game_out, visible_game
from api.problems import ERROR_STATUSES, Problem
from api.schemas import GameOut, KindIn, PlainStr, ProblemOut, StrictIn, TimeControl
from games import kinds
from matchmaking import follows, rematch, services
from matchmaking.limits import MatchError
from matchmaking.models import Follow, RematchOffer, Seek

router = Router()

SeekId = Path(..., ge=1, le=MAX_ID, description="The seek's id.")
GameId = Path(..., ge=1, le=MAX_ID, description="The finished game's id.")
USERNAME = Path(..., max_length=150, description="The player's username.")
#: How long a seek may wait, in seconds (``matchmaking.limits.SEEK_LIFETIMES``).
Lifetime = Literal[3600, 21600, 86400, 259200]


def _errors(*ok: Any) -> dict[int, Any]:
    out: dict[int, Any] = dict(ok)
    for status in ERROR_STATUSES:
        out[status] = ProblemOut
    return out


def _problem(exc: MatchError) -> Problem:
    return Problem(exc.status, exc.code, str(exc))


class SeekIn(StrictIn):
    """A seek: the game you want; the matcher seats you with compatible seeks."""

    kind: KindIn
    players_min: int = Field(2, ge=2, le=4, description="The smallest table you accept.")
    players_max: int = Field(2, ge=2, le=4, description="The largest table you accept.")
    rated: bool = False
    time_per_move: TimeControl = Field(86400, description="Seconds per decision: one of the site's time controls.")
    rating_low: int | None = Field(None, ge=0, le=4000, description="Lowest opponent rating; both null: ±300 of yours.")
    rating_high: int | None = Field(None, ge=0, le=4000, description="Highest opponent rating.")
    lifetime: Lifetime = Field(86400, description="Seconds the seek waits: 3600, 21600, 86400 or 259200.")
    fill_with_bots: bool = Field(False, description="Casual only: when it lapses, start with bots in the empty seats.")


class QuickIn(StrictIn):
    """The one-button pairing: a seek with the site's defaults (a day per move, ±300, a day)."""

    kind: KindIn = kinds.names()[0]  # the first of the site's games
    rated: bool = True
    players: int = Field(2, ge=2, le=4)


class SeekOut(Schema):
    """A seek as the lobby lists it."""

    id: int
    username: str
    name: str
    kind: str
    players_min: int
    players_max: int
    rated: bool
    time_per_move: int
    rating_low: int | None
    rating_high: int | None
    created: datetime
    expires: datetime
    status: str = Field(description="open, matched, expired, filled (with bots) or cancelled.")
    game_id: int | None = Field(description="The game it was seated at (matched or filled), else null.")


class RematchOut(Schema):
    """A finished game's rematch offer."""

    game_id: int
    status: str = Field(description="open, started, declined or lapsed.")
    accepted: list[str] = Field(description="Usernames of the players who accepted so far.")
    expires: datetime
    new_game_id: int | None


class FollowOut(Schema):
    """A player you follow."""

    username: str
    name: str
    since: datetime


def _seek_out(seek: Seek) -> dict[str, Any]:
    return {
        "id": seek.pk,
        "username": seek.user.username,
        "name": str(seek.user.shown_name),
        "kind": seek.kind,
        "players_min": seek.players_min,
        "players_max": seek.players_max,
        "rated": seek.rated,
        "time_per_move": int(seek.time_per_move.total_seconds()),
        "rating_low": seek.rating_low,
        "rating_high": seek.rating_high,
        "created": seek.created,
        "expires": seek.expires,
        "status": seek.status,
        "game_id": seek.game_id,
    }


def _rematch_out(offer: RematchOffer) -> dict[str, Any]:
    names = dict(User.objects.filter(pk__in=offer.accepted).values_list("pk", "username"))
    return {
        "game_id": offer.game_id,
        "status": offer.status,
        "accepted": [names[i] for i in offer.accepted if i in names],
        "expires": offer.expires,
        "new_game_id": offer.new_game_id,
    }


@router.get("/seeks", response=_errors((200, list[SeekOut])), auth=READ, tags=["matchmaking"])
def seek_list(request: Any) -> Any:
    """Open seeks, newest first (yours among them), without those of players blocked either way."""
    return [_seek_out(s) for s in services.open_seeks(request.auth.user)]


@router.post("/seeks", response=_errors((201, SeekOut)), auth=PLAY, tags=["matchmaking"])
def seek_post(request: Any, body: SeekIn) -> Any:
    """Post a seek; the matcher runs at once, so the answer may already be ``matched`` with its ``game_id``."""
    try:
        seek = services.seek_create(
            user=request.auth.user,
            kind=body.kind,
            players_min=body.players_min,
            players_max=body.players_max,
            rated=body.rated,
            time_per_move=timedelta(seconds=body.time_per_move),
            rating_low=body.rating_low,
            rating_high=body.rating_high,
            lifetime=timedelta(seconds=body.lifetime),
            fill_with_bots=body.fill_with_bots,
        )
    except MatchError as exc:
        raise _problem(exc) from None
    return Status(HTTPStatus.CREATED, _seek_out(seek))


@router.post("/seeks/quick", response=_errors((200, SeekOut)), auth=PLAY, tags=["matchmaking"])
def seek_quick(request: Any, body: QuickIn) -> Any:
    """The lobby's one-button pairing: join a compatible seek or post one (an open one of yours alike is reused)."""
    try:
        seek = services.quick_pair(user=request.auth.user, kind=body.kind, rated=body.rated, players=body.players)
    except MatchError as exc:
        raise _problem(exc) from None
    return _seek_out(seek)


@router.get("/seeks/{seek_id}", response=_errors((200, SeekOut)), auth=READ, tags=["matchmaking"])
def seek_get(request: Any, seek_id: int = SeekId) -> Any:
    """One of your seeks (whatever its status: poll it to learn its game)."""
    seek = Seek.objects.select_related("user").filter(pk=seek_id, user=request.auth.user).first()
    if seek is None:
        raise Problem(HTTPStatus.NOT_FOUND, "not_found", _("Not found."))
    return _seek_out(seek)


@router.delete("/seeks/{seek_id}", response=_errors((204, None)), auth=PLAY, tags=["matchmaking"])
def seek_delete(request: Any, seek_id: int = SeekId) -> Any:
    """Withdraw one of your open seeks."""
    try:
        services.seek_cancel(seek_id=seek_id, user=request.auth.user)
    except Seek.DoesNotExist:
        raise Problem(HTTPStatus.NOT_FOUND, "not_found", _("Not found.")) from None
    except MatchError as exc:
        raise _problem(exc) from None
    return Status(HTTPStatus.NO_CONTENT, None)


@router.post("/seeks/{seek_id}/accept", response=_errors((200, SeekOut)), auth=PLAY, tags=["matchmaking"])
def seek_accept(request: Any, seek_id: int = SeekId) -> Any:
    """Answer an open seek: post a seek of yours with its options; the matcher seats you together when it may."""
    try:
        seek = services.seek_accept(seek_id=seek_id, user=request.auth.user)
    except Seek.DoesNotExist:
        raise Problem(HTTPStatus.NOT_FOUND, "not_found", _("Not found.")) from None
    except MatchError as exc:
        raise _problem(exc) from None
    return _seek_out(seek)


@router.get("/games/{game_id}/rematch", response=_errors((200, RematchOut)), auth=READ, tags=["matchmaking"])
def rematch_get(request: Any, game_id: int = GameId) -> Any:
    """The rematch offer of a finished game you can see (404 while nobody offered one)."""
    game = visible_game(game_id, request.auth.user)
    offer = rematch.offer_of(game)
    if offer is None:
        raise Problem(HTTPStatus.NOT_FOUND, "not_found", _("Not found."))
    return _rematch_out(offer)


@router.post("/games/{game_id}/rematch", response=_errors((200, RematchOut)), auth=PLAY, tags=["matchmaking"])
def rematch_post(request: Any, game_id: int = GameId) -> Any:
    """Offer a rematch of a finished game you played, or accept the open offer; it starts once everyone accepted."""
    visible_game(game_id, request.auth.user)
    try:
        offer = rematch.rematch_accept(game_id=game_id, user=request.auth.user)
    except MatchError as exc:
        raise _problem(exc) from None
    return _rematch_out(offer)


@router.post("/games/{game_id}/rematch/decline", response=_errors((200, RematchOut)), auth=PLAY, tags=["matchmaking"])
def rematch_decline(request: Any, game_id: int = GameId) -> Any:
    """Decline the open rematch offer of a finished game you played."""
    visible_game(game_id, request.auth.user)
    try:
        offer = rematch.rematch_decline(game_id=game_id, user=request.auth.user)
    except RematchOffer.DoesNotExist:
        raise Problem(HTTPStatus.NOT_FOUND, "not_found", _("Not found.")) from None
    except MatchError as exc:
        raise _problem(exc) from None
    return _rematch_out(offer)


@router.get("/following", response=_errors((200, list[FollowOut])), auth=READ, tags=["matchmaking"])
def following(request: Any) -> Any:
    """The players you follow (blocked either way left out)."""
    rows = Follow.objects.filter(follower=request.auth.user, followed__in=follows.followed_ids(request.auth.user))
    return [
        {"username": f.followed.username, "name": str(f.followed.shown_name), "since": f.created}
        for f in rows.select_related("followed").order_by("followed__username")
    ]


@router.get("/following/games", response=_errors((200, list[GameOut])), auth=READ, tags=["matchmaking"])
def following_games(request: Any) -> Any:
    """The running public games, then the results of the last 7 days, of the players you follow."""
    running, results = follows.followed_games(request.auth.user)
    return [game_out(g, request.auth.user) for g in running + results]


@router.put("/players/{username}/follow", response=_errors((204, None)), auth=PLAY, tags=["matchmaking"])
def follow_put(request: Any, username: PlainStr = USERNAME) -> Any:
    """Follow a player (idempotent; private: they are not told)."""
    try:
        follows.follow(user=request.auth.user, username=username)
    except User.DoesNotExist:
        raise Problem(HTTPStatus.NOT_FOUND, "not_found", _("Not found.")) from None
    except MatchError as exc:
        raise _problem(exc) from None
    return Status(HTTPStatus.NO_CONTENT, None)


@router.delete("/players/{username}/follow", response=_errors((204, None)), auth=PLAY, tags=["matchmaking"])
def follow_delete(request: Any, username: PlainStr = USERNAME) -> Any:
    """Stop following a player (idempotent)."""
    follows.unfollow(user=request.auth.user, username=username)
    return Status(HTTPStatus.NO_CONTENT, None)
