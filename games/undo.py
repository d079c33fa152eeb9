"""Taking moves back: a player's own undo, and the undo that needs the other players' consent.

The rules of it (``games.engine.undo``): the player whose turn it is may
take back their last move, and with it every move after it, alone when
nothing hidden was shown since and nobody else was asked anything;
otherwise only if every other person still playing agrees before the next
move (a bot agrees at once: it has nothing to lose and is never in a rated
game). Never, not even by consent, when one of those moves answered a
question asked outside its player's turn (an answer to another player's
attack): such an answer is final once made (``undo_answer_final``). What counts as "shown" is the engine's to say
(``Engine.undo_barrier``), from the events the moves produced.

The log stays append-only: the undo is an Action, ``{"act": "undo", "to":
N}`` (with ``agreed``, the seats that consented), and replay goes back to
the position after move N (``games.replay``). It goes through the move
path's lock and expected seq, so a stale or doubled undo never applies
twice, and publishes ``MovesApplied`` (the undo entry), ``DecisionsOwed``
for seats that owe again, and after commit ``ChangesCommitted``.

A consent request is an :class:`~games.models.UndoRequest` row, open while
the game stays at the seq it was asked at. All timestamps are UTC.
"""

from __future__ import annotations

import pickle
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games import events, policy
from games.engine import undo as rules
from games.engine.core import IllegalMove
from games.errors import AccountRestricted, GameNotActive, NotYourMove, StaleMove
from games.fanout import on_commit_cache_and_fan_out, on_commit_fan_out
from games.locking import lock_game
from games.models import Action, Game, Seat, UndoRequest
from games.moves import MoveResult, automatic_moves
from games.replay import RECENT_EVENTS, ReplayBroken, Snapshot, engine_for, replay, snapshot_at, state_key
from games.turns import update_turn_fields

if TYPE_CHECKING:
    from accounts.models import User

#: How many of the log's last entries an undo looks at (a turn longer than this is not taken back).
LOOKBACK = 200


def undo_plan(game: Game, position: int) -> rules.Plan:
    """What ``position`` taking back its last move would do now (``games.engine.undo.plan``).

    Reads the log's last entries and the cached snapshot; writes nothing.

    Raises:
        IllegalMove: nothing may be taken back (its reason and ``undo_*`` code).
    """
    engine = _engine(game)
    snap = snapshot_at(game)
    if engine.turn_player(snap.state) != position:  # the common case on a page: no need to read the log
        raise IllegalMove(str(_REFUSALS["undo_not_your_turn"]), "undo_not_your_turn")
    rows = list(
        game.actions.filter(seq__gt=game.last_seq - LOOKBACK).order_by("seq").values_list("seq", "seat", "move")
    )
    complete = game.last_seq <= LOOKBACK and len(snap.events) < RECENT_EVENTS

    def state_at(seq: int) -> Any:
        # A fresh copy of the position after move ``seq``: its cached snapshot (it was the
        # game's latest once), else one replay (milliseconds). Asked only when another player
        # owes an answer now, or a move to take back may be an answer (``engine.answer_acts``).
        blob = cache.get(state_key(game, seq, engine.version))
        snap_then = pickle.loads(blob) if blob is not None else replay(game, engine, upto=seq)  # noqa: S301 - our cache
        return snap_then.state

    def pending_at(seq: int) -> list[Any]:
        return engine.pending(state_at(seq))

    try:
        return rules.plan(
            engine,
            snap.state,
            position,
            rows,
            snap.events,
            complete=complete,
            pending_at=pending_at,
            state_at=state_at,
        )
    except IllegalMove as exc:
        raise IllegalMove(str(_REFUSALS.get(exc.code, exc.reason)), exc.code) from None


#: The engine's refusals (``games.engine.undo.plan``), in the reader's language.
_REFUSALS = {
    "undo_not_your_turn": gettext_lazy("Only the player whose turn it is can take moves back."),
    "undo_nothing": gettext_lazy("You have made no move to take back in this turn."),
    "undo_turn_over": gettext_lazy("Your turn has ended: its moves can no longer be taken back."),
    "undo_too_far": gettext_lazy("That move is too far back to take back."),
    "undo_answer_final": gettext_lazy(
        "An answer to another player's attack is final once made: "
        "the others have seen its effect, so it cannot be taken back, even with their consent."
    ),
}


def game_undo(*, game_id: int, user: User, expected_seq: int) -> MoveResult:
    """Take back ``user``'s last move (and every move after it), if no one's consent is needed.

    Raises:
        StaleMove: the game moved on since the page was shown; nothing written.
        IllegalMove: nothing may be taken back, or only with consent
            (code ``undo_needs_consent``; its reason says why).
        NotYourMove, AccountRestricted, GameNotActive, LockTimeout: as for a move.
    """
    with transaction.atomic():
        game, seat, seats = _lock(game_id, user, expected_seq)
        plan = undo_plan(game, seat.position)
        if not plan.free:
            raise IllegalMove(_needs_consent(plan), "undo_needs_consent")
        return _append_undo(game, seat.position, plan, seats=seats, agreed=())


def game_undo_ask(*, game_id: int, user: User, expected_seq: int) -> UndoRequest | MoveResult:
    """Ask the other players to let ``user`` take back their last move; undo at once if no person must agree.

    A free undo is made at once; so is one where every other seat is a bot
    (or forfeited, played by a bot). Otherwise an open ``UndoRequest`` is
    returned (an earlier open one of the same position is reused).

    Raises:
        as :func:`game_undo`.
    """
    with transaction.atomic():
        game, seat, seats = _lock(game_id, user, expected_seq)
        plan = undo_plan(game, seat.position)
        voters = _voters(seats, seat.position)
        if plan.free or not voters:
            bots = [] if plan.free else [s.position for s in seats if s.position != seat.position]
            return _append_undo(game, seat.position, plan, seats=seats, agreed=bots)
        request = open_request(game)
        if request is not None and request.seat == seat.position and request.to == plan.to:
            return request
        if request is not None:
            raise IllegalMove(_("Another request to take moves back is waiting for an answer."), "undo_pending")
        since = timezone.now()
        request = UndoRequest.objects.create(
            game=game, seat=seat.position, to=plan.to, count=plan.count, at_seq=game.last_seq
        )
        events.publish(events.UndoAsked(game=game, request_id=request.pk, seat=seat.position, voters=voters))
        on_commit_fan_out(game, since=since, after_answer=True)  # correspondence queues the emails
        return request


def game_undo_answer(*, game_id: int, user: User, request_id: int, agree: bool) -> UndoRequest | MoveResult:
    """Record ``user``'s answer to an open undo request; the last "yes" makes the undo.

    A "no" closes the request (declined). The request must still be open
    and the game still at the seq it was asked at.

    Returns:
        The request (still open, or declined), or the undo's :class:`MoveResult`.

    Raises:
        GameNotActive: the game is not running, or the request is no longer open.
        NotYourMove: the user has no say in it (not a player still playing, or the one asking).
    """
    if policy.is_restricted(user, "move"):
        raise AccountRestricted(_("Your account is suspended."))
    with transaction.atomic():
        game = lock_game(game_id)
        if not game.is_active:
            raise GameNotActive(_("This game is not in progress."))
        request = open_request(game)
        if request is None or request.pk != request_id:
            raise GameNotActive(_("That request to take moves back is no longer open."))
        seats = list(game.seats.select_related("user").order_by("position"))
        voters = _voters(seats, request.seat)
        seat = next((s for s in voters if s.user_id == user.pk), None)
        if seat is None:
            raise NotYourMove(_("You have no say in this request."))
        if not agree:
            request.declined_by = seat.position
            request.status = UndoRequest.Status.DECLINED
            request.save(update_fields=["declined_by", "status"])
            return request
        request.agreed = sorted({*request.agreed, seat.position})
        if any(s.position not in request.agreed for s in voters):
            request.save(update_fields=["agreed"])
            return request
        plan = undo_plan(game, request.seat)  # the same position as when asked: the same plan
        request.status = UndoRequest.Status.DONE
        request.save(update_fields=["agreed", "status"])
        others = [s.position for s in seats if s.position != request.seat]
        return _append_undo(game, request.seat, plan, seats=seats, agreed=others)


def open_request(game: Game) -> UndoRequest | None:
    """The game's open undo request still in time (asked at the game's current seq), or None."""
    return (
        UndoRequest.objects.filter(game=game, status=UndoRequest.Status.OPEN, at_seq=game.last_seq)
        .order_by("-pk")
        .first()
    )


def supports_undo(game: Game) -> bool:
    """True when the game's engine says what may be taken back (``Engine.undo_barrier``)."""
    try:
        return hasattr(engine_for(game), "undo_barrier")
    except ReplayBroken:
        return False


def undo_request_mark(game: Game) -> str:
    """A short mark of the game's open undo request and its answers ("" for none), for the page's poll cursor."""
    if not supports_undo(game):
        return ""
    row = (
        UndoRequest.objects.filter(game=game, status=UndoRequest.Status.OPEN, at_seq=game.last_seq)
        .values_list("pk", "agreed")
        .first()
    )
    return "" if row is None else f".u{row[0]}-{len(row[1])}"


def _voters(seats: list[Seat], asking: int) -> list[Seat]:
    """The seats whose person must agree: every other seat still played by its person."""
    return [s for s in seats if s.position != asking and s.user_id is not None and not s.given_up]


def _needs_consent(plan: rules.Plan) -> str:
    if plan.why == rules.ASKED:
        return _("Another player has been asked something since: the others must agree to take it back.")
    return _("Something hidden has been shown since (a card drawn, a shuffle, a reveal): the others must agree.")


def _engine(game: Game) -> Any:
    engine = engine_for(game)
    if not hasattr(engine, "undo_barrier"):
        raise IllegalMove(_("Moves cannot be taken back in this game."), "undo_unsupported")
    return engine


def _lock(game_id: int, user: User, expected_seq: int) -> tuple[Game, Seat, list[Seat]]:
    """Lock the game and find ``user``'s seat, checked as for a move (``games.moves.game_submit_move``)."""
    if policy.is_restricted(user, "move"):
        raise AccountRestricted(_("Your account is suspended."))
    game = lock_game(game_id)
    if not game.is_active:
        raise GameNotActive(_("This game is not in progress."))
    if expected_seq != game.last_seq:
        raise StaleMove(_("The game has moved on since this page was shown."), game.last_seq)
    seats = list(game.seats.select_related("user").order_by("position"))
    seat = next((s for s in seats if s.user_id == user.pk), None)
    if seat is None:
        raise NotYourMove(_("You are not playing in this game."))
    if seat.given_up:
        raise NotYourMove(_("You no longer play this seat: a bot plays it to the end of the game."))
    return game, seat, seats


def _append_undo(
    game: Game, position: int, plan: rules.Plan, *, seats: list[Seat], agreed: Iterable[int]
) -> MoveResult:
    """Append the undo entry, go back to its position, run the clocks, publish. Lock held."""
    since = timezone.now()
    engine = _engine(game)
    entry = rules.undo_entry(plan.to, agreed)
    seq = game.last_seq + 1
    Action.objects.create(game=game, seq=seq, seat=position, move=entry)
    game.last_seq = seq
    game.forced_due = None  # a deferred End turn belonged to the position taken back
    # One replay (milliseconds): the position and the log's events exactly as any later replay gives them.
    snap = replay(game, engine)
    # Standing answers changed since move N settle its open questions now, as after any move.
    applied: list[Any] = []
    marked = automatic_moves(engine, snap.state, seats, applied, game=game)
    if applied:
        Action.objects.bulk_create(
            Action(game=game, seq=seq + 1 + i, seat=s, move=m, standing=i in marked)
            for i, (s, m, _evs) in enumerate(applied)
        )
        game.last_seq = seq + len(applied)
        added = [(seq + 1 + i, e) for i, (_s, _m, evs) in enumerate(applied) for e in evs]
        snap = Snapshot(snap.state, (snap.events + added)[-RECENT_EVENTS:])
    UndoRequest.objects.filter(game=game, status=UndoRequest.Status.OPEN).update(status=UndoRequest.Status.LAPSED)
    moved = [(position, entry)] + [(s, m) for s, m, _evs in applied]
    events.publish(events.MovesApplied(game=game, first_seq=seq, moves=moved))
    update_turn_fields(game, engine, snap.state, seats=seats)
    game.save(update_fields=["last_seq", "to_act", "deadline", "forced_due"])
    on_commit_cache_and_fan_out(game, engine, snap, since=since, seats=seats)
    undo_events = [e for s, e in snap.events if s >= seq]
    return MoveResult(game=game, seq=game.last_seq, events=undo_events, snapshot=snap, seats=seats)


def undo_context(game: Game, seat: Seat | None, seats: list[Seat]) -> dict[str, Any] | None:
    """What the game page shows of undo to ``seat``'s player (``games/_undo.html``), or None for nothing.

    Keys: ``free`` (an Undo button), ``ask`` (an "ask the others" button,
    with ``why``), ``count`` (moves it takes back), ``request`` (the open
    consent request), ``asker`` (its player's name), ``voter`` (this player
    must answer it), ``answered`` (this player agreed already), ``mine`` (this
    player asked), ``declined_by`` (who declined this player's request at
    this position), ``forced_due`` (when a waiting End turn is made, UTC),
    ``grace`` (how many seconds after the move it waits: the setting).
    At most two queries (the request, and the log's tail for the turn's player).
    """
    if seat is None or seat.given_up or not game.is_active or not supports_undo(game):
        return None
    latest = UndoRequest.objects.filter(game=game, at_seq=game.last_seq).order_by("-pk").first()
    request = latest if latest is not None and latest.status == UndoRequest.Status.OPEN else None
    out: dict[str, Any] = {
        "request": request,
        "forced_due": game.forced_due,
        "grace": int(settings.HERALD_FORCED_MOVE_GRACE),
    }
    if request is not None:
        asker = next((s for s in seats if s.position == request.seat), None)
        out["asker"] = str(asker.name) if asker else ""
        out["voter"] = any(s.pk == seat.pk for s in _voters(seats, request.seat))
        out["answered"] = seat.position in request.agreed
        out["mine"] = request.seat == seat.position
    elif latest is not None and latest.status == UndoRequest.Status.DECLINED and latest.seat == seat.position:
        out["declined_by"] = next((str(s.name) for s in seats if s.position == latest.declined_by), "")
    try:
        plan = undo_plan(game, seat.position)
    except IllegalMove:
        return out if request is not None or out.get("declined_by") else None
    out["free"] = plan.free
    out["ask"] = not plan.free
    out["why"] = plan.why
    out["count"] = plan.count
    return out
