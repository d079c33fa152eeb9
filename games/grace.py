"""The grace period before a move that needs no thought: time to take back a misclicked move.

A move may leave its player one legal move only, one that often reveals
what they have not seen yet (ending a turn whose clean-up draws the next
hand, taking the top card of a deck). Which moves those are is the game's
rule: its engine names the move (``engine.forced_move``), and the site
makes it for the player. Made at once, a misclick just before it could
never be taken back without showing the player what it revealed
(``games.undo``). So after a person's own move the forced move waits
``settings.HERALD_FORCED_MOVE_GRACE`` seconds (``Game.forced_due``): the
player may make it themselves (any move ends the wait), take their move
back (Undo), or do nothing, and then it is made for them. The game never
stalls on a closed tab:

* after commit, ``games.tasks.forced_move_due`` is queued with that
  countdown (by its listener of ``ChangesCommitted``);
* the sweep (``correspondence.sweep``, every minute, or from page
  requests without a broker) makes every overdue one, so a lost broker
  message or a dead worker delays the move by at most a minute.

Bots, timeouts and moderators never wait: only ``game_submit_move`` asks for
the grace (``games.moves.apply_move(grace=True)``). Times are UTC.
"""

from __future__ import annotations

import logging
from datetime import datetime

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games.locking import lock_game
from games.models import Game
from games.moves import apply_move
from games.replay import engine_for, state_at

log = logging.getLogger(__name__)


def game_forced_move(*, game_id: int, now: datetime | None = None) -> bool:
    """Make the forced move whose grace ended by ``now`` (default: now), for its player. Idempotent.

    Nothing happens if the game has no overdue forced move (the player ended
    the turn or took the move back meanwhile, or the grace is not over: an
    eager task runs at once, before it is due). A game whose deadline passed
    inside the grace gets its forced move at once. Returns True if a move was made.
    """
    now = now or timezone.now()
    with transaction.atomic():
        game = lock_game(game_id)
        if not game.is_active or game.forced_due is None:
            return False
        if game.forced_due > now and (game.deadline is None or game.deadline > now):
            # Not yet; but a clock that ran out inside the grace ends it: the player moved in time,
            # and the move held back is theirs, not a timeout (the sweep makes these before timeouts).
            return False
        forced = engine_for(game).forced_move(state_at(game))
        if forced is None:  # nothing is forced any more: a stale mark
            game.forced_due = None
            game.save(update_fields=["forced_due"])
            return False
        apply_move(game, forced[0], forced[1])  # clears forced_due; made at once (no grace)
    return True


def forced_moves_due(now: datetime, limit: int = 200) -> int:
    """Make every forced move whose grace ended by ``now``, or whose game's clock ran out first; return how many.

    The sweep calls it before it applies the timeout rule, so a player whose
    clock ends inside the grace after their last Buy is not timed out.
    """
    made = 0
    waiting = Game.objects.filter(status=Game.Status.ACTIVE, forced_due__isnull=False)
    due = waiting.filter(Q(forced_due__lte=now) | Q(deadline__lte=now)).order_by("forced_due")
    for game_id in list(due.values_list("pk", flat=True)[:limit]):
        try:
            made += game_forced_move(game_id=game_id, now=now)
        except Exception:  # one broken game must not stop the others
            log.exception("forced move of game %s failed", game_id)
    return made


def due_in(game_id: int) -> float | None:
    """Seconds until game ``game_id``'s waiting forced move is due (0 if overdue), or None if none waits."""
    due = Game.objects.filter(pk=game_id, forced_due__isnull=False).values_list("forced_due", flat=True).first()
    if due is None:
        return None
    return max(0.0, (due - timezone.now()).total_seconds())
