"""A finished game's record (JSON) and its replay."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from games import presentation, selectors, services
from games.engine.undo import retracted_seqs
from games.replay import ReplayBroken, Snapshot, engine_for
from games.viewing import turn_free
from games.views.access import get_game_for_user
from ops.responses import bad_request


@require_safe
def game_record(request: HttpRequest, game_id: int) -> HttpResponse:
    """Download a finished game as JSON (options, seed, every move, result)."""
    game, _seat = get_game_for_user(request, game_id)
    try:
        record = services.game_record(game)
    except services.GameNotActive:
        raise Http404("The record is available once the game has finished.") from None
    response = JsonResponse(record, json_dumps_params={"indent": 1, "ensure_ascii": False})
    response["Content-Disposition"] = f'attachment; filename="herald-{game.kind}-{game.pk}.json"'
    return response


def replay_seat(value: str, count: int, default: int) -> int:
    """Return the seat position (0-based) that ``?seat=`` names: seats are numbered 1, 2, ... as on every page.

    ``0`` is seat 1: links made before the numbers started at 1 said ``seat=0``
    for the first seat (their ``seat=1`` now shows the first seat, not the
    second: nothing tells the two apart). Empty, or no such seat: ``default``
    (the reader's own seat, else the first). Raises ValueError when it is no
    whole number (the view's 400).
    """
    if not value.strip():
        return default
    number = int(value)
    if number == 0:
        return 0
    return number - 1 if 1 <= number <= count else default


@require_safe
def game_replay(request: HttpRequest, game_id: int) -> HttpResponse:
    """Step through a finished game's log: ``?step=N`` (0 = the deal) and ``?seat=K`` (whose eyes: 1, 2, ...).

    Only finished games: while a game runs, its past positions would reveal
    hands. Everything is shown (the game is over), from the chosen seat's
    place at the table.
    """
    game, seat = get_game_for_user(request, game_id)
    if not game.is_finished:
        raise Http404("Replays are available once the game has finished.")
    try:
        positions = services.replay_states(game)
    except ReplayBroken as broken:
        messages.error(request, str(broken))
        return redirect(game)
    last = len(positions) - 1
    seats = list(game.seats.all())
    try:
        step = min(max(int(request.GET.get("step", last)), 0), last)
        perspective = replay_seat(request.GET.get("seat", ""), len(seats), seat.position if seat else 0)
    except ValueError:
        return bad_request(request, _("Step and seat must be numbers."))
    engine = engine_for(game)
    seq, mover, move, state, _events = positions[step]
    # A move later taken back is shown as played, marked (games.engine.undo).
    taken_back = retracted_seqs((s, m) for s, _p, m, _st, _e in positions[1:]).get(seq)
    view = engine.view(state, perspective, reveal_all=True)
    view["legal"] = []
    view["decision"] = None
    names = [str(s.name) for s in seats]
    # Card ids marked: the template's log_text links each card to its reference entry, as the game's log does.
    settled = presentation.log_reads_turn(game.kind) and turn_free(game, Snapshot(positions[-1][3], []))
    lines = selectors.replay_lines(game, positions, step, perspective, settled)
    # Who resigned right after this move (after none: at the deal), as the game's log says it.
    resigned = [entry.text for entry in selectors.resignation_lines(game) if entry.seq == seq]
    context = {
        "game": game,
        "seat": None,
        "seats": seats,
        "viewer": perspective,
        # Only the reader's own seat is "(you)", whichever seat's eyes the replay shows.
        "you": seat.position if seat is not None else None,
        "view": view,
        "my_move": False,
        "step": step,
        "last": last,
        "mover": names[mover] if mover is not None else "",
        "lines": lines,
        "resigned": resigned,
        "board_template": presentation.board_templates(game.kind),
        "board_stylesheet": presentation.stylesheet(game.kind),
        "replaying": True,
        "taken_back": taken_back,
    }
    return render(request, "games/replay.html", context)
