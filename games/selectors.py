"""Read-only queries for the pages: the lobby lists, access, and the log.

Nothing here writes. The lobby's lists load the game columns a row shows;
``games_tags.game_rows`` reads their seats (:func:`row_seats`, one query per
list) for the rows it has not drawn within the minute, so a page costs a
fixed number of queries whatever the number of games.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.db.models import Count, Prefetch, Q, QuerySet
from django.utils.html import format_html
from django.utils.translation import gettext as _

from games.engine.undo import retracted_seqs
from games.errors import GameNotActive
from games.eventtext import describe, merged, read_plays, standing_kinds
from games.models import Action, Game, Seat

if TYPE_CHECKING:
    from accounts.models import User

LOBBY_LIMIT = 50
#: "Your other games" in the lobby: the most recent; the profile lists them all.
WAITING_LIMIT = 20
#: "Your move" in the lobby: the most urgent (oldest deadline) first.
MY_MOVE_LIMIT = 25
FINISHED_LIMIT = 10
#: "Games in progress" in the lobby, to watch.
WATCH_LIMIT = 20


#: What a list row reads of a seat's player (``Seat.name``, the profile link); the rest
#: of the user row (password hash, email, settings) stays in the database.
ROW_USER_FIELDS = ("user__id", "user__username", "user__display_name", "user__deleted", "user__bot_account")


def row_seats() -> Prefetch:
    """The prefetch of what a game row (``games_tags.game_row``) shows of its seats: in order, with players' names."""
    seat_fields = [f.name for f in Seat._meta.concrete_fields]
    return Prefetch(
        "seats", queryset=Seat.objects.select_related("user").only(*seat_fields, *ROW_USER_FIELDS).order_by("position")
    )


def _row_columns(qs: QuerySet[Game]) -> QuerySet[Game]:
    """``qs`` without the columns no game row shows (the options, the kingdom, and the seed)."""
    return qs.defer("options", "seed")


def can_view(game: Game, user: User | None) -> bool:
    """True if ``user`` (or an anonymous visitor, ``None``) may watch ``game``.

    Public games are open to everyone; private ones to their seated players,
    their invitees, their creator and staff.
    """
    if not game.private:
        return True
    if user is None or not user.is_authenticated:
        return False
    return (
        user.is_staff
        or game.creator_id == user.pk
        or game.seats.filter(user=user).exists()
        or game.invitations.filter(user=user).exists()
    )


def with_seats(game: Game, seats: list[Seat]) -> Game:
    """Return ``game`` with ``seats`` as its prefetched ``game.seats.all()``, so reading them costs no query.

    For seats the caller has just read or written under the game's lock
    (with their users), such as the move path's: the page drawn after a move
    then shows exactly the rows the move committed. Django keeps prefetched
    rows in ``_prefetched_objects_cache`` under the relation's name; this
    fills it the way ``prefetch_related`` does.
    """
    qs = Seat.objects.filter(game=game)
    qs._result_cache = list(seats)
    # Django's private prefetch bookkeeping (what prefetch_related writes), which django-stubs leave out.
    qs._prefetch_done = True  # type: ignore[attr-defined]
    cache = getattr(game, "_prefetched_objects_cache", None)
    if cache is None:
        cache = game._prefetched_objects_cache = {}  # type: ignore[attr-defined]
    cache["seats"] = qs
    return game


def seat_for(game: Game, user: User | None) -> Seat | None:
    """Return ``user``'s seat at ``game``, or None (spectators, anonymous visitors)."""
    if user is None or not user.is_authenticated:
        return None
    return next((s for s in game.seats.all() if s.user_id == user.pk), None)


def open_games(user: User | None) -> QuerySet[Game]:
    """Open games that ``user`` may join or watch, newest first.

    Each game is annotated with ``seats_taken``.
    """
    visible = Q(private=False)
    if user is not None and user.is_authenticated:
        visible |= Q(invitations__user=user) | Q(creator=user)
    qs = Game.objects.filter(visible, status=Game.Status.OPEN).distinct()
    qs = qs.annotate(seats_taken=Count("seats", distinct=True)).order_by("-created")
    return _row_columns(qs)[:LOBBY_LIMIT]


def my_invitations(user: User) -> QuerySet[Game]:
    """Open games ``user`` was invited to and has not joined yet, newest first."""
    qs = (
        Game.objects.filter(status=Game.Status.OPEN, invitations__user=user)
        .exclude(seats__user=user)
        .annotate(seats_taken=Count("seats", distinct=True))
        .order_by("-created")
    )
    return _row_columns(qs)[:WAITING_LIMIT]


def my_move_games(user: User) -> QuerySet[Game]:
    """Running games where ``user`` owes a decision, oldest deadline first."""
    qs = Game.objects.filter(status=Game.Status.ACTIVE, seats__user=user, seats__owes_move=True).order_by(
        "deadline", "pk"
    )
    return _row_columns(qs)[:MY_MOVE_LIMIT]


def my_waiting_games(user: User) -> QuerySet[Game]:
    """Running games of ``user``'s where someone else owes the decision, and frozen ones (waiting on a moderator)."""
    running = [Game.Status.ACTIVE, Game.Status.FROZEN]
    qs = Game.objects.filter(status__in=running, seats__user=user, seats__owes_move=False).order_by("-started", "pk")
    return _row_columns(qs)[:WAITING_LIMIT]


def games_to_watch(user: User | None) -> QuerySet[Game]:
    """Public games in progress that ``user`` (or a visitor, ``None``) does not play in, newest first.

    What a visitor can open and watch; the lobby's own lists already hold a
    player's games. Ordered by creation, which the lobby's index serves.
    """
    qs = Game.objects.filter(status=Game.Status.ACTIVE, private=False)
    if user is not None and user.is_authenticated:
        qs = qs.exclude(seats__user=user)
    return _row_columns(qs.order_by("-created"))[:WATCH_LIMIT]


def recent_finished_games(user: User | None) -> QuerySet[Game]:
    """The most recently finished public games, plus ``user``'s own, newest first.

    Two index-ordered queries for the ids (public games by ``finished``; the
    user's own through their seats) instead of one OR with DISTINCT, which
    PostgreSQL could only answer by sorting every finished game.
    """
    finished = Game.objects.filter(status=Game.Status.FINISHED)
    pairs = list(finished.filter(private=False).order_by("-finished").values_list("finished", "pk")[:FINISHED_LIMIT])
    if user is not None and user.is_authenticated:
        own = finished.filter(seats__user=user).order_by("-finished").values_list("finished", "pk")
        pairs += list(own[:FINISHED_LIMIT])
    ids = [pk for _when, pk in sorted(set(pairs), reverse=True)[:FINISHED_LIMIT]]
    return _row_columns(Game.objects.filter(pk__in=ids).order_by("-finished", "-pk"))


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One line of a game's log as a viewer may see it.

    Attributes:
        seq: the Action's seq.
        seat: the seat that moved.
        name: that seat's shown name.
        text: a sentence in the active language; from events, with each card
            as its id between ``eventtext.CARD_MARK`` (``games_tags.log_text``
            turns them into links).
        move: the move as recorded (public in the games so far; a game with
            secret moves must redact it here before it reaches a template).
        depth: how deep inside other plays it happened (0: not inside one; the
            game's ``eventtext.read_plays``).
        aside: the line is the site's, not a move's ("X resigned", placed
            after move ``seq``): it carries no move number.
    """

    seq: int
    seat: int
    name: str
    text: str
    move: dict[str, Any]
    depth: int = 0
    aside: bool = False


def resignation_lines(game: Game) -> list[LogEntry]:
    """The game's resignations as log lines, each after the move made just before it (``Seat.forfeit_seq``).

    Not the engine's: a resignation is no move, and the moves (what the
    engine replays) stay as they were. Seats come from the prefetch: no query.
    """
    return [
        LogEntry(
            seq=s.forfeit_seq or 0,
            seat=s.position,
            name=str(s.name),
            text=_("%(name)s resigned.") % {"name": s.name},
            move={},
            aside=True,
        )
        for s in sorted(game.seats.all(), key=lambda s: (s.forfeit_seq or 0, s.timed_out or s.joined))
        if s.forfeited and s.resigned
    ]


def _with_resignations(game: Game, lines: list[LogEntry], *, limit: int, after_seq: int | None) -> list[LogEntry]:
    """``lines`` (oldest first) with each resignation after the last line of the move it followed.

    One that follows a move older than the lines shown is left out when
    ``limit`` cut older lines off (it is not in the part of the log shown),
    and so is one at or before ``after_seq`` (already drawn).
    """
    gone = resignation_lines(game)
    if not gone:
        return lines
    cut = len(lines) >= limit
    out = list(lines)
    for entry in gone:
        if after_seq is not None and entry.seq <= after_seq:
            continue
        if cut and out and entry.seq < out[0].seq:
            continue
        at = next((i for i, line in enumerate(out) if line.seq > entry.seq), len(out))
        out.insert(at, entry)
    return out[-limit:]


#: How many lines a game's log shows.
LOG_LIMIT = 100


def game_log(
    game: Game,
    viewer: int | None,
    *,
    limit: int = LOG_LIMIT,
    events: list[tuple[int, Any]] | None = None,
    after_seq: int | None = None,
    settled: bool = False,
) -> list[LogEntry]:
    """Return the last ``limit`` log lines of ``game`` as ``viewer`` may see them, oldest first.

    With ``events`` (the ``(seq, Event)`` pairs of ``services.Snapshot``),
    the log shows what happened, filtered for the viewer by
    ``Event.for_viewer``: a player sees their own draws, others see "draws 5
    cards"; everything is shown once the game is over. Without them, it
    falls back to the moves themselves (public in both games). ``viewer``
    is the reader's seat index or None for spectators. With ``after_seq``
    (and ``events``), only the lines of moves after that seq. ``settled``:
    the position after ``events`` has its turn's player free to move
    (``eventtext.read_plays``, which then tells a play that found nothing
    to do from one whose choice is open). Expects ``game.seats``
    prefetched with users.
    """

    names = {s.position: str(s.name) for s in game.seats.all()}
    if events is not None:
        seat_names = [names.get(i, "?") for i in range(max(names, default=-1) + 1)]
        reveal_all = game.status == Game.Status.FINISHED
        # The nesting needs the turn from its start: worked out over every event in hand (no text drawn).
        depths, idle = read_plays(game.kind, events, settled=settled)
        out: list[LogEntry] = []
        above: tuple[int, dict[str, Any]] | None = None  # the line just drawn (the next event in time)
        standing = _standing_seqs(game, events, after_seq)
        answer_kinds = standing_kinds(game.kind)
        # Newest first, stopping at ``limit``: the snapshot keeps far more events than the page shows.
        for index in range(len(events) - 1, -1, -1):
            seq, event = events[index]
            if len(out) >= limit or (after_seq is not None and seq <= after_seq):
                break
            shown = event.for_viewer(viewer, reveal_all=reveal_all)
            if shown is None:
                continue
            # Lines of one move that read as one (draws card by card, in a row): the game's eventtext.merge.
            one = merged(game.kind, shown, above[1]) if above is not None and above[0] == seq else None
            if one is not None:
                out.pop()
                shown = one
            if index in idle:  # a play that did nothing: the line says why nothing followed (eventtext.read_plays)
                shown = {**shown, "idle": True}
            # Card ids marked: the log links each card to its reference entry (games_tags.log_entries).
            text = describe(game.kind, shown, seat_names, mark_cards=True)
            above = None
            if text and shown["kind"] in answer_kinds and shown.get("player") in standing.get(seq, ()):
                # The player chose this answer in advance (standing answers): say so.
                text = format_html('{} <span class="standing-mark">({})</span>', text, _("standing answer"))
            if text:
                seat = shown.get("player")
                out.append(
                    LogEntry(
                        seq=seq,
                        seat=seat if isinstance(seat, int) else -1,
                        name=names.get(seat, ""),
                        text=text,
                        move={},
                        depth=depths[index],
                    )
                )
                above = (seq, shown)
        out.reverse()
        return _with_resignations(game, out, limit=limit, after_seq=after_seq)
    rows = list(game.actions.order_by("-seq").values_list("seq", "seat", "move")[:limit])
    rows.reverse()
    moves = [
        LogEntry(
            seq=seq, seat=seat, name=names.get(seat, "?"), text=describe_move(names.get(seat, "?"), move), move=move
        )
        for seq, seat, move in rows
    ]
    return _with_resignations(game, moves, limit=limit, after_seq=None)


def replay_lines(game: Game, positions: list[tuple[Any, ...]], step: int, perspective: int, settled: bool) -> list[str]:
    """The log lines of the move at ``positions[step]`` in a finished game's replay, from ``perspective``'s seat.

    ``positions``: ``services.replay_states(game)`` (``(seq, mover, move,
    state, events)`` each, the deal first). Everything is shown (the game is
    over). A game's plays are read over the whole game (its
    ``eventtext.read_plays``, ``settled`` as ``viewing.turn_free`` says of
    the last position), so a play that did nothing says so.
    Lines with no text (a turn's end) are left out. Card ids are marked, as
    in the game's log.
    """
    names = [str(s.name) for s in game.seats.all()]
    events = [(seq, e) for seq, _mover, _move, _state, evs in positions for e in evs]
    idle = read_plays(game.kind, events, settled=settled)[1]
    first = sum(len(position[4]) for position in positions[:step])
    lines = []
    for index, event in enumerate(positions[step][4], start=first):
        shown = event.for_viewer(perspective, reveal_all=True) or {}
        if index in idle:
            shown = {**shown, "idle": True}
        text = describe(game.kind, shown, names, mark_cards=True)
        if text:
            lines.append(text)
    return lines


def _standing_seqs(game: Game, events: list[tuple[int, Any]], after_seq: int | None) -> dict[int, set[int]]:
    """seq -> the seats whose move at that seq was a standing answer, over the seqs of ``events``."""
    if not events:
        return {}
    low = max(events[0][0], (after_seq or 0) + 1)
    out: dict[int, set[int]] = {}
    for seq, seat in game.actions.filter(standing=True, seq__gte=low).values_list("seq", "seat"):
        out.setdefault(seq, set()).add(seat)
    return out


def describe_move(name: str, move: dict[str, Any]) -> str:
    """Return a sentence for a move of the common notation, in the active language.

    Card names stay as the notation writes them here; a game's board can translate them.
    """
    act = move.get("act") if isinstance(move, dict) else None
    card = str(move.get("card", "")) if isinstance(move, dict) else ""
    cards = move.get("cards") if isinstance(move, dict) else None
    params = {"name": name, "card": card}
    if act == "play":
        return _("%(name)s plays %(card)s.") % params
    if act == "buy":
        return _("%(name)s buys %(card)s.") % params
    if act == "gain":
        return _("%(name)s gains %(card)s.") % params
    if act == "play_treasures":
        return _("%(name)s plays their Treasures.") % params
    if act == "end_actions":
        return _("%(name)s ends their Action phase.") % params
    if act == "end_turn":
        return _("%(name)s ends their turn.") % params
    if act == "yes":
        return _("%(name)s answers yes.") % params
    if act == "no":
        return _("%(name)s answers no.") % params
    if act == "undo":  # games.engine.undo: an entry that goes back to the position after move "to"
        return _("%(name)s takes back their moves after move %(to)s.") % {"name": name, "to": move.get("to", "?")}
    if act == "choose":
        if not cards:
            return _("%(name)s chooses nothing.") % params
        return _("%(name)s chooses %(cards)s.") % {"name": name, "cards": ", ".join(map(str, cards))}
    details = ", ".join(f"{k}={v}" for k, v in move.items() if k != "act") if isinstance(move, dict) else ""
    return _("%(name)s: %(act)s %(details)s") % {"name": name, "act": act, "details": details}


def game_record(game: Game) -> dict[str, Any]:
    """Return a finished game as JSON-ready data: enough to replay it exactly.

    Keys: ``kind``, ``engine_version``, ``options``, ``seed``, ``players``
    (per seat: ``seat``, ``name``, ``user``/``bot``, ``rank``, ``score``,
    ``forfeited``, ``resigned``, ``forfeited_after``: the seq of the last
    move before the seat forfeited, or null), ``moves`` (``seq``, ``player``, and the move's keys;
    ``"standing": true`` on a move the site made from the player's standing
    answers),
    ``retracted`` (the seqs of moves taken back, each with the seq of the
    undo entry that took it back: ``{"12": 14}``; an undo entry is a move
    ``{"act": "undo", "to": N}`` that returns to the position after move N),
    ``started``/``finished`` (ISO 8601, UTC).

    Raises:
        GameNotActive: the game has not finished (the seed is still secret).
    """
    if not game.is_finished:
        raise GameNotActive(_("The record is available once the game has finished."))
    seats = list(game.seats.select_related("user").order_by("position"))
    rows = list(game.actions.order_by("seq").values_list("seq", "seat", "move", "standing"))
    return {
        "kind": game.kind,
        "engine_version": game.engine_version,
        "options": game.options,
        "seed": game.seed,
        "players": [
            {
                "seat": s.position,
                "name": str(s.name),
                "user": s.user.username if s.user else None,
                "bot": s.bot or None,
                "rank": s.rank,
                "score": s.score,
                "forfeited": s.forfeited,
                "resigned": s.resigned,
                # The seq of the last move made before the seat forfeited (0: before any), as the log places it.
                "forfeited_after": s.forfeit_seq if s.forfeited else None,
            }
            for s in seats
        ],
        "moves": [
            {**move, "seq": seq, "player": seat, **({"standing": True} if standing else {})}
            for seq, seat, move, standing in rows
        ],
        "retracted": {str(k): v for k, v in retracted_seqs((seq, move) for seq, _seat, move, _s in rows).items()},
        "started": game.started.isoformat() if game.started else None,
        "finished": game.finished.isoformat() if game.finished else None,
    }


def ops_numbers(now: datetime) -> dict[str, Any]:
    """The games' numbers for the staff page (``ops.selectors``, registered by ``GamesConfig.ready``).

    games_running, games_open; moves_last_hour and moves_last_day (Actions created since); overdue_decisions
    (seats of running games past their deadline); frozen_games (ids of games waiting on a moderator, oldest first).
    """
    games = Game.objects.aggregate(
        running=Count("pk", filter=Q(status=Game.Status.ACTIVE)),
        open=Count("pk", filter=Q(status=Game.Status.OPEN)),
    )
    moves = Action.objects.filter(created__gte=now - timedelta(days=1)).aggregate(
        day=Count("pk"), hour=Count("pk", filter=Q(created__gte=now - timedelta(hours=1)))
    )
    frozen = Game.objects.filter(status=Game.Status.FROZEN).order_by("pk").values_list("pk", flat=True)[:100]
    return {
        "games_running": games["running"],
        "games_open": games["open"],
        "moves_last_hour": moves["hour"],
        "moves_last_day": moves["day"],
        "overdue_decisions": Seat.objects.filter(deadline__lt=now, game__status=Game.Status.ACTIVE).count(),
        "frozen_games": list(frozen),
    }
